// The learned stage's training set: phrasings labelled with their class, featurized by the
// runtime's own extractor (runtime/match/learned-features.ts) into sparse rows. The feature space is
// every hash at least two phrasings use, ascending; IDF is over all phrasings (the none-of-these sentences
// included) and rounded to the byte the bundle stores, so training sees the runtime's values.

import { type ConceptTable, FeatureCounts, featureWeight, featureWords, idfByte, MAX_FEATURES, normalizeBlocks, slotFor } from "../../runtime/match/learned-features.js";
import type { Token } from "../../runtime/text/normalize.js";
import { stem } from "../../runtime/text/stem.js";
import { remembered } from "../../runtime/match/remembered.js";
import type { SparseSamples } from "./svm.js";

/**
 * A feature only one phrasing uses is left out (build and run time alike: the runtime ignores a
 * feature the bundle does not list): it can only memorize that phrasing, and dropping those
 * halves the feature space.
 */
const MIN_DF = 2;

export interface LabelledTokens {
  /** The phrasing's tokens (runtime/text/normalize.ts tokenize). */
  tokens: readonly Token[];
  label: number;
}

export interface FeatureSpace {
  /** Feature hashes, ascending: a feature's index is its position. */
  hashes: Uint32Array;
  /** Per feature: its IDF byte. */
  idf: Uint8Array;
}

/** Every sample's distinct feature hashes and their counts, one sample after another (typed arrays, no per-sample objects). */
function countFeatures(samples: readonly LabelledTokens[], concepts: ConceptTable | null): { hashes: Uint32Array; counts: Uint16Array; ends: Int32Array } {
  const counter = new FeatureCounts();
  const stemOf = remembered(stem);
  let hashes = new Uint32Array(1 << 16);
  let counts = new Uint16Array(1 << 16);
  const ends = new Int32Array(samples.length);
  let used = 0;
  samples.forEach((s, i) => {
    counter.count(s.tokens, featureWords(s.tokens, stemOf), concepts);
    if (used + counter.size > hashes.length) {
      const size = Math.max(2 * hashes.length, used + counter.size);
      hashes = grown(hashes, new Uint32Array(size));
      counts = grown(counts, new Uint16Array(size));
    }
    hashes.set(counter.hashes.subarray(0, counter.size), used);
    counts.set(counter.counts.subarray(0, counter.size), used);
    used += counter.size;
    ends[i] = used;
  });
  return { hashes: hashes.subarray(0, used), counts: counts.subarray(0, used), ends };
}

function grown<T extends Uint32Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * Distinct hashes, each given an id in first-seen order and counted: slotFor's table (two ints a
 * slot: the hash, then 1 + its id), grown as ids come (a Map of numbers costs several times more
 * on Banking77's 1.4 million occurrences).
 */
class HashIds {
  keys = new Uint32Array(1 << 15);
  counts = new Int32Array(1 << 15);
  size = 0;
  private slots = new Int32Array(2 << 16);
  private mask = (1 << 16) - 1;

  /** The id of `hash`, counting this occurrence. */
  add(hash: number): number {
    const slot = 2 * slotFor(this.slots, 2, this.mask, hash);
    const at = this.slots[slot + 1]!;
    if (at !== 0) {
      this.counts[at - 1]!++;
      return at - 1;
    }
    if (this.size === this.keys.length) this.grow();
    const id = this.size++;
    this.keys[id] = hash;
    this.counts[id] = 1;
    if (2 * this.size > this.mask + 1) this.rehash();
    else {
      this.slots[slot] = hash | 0;
      this.slots[slot + 1] = id + 1;
    }
    return id;
  }

  private grow(): void {
    const keys = new Uint32Array(2 * this.keys.length);
    const counts = new Int32Array(2 * this.keys.length);
    keys.set(this.keys);
    counts.set(this.counts);
    this.keys = keys;
    this.counts = counts;
  }

  /** Doubles the slots and places ids 0 .. size − 1 again (the newest included). */
  private rehash(): void {
    this.mask = 2 * this.mask + 1;
    this.slots = new Int32Array(2 * (this.mask + 1));
    for (let id = 0; id < this.size; id++) {
      const slot = 2 * slotFor(this.slots, 2, this.mask, this.keys[id]!);
      this.slots[slot] = this.keys[id]! | 0;
      this.slots[slot + 1] = id + 1;
    }
  }
}

/** The samples' feature space and rows; `concepts` adds the concept features the runtime will see with the same table. */
export function featurize(samples: readonly LabelledTokens[], concepts: ConceptTable | null = null): { space: FeatureSpace; rows: SparseSamples } {
  const occurrences = countFeatures(samples, concepts);
  const ids = new HashIds();
  const idOf = new Int32Array(occurrences.hashes.length);
  for (let k = 0; k < idOf.length; k++) idOf[k] = ids.add(occurrences.hashes[k]!);
  // Each sample lists a hash once, so an id's count is its document frequency.
  const frequent = Int32Array.from({ length: ids.size }, (_, id) => id)
    .filter((id) => ids.counts[id]! >= MIN_DF)
    .sort((a, b) => ids.keys[a]! - ids.keys[b]!);
  const hashes = Uint32Array.from(frequent, (id) => ids.keys[id]!);
  const idf = Uint8Array.from(frequent, (id) => idfByte(ids.counts[id]!, samples.length));
  const featureOfId = new Int32Array(ids.size).fill(-1);
  frequent.forEach((id, f) => (featureOfId[id] = f));
  const featureOf = new Int32Array(idOf.length);
  for (let k = 0; k < idOf.length; k++) featureOf[k] = featureOfId[idOf[k]!]!;
  let total = 0;
  for (const f of featureOf) if (f >= 0) total++;
  const offsets = new Int32Array(samples.length + 1);
  const features = new Int32Array(total);
  const values = new Float64Array(total);
  const keptHashes = new Uint32Array(MAX_FEATURES);
  let at = 0;
  let from = 0;
  occurrences.ends.forEach((end, i) => {
    offsets[i] = at;
    let kept = 0;
    for (let k = from; k < end; k++) {
      const f = featureOf[k]!;
      if (f < 0) continue;
      features[at + kept] = f;
      values[at + kept] = featureWeight(occurrences.counts[k]!, idf[f]!);
      keptHashes[kept++] = hashes[f]!;
    }
    normalizeBlocks(keptHashes, values, at, kept);
    at += kept;
    from = end;
  });
  offsets[samples.length] = at;
  return {
    space: { hashes, idf },
    rows: { offsets, features, values, labels: Int32Array.from(samples, (s) => s.label), dims: hashes.length },
  };
}
