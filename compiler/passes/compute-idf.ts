// Compute pass: IDF weights, the inverted index (word → inputs) and input weights for the
// probabilistic matcher. Context children are indexed too (the runtime only lets them answer
// while their parent is active). idf(w) = ln(1 + N / df(w)), N = intents with inputs, df(w) =
// how many of them use w; rounded to 1e-6 so the bundle bytes do not depend on the last float bit.

import type { BundleInputs } from "../../runtime/bundle-types.js";
import { normalizeKey, normalizeWords } from "../../runtime/normalize.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import type { Lexicon } from "./compute-lexicon.js";

export interface IdfTables {
  idf: number[];
  postings: number[][];
  inputs: BundleInputs;
}

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export function computeIdf(ordered: readonly OrderedIntent[], lexicon: Lexicon): IdfTables {
  const df = new Array<number>(lexicon.words.length).fill(0);
  const postings: number[][] = lexicon.words.map(() => []);
  const inputIntent: number[] = [];
  const inputWords: number[][] = [];
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
      const ids = [...new Set(normalizeWords(input.value).map((w) => lexicon.wordId.get(w)!))].sort((a, b) => a - b);
      const inputId = inputIntent.length;
      inputIntent.push(index);
      inputWords.push(ids);
      for (const id of ids) {
        postings[id]!.push(inputId);
        used.add(id);
      }
    }
    for (const id of used) df[id]!++;
  }
  const idf = df.map((d) => (d === 0 ? 0 : round6(Math.log(1 + intentsWithInputs / d))));
  const weight = inputWords.map((ids) => round6(ids.reduce((sum, id) => sum + idf[id]!, 0)));
  return { idf, postings, inputs: { intent: inputIntent, weight, words: inputWords } };
}
