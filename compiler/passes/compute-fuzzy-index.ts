// Compute pass: the symmetric-delete index of the vocabulary (see runtime/text/fuzzy.ts). Words of up
// to 3 characters get no entry (their edit budget is 0: only exact hits).
//
// The (hash, word) pairs are made in word order and sorted by hash with a stable radix sort, so
// ties keep word order: the same order as sorting by (hash, word), without an array per pair (a
// 4 MB templates file has ~100k pairs, whose tuples and comparator sort cost more than the rest of
// its compute passes together). The buckets (BundleFuzzy.buckets) are about HASHES_PER_BUCKET
// hashes each: a lookup's search of one takes 3 steps, not the 15 of all of TERMy's 33k hashes.

import type { BundleFuzzy } from "../../runtime/bundle/bundle-types.js";
import { deletionVariants, editBudget, hashString } from "../../runtime/text/fuzzy.js";

export function computeFuzzyIndex(words: readonly string[]): BundleFuzzy {
  const hashes: number[] = [];
  const ids: number[] = [];
  words.forEach((word, id) => {
    const budget = editBudget(Array.from(word).length);
    if (budget === 0) return;
    for (const variant of deletionVariants(word, budget)) {
      hashes.push(hashString(variant));
      ids.push(id);
    }
  });
  const sorted = sortedByHash(Uint32Array.from(hashes), Uint32Array.from(ids));
  return { ...sorted, buckets: bucketStarts(sorted.hashes) };
}

/**
 * Hashes a bucket holds on average, at least (and fewer than twice as many), when there are enough
 * for two buckets. More buckets make a lookup's search shorter and the bundle bigger (4 bytes a
 * bucket): corpus TERMy's 33k hashes in 4,096 buckets make its rejected messages take 4.8 % fewer
 * instructions under --jitless than with no buckets; 8,192 buckets only about 0.7 % fewer again.
 */
const HASHES_PER_BUCKET = 8;

/** Where each bucket of the sorted `hashes` starts (by their top bits), and their number at the end. */
function bucketStarts(hashes: Uint32Array): Uint32Array {
  let bits = 1;
  while (bits < 26 && HASHES_PER_BUCKET << (bits + 1) <= hashes.length) bits++;
  const starts = new Uint32Array((1 << bits) + 1);
  for (const hash of hashes) starts[(hash >>> (32 - bits)) + 1]!++;
  for (let bucket = 1; bucket < starts.length; bucket++) starts[bucket]! += starts[bucket - 1]!;
  return starts;
}

/** Pairs stably sorted by hash: a least-significant-digit radix sort over two 16-bit digits. */
function sortedByHash(hashes: Uint32Array, ids: Uint32Array): Omit<BundleFuzzy, "buckets"> {
  let keys = hashes;
  let values = ids;
  for (const shift of [0, 16]) {
    const counts = new Uint32Array(0x10001);
    for (const key of keys) counts[((key >>> shift) & 0xffff) + 1]!++;
    for (let digit = 1; digit < counts.length; digit++) counts[digit]! += counts[digit - 1]!;
    const sortedKeys = new Uint32Array(keys.length);
    const sortedValues = new Uint32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const at = counts[(keys[i]! >>> shift) & 0xffff]!++;
      sortedKeys[at] = keys[i]!;
      sortedValues[at] = values[i]!;
    }
    keys = sortedKeys;
    values = sortedValues;
  }
  return { hashes: keys, words: values };
}
