// Compute pass: the symmetric-delete index of the vocabulary (see runtime/text/fuzzy.ts). Words of up
// to 3 characters get no entry (their edit budget is 0: only exact hits).
//
// The (hash, word) pairs are made in word order and sorted by hash with a stable radix sort, so
// ties keep word order: the same order as sorting by (hash, word), without an array per pair (a
// 4 MB templates file has ~100k pairs, whose tuples and comparator sort cost more than the rest of
// its compute passes together).

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
  return sortedByHash(Uint32Array.from(hashes), Uint32Array.from(ids));
}

/** Pairs stably sorted by hash: a least-significant-digit radix sort over two 16-bit digits. */
function sortedByHash(hashes: Uint32Array, ids: Uint32Array): BundleFuzzy {
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
