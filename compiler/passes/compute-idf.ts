// Compute pass: the probabilistic stage's index (BundleMatching), keyed by Porter stem. Weights
// are IDF over intents, idf(s) = ln(1 + N / df(s)) with N = intents with inputs and df(s) = how
// many of them use a word of stem s; function words ("the", "please", the dataset's stop words)
// keep only FUNCTION_FACTOR of it on both sides, so "show me the files" and "show files" weigh the
// same. Context children are indexed too (the runtime lets them answer only while their parent is
// active). Floats are rounded to 1e-6 so the bytes do not depend on the last bit.

import type { BundleMatching } from "../../runtime/bundle-types.js";
import { normalizeKey, normalizeWords } from "../../runtime/normalize.js";
import { stem } from "../../runtime/stem.js";
import type { Concept } from "./compute-concepts.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import type { Lexicon } from "./compute-lexicon.js";

/** What a function word keeps of its weight. */
export const FUNCTION_FACTOR = 0.05;

/** English words that carry no request by themselves, whatever the dataset's stop-word list says. */
const FUNCTION_WORDS = [
  "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do",
  "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "just", "kindly",
  "let", "like", "may", "me", "might", "mine", "must", "my", "myself", "need", "of", "or", "our", "please", "shall",
  "should", "so", "some", "that", "the", "their", "them", "then", "there", "these", "this", "those", "to", "us",
  "very", "want", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "whose", "why", "will",
  "with", "would", "you", "your",
];

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export interface MatchingTables {
  matching: BundleMatching;
  /** Per input id: its intent. */
  inputIntent: number[];
}

export function computeMatching(
  ordered: readonly OrderedIntent[],
  lexicon: Lexicon,
  concepts: readonly Concept[],
  stopWords: Iterable<string>,
): MatchingTables {
  const functionStems = new Set([...FUNCTION_WORDS, ...stopWords].map(stem));
  const all = new Set<string>([...lexicon.words.map(stem), ...functionStems]);
  for (const concept of concepts) for (const s of concept.stems) all.add(s);
  const stems = [...all].sort();
  const stemId = new Map(stems.map((s, id) => [s, id]));

  const df = new Array<number>(stems.length).fill(0);
  const postings: number[][] = stems.map(() => []);
  const inputIntent: number[] = [];
  const inputStems: number[][] = [];
  let intentsWithInputs = 0;
  for (const { intent, index } of ordered) {
    if (intent.inputs.length === 0) continue;
    intentsWithInputs++;
    const used = new Set<number>();
    const seenKeys = new Set<string>();
    for (const input of intent.inputs) {
      const key = normalizeKey(input.value);
      if (key === "" || seenKeys.has(key)) continue;
      seenKeys.add(key);
      const ids = [...new Set(normalizeWords(input.value).map((w) => stemId.get(stem(w))!))].sort((a, b) => a - b);
      const inputId = inputIntent.length;
      inputIntent.push(index);
      inputStems.push(ids);
      for (const id of ids) {
        postings[id]!.push(inputId);
        used.add(id);
      }
    }
    for (const id of used) df[id]!++;
  }
  const idf = df.map((d) => (d === 0 ? 0 : Math.log(1 + intentsWithInputs / d)));
  const content = idf.filter((w, id) => w > 0 && !functionStems.has(stems[id]!));
  const meanIdf = content.length > 0 ? content.reduce((a, b) => a + b, 0) / content.length : 1;
  // A function word no input uses still weighs a little, so it is not taken for an unknown word.
  const weight = idf.map((w, id) => round6(functionStems.has(stems[id]!) ? FUNCTION_FACTOR * (w || meanIdf) : w));

  const conceptsOf: number[][] = stems.map(() => []);
  concepts.forEach((concept, id) => {
    for (const s of concept.stems) conceptsOf[stemId.get(s)!]!.push(id);
  });
  return {
    inputIntent,
    matching: {
      stems,
      wordStem: lexicon.words.map((w) => stemId.get(stem(w))!),
      weight,
      postings,
      inputStems,
      inputWeight: inputStems.map((ids) => round6(ids.reduce((sum, id) => sum + weight[id]!, 0))),
      concepts: conceptsOf,
      conceptWeight: concepts.map((c) => round6(c.weight)),
      unknownWeight: round6(meanIdf),
    },
  };
}
