// Compute pass: the probabilistic stage's index (BundleMatching), keyed by Porter stem. Weights
// are IDF over intents, idf(s) = ln(1 + N / df(s)) with N = intents with inputs and df(s) = how
// many of them use a word of stem s in their inputs or describing text (description, tools'
// explanation and goal, category, outputs). Function words ("the", "please", the dataset's
// stop words) are weak evidence: they stay in inputs but weigh FUNCTION_FACTOR of their IDF (of
// the mean IDF when no input uses them), so "show me the files" and "show files" match alike. Context children are indexed too (the runtime lets them answer only while their parent
// is active). Floats are rounded to 1e-6 so the bytes do not depend on the last bit.

import type { BundleMatching } from "../../runtime/bundle/bundle-types.js";
import { rowsOf, stringTableOf } from "../../runtime/bundle/encode.js";
import { withoutTagReferences } from "../ir/walk.js";
import { normalizeWords } from "../../runtime/text/normalize.js";
import { inputKey, inputWords as wordsOfInput } from "../input-tokens.js";
import { stem as porterStem } from "../../runtime/text/stem.js";
import { remembered } from "../../runtime/match/remembered.js";
import type { Concept } from "./compute-concepts.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import type { Lexicon } from "./compute-lexicon.js";

/**
 * What a function word keeps of its weight. With IDF at least ln 2, no stem weighs under
 * 0.05 · ln 2, so rounding an input's weight to 1e-6 changes its recall by far less than the 1e-3
 * the runtime's MaxScore bound allows for (runtime/match/match-probabilistic.ts).
 */
export const FUNCTION_FACTOR = 0.05;

/**
 * What a word the NPC has never seen weighs in a message, relative to the mean IDF: a little more
 * than an average word, since an unknown word is the best sign of a request about something else.
 */
export const UNKNOWN_FACTOR = 1.3;

/** English words that carry no request by themselves, whatever the dataset's stop-word list says. */
const FUNCTION_WORDS = [
  "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for",
  "from", "i", "in", "into", "is", "it", "its", "just", "kindly", "me", "my", "of", "or", "please", "so", "some",
  "that", "the", "these", "this", "those", "to", "very", "was", "were", "with",
];

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * What an entry says about itself (description, tools' explanation and goal, category) and what
 * it answers (its outputs, tags left out), one text.
 */
export function describingText(intent: OrderedIntent["intent"]): string {
  const parts: string[] = [];
  if (intent.description) parts.push(intent.description.value);
  for (const tool of intent.tools) {
    for (const key of ["explanation", "goal"]) {
      const value = tool.arguments[key];
      if (typeof value === "string") parts.push(value);
    }
  }
  if (intent.category) parts.push(intent.category.replace(/[_-]+/g, " "));
  for (const output of intent.outputs) parts.push(withoutTagReferences(output.value));
  return parts.join(" . ");
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
  // The inputs share most of their words: each is stemmed once.
  const stem = remembered(porterStem);
  const functionStems = new Set([...FUNCTION_WORDS, ...stopWords].map(stem));
  const describing = new Map<number, string[]>();
  for (const { intent, index } of ordered) {
    if (intent.inputs.length > 0) describing.set(index, normalizeWords(describingText(intent)).map(stem));
  }
  const all = new Set<string>([...lexicon.words.map(stem), ...functionStems]);
  for (const words of describing.values()) for (const s of words) all.add(s);
  for (const concept of concepts) for (const s of concept.stems) all.add(s);
  const stems = [...all].sort();
  const stemId = new Map(stems.map((s, id) => [s, id]));

  const postings: number[][] = stems.map(() => []);
  const inputIntent: number[] = [];
  const inputStems: number[][] = [];
  const inputWords: number[][] = [];
  const sortedIds = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
  const addInput = (intent: number, ids: number[], words: number[]) => {
    const inputId = inputIntent.length;
    inputIntent.push(intent);
    inputStems.push(ids);
    inputWords.push(words);
    for (const id of ids) postings[id]!.push(inputId);
  };
  /** Per entry with inputs: the stems of its document (inputs and description), for the IDF. */
  const documents = new Map<number, Set<number>>();
  for (const { intent, index } of ordered) {
    if (intent.inputs.length === 0) continue;
    const document = new Set<number>();
    documents.set(index, document);
    const seenKeys = new Set<string>();
    for (const input of intent.inputs) {
      const key = inputKey(input);
      if (key === "" || seenKeys.has(key)) continue;
      seenKeys.add(key);
      const words = wordsOfInput(input);
      const ids = sortedIds(words.map((w) => stemId.get(stem(w))!));
      addInput(index, ids, sortedIds(words.map((w) => lexicon.wordId.get(w)!)));
      ids.forEach((id) => document.add(id));
    }
  }
  // Descriptions: one pseudo-input per entry, after all real inputs. The runtime takes them as
  // weaker evidence for their entry, never as a match alone.
  const firstDescription = inputIntent.length;
  for (const [index, words] of describing) {
    const ids = sortedIds(words.map((s) => stemId.get(s)!));
    if (ids.length > 0) addInput(index, ids, []);
    ids.forEach((id) => documents.get(index)!.add(id));
  }
  const df = new Array<number>(stems.length).fill(0);
  for (const document of documents.values()) for (const id of document) df[id]!++;
  const intentsWithInputs = documents.size;
  const idf = df.map((d) => (d === 0 ? 0 : Math.log(1 + intentsWithInputs / d)));
  const content = idf.filter((w, id) => w > 0 && !functionStems.has(stems[id]!));
  const meanIdf = content.length > 0 ? content.reduce((a, b) => a + b, 0) / content.length : 1;
  // A function word weighs a little in a message, so it is not taken for an unknown word.
  const weight = idf.map((w, id) => round6(functionStems.has(stems[id]!) ? FUNCTION_FACTOR * (w || meanIdf) : w));

  const conceptsOf: number[][] = stems.map(() => []);
  concepts.forEach((concept, id) => {
    for (const s of concept.stems) conceptsOf[stemId.get(s)!]!.push(id);
  });
  return {
    inputIntent,
    matching: {
      stems: stringTableOf(stems),
      wordStem: Uint32Array.from(lexicon.words, (w) => stemId.get(stem(w))!),
      weight: Float64Array.from(weight),
      postings: rowsOf(postings),
      inputStems: rowsOf(inputStems),
      inputWords: rowsOf(inputWords),
      inputWeight: Float64Array.from(inputStems, (ids) => round6(ids.reduce((sum, id) => sum + weight[id]!, 0))),
      concepts: rowsOf(conceptsOf),
      conceptWeight: Float64Array.from(concepts, (c) => round6(c.weight)),
      unknownWeight: round6(meanIdf * UNKNOWN_FACTOR),
      firstDescription,
    },
  };
}

