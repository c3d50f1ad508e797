// The learned stage's training set: phrasings labelled with their class, featurized by the
// runtime's own extractor (runtime/learned-features.ts) into sparse rows. The feature space is
// every hash the phrasings use, ascending; IDF is over all phrasings (the none-of-these sentences
// included) and rounded to the byte the bundle stores, so training sees the runtime's values.

import { FeatureCounts, featureWeight, idfByte, normalizeBlocks } from "../../runtime/learned-features.js";
import { tokenize } from "../../runtime/normalize.js";
import type { SparseSamples } from "./svm.js";

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
  const hashes = Uint32Array.from(df.keys()).sort();
  const indexOf = new Map<number, number>();
  hashes.forEach((h, i) => indexOf.set(h, i));
  const idf = Uint8Array.from(hashes, (h) => idfByte(df.get(h)!, samples.length));

  let total = 0;
  for (const s of perSample) total += s.hashes.length;
  const offsets = new Int32Array(samples.length + 1);
  const features = new Int32Array(total);
  const values = new Float64Array(total);
  let at = 0;
  perSample.forEach((s, i) => {
    offsets[i] = at;
    for (let k = 0; k < s.hashes.length; k++) {
      const f = indexOf.get(s.hashes[k]!)!;
      features[at + k] = f;
      values[at + k] = featureWeight(s.counts[k]!, idf[f]!);
    }
    normalizeBlocks(s.hashes, values, at, s.hashes.length);
    at += s.hashes.length;
  });
  offsets[samples.length] = at;
  return {
    space: { hashes, idf },
    rows: { offsets, features, values, labels: Int32Array.from(samples, (s) => s.label), dims: hashes.length },
  };
}
