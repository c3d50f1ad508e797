// Compute pass: the vocabulary of the NPC (every normalized word of inputs, context children's
// included, and of synonyms), sorted, with the vocab tags each word is a synonym of. A word id is an index here.

import { inputWords } from "../input-tokens.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import type { VocabTable } from "./compute-vocab.js";

export interface Lexicon {
  words: string[];
  wordId: Map<string, number>;
  tags: number[][];
}

export function computeLexicon(ordered: readonly OrderedIntent[], vocab: VocabTable): Lexicon {
  const all = new Set<string>();
  for (const { intent } of ordered) {
    for (const input of intent.inputs) for (const word of inputWords(input)) all.add(word);
  }
  for (const word of vocab.wordTags.keys()) all.add(word);
  for (const [, words] of vocab.phrases) for (const word of words) all.add(word);
  const words = [...all].sort();
  return {
    words,
    wordId: new Map(words.map((word, id) => [word, id])),
    tags: words.map((word) => vocab.wordTags.get(word) ?? []),
  };
}
