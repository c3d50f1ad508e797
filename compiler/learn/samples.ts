// The learned stage's training set: phrasings labelled with their class, featurized by the
// runtime's own extractor (runtime/learned-features.ts) into sparse rows. The feature space is
// every hash at least two phrasings use, ascending; IDF is over all phrasings (the none-of-these sentences
// included) and rounded to the byte the bundle stores, so training sees the runtime's values.

import { FeatureCounts, featureWeight, idfByte, normalizeBlocks } from "../../runtime/learned-features.js";
import { tokenize } from "../../runtime/normalize.js";
import type { SparseSamples } from "./svm.js";

/**
 * A feature only one phrasing uses is left out (build and run time alike: the runtime ignores a
 * feature the bundle does not list): it can only memorize that phrasing, and dropping those
 * halves the feature space.
 */
const MIN_DF = 2;

export interface LabelledText {
  text: string;
  label: number;
}

export interface FeatureSpace {
  /** Feature hashes, ascending: a feature's index is its position. */
  hashes: Uint32Array;
  /** Per feature: its IDF byte. */
  idf: Uint8Array;
}

export function featurize(samples: readonly LabelledText[]): { space: FeatureSpace; rows: SparseSamples } {
  const counts = new FeatureCounts();
  const perSample = samples.map((s) => {
    counts.count(tokenize(s.text).tokens);
    return { hashes: counts.hashes.slice(0, counts.size), counts: counts.counts.slice(0, counts.size) };
  });
  const df = new Map<number, number>();
  for (const s of perSample) for (const h of s.hashes) df.set(h, (df.get(h) ?? 0) + 1);
  const hashes = Uint32Array.from([...df].filter(([, d]) => d >= MIN_DF).map(([h]) => h)).sort();
  const indexOf = new Map<number, number>();
  hashes.forEach((h, i) => indexOf.set(h, i));
  const idf = Uint8Array.from(hashes, (h) => idfByte(df.get(h)!, samples.length));

  let total = 0;
  for (const s of perSample) for (const h of s.hashes) if (indexOf.has(h)) total++;
  const offsets = new Int32Array(samples.length + 1);
  const features = new Int32Array(total);
  const values = new Float64Array(total);
  let at = 0;
  perSample.forEach((s, i) => {
    offsets[i] = at;
    const kept: number[] = [];
    for (let k = 0; k < s.hashes.length; k++) {
      const f = indexOf.get(s.hashes[k]!);
      if (f === undefined) continue;
      features[at + kept.length] = f;
      values[at + kept.length] = featureWeight(s.counts[k]!, idf[f]!);
      kept.push(s.hashes[k]!);
    }
    normalizeBlocks(kept, values, at, kept.length);
    at += kept.length;
  });
  offsets[samples.length] = at;
  return {
    space: { hashes, idf },
    rows: { offsets, features, values, labels: Int32Array.from(samples, (s) => s.label), dims: hashes.length },
  };
}
