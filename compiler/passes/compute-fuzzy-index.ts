// Compute pass: the symmetric-delete index of the vocabulary (see runtime/text/fuzzy.ts). Words of up
// to 3 characters get no entry (their edit budget is 0: only exact hits).

import type { BundleFuzzy } from "../../runtime/bundle/bundle-types.js";
import { deletionVariants, editBudget, hashString } from "../../runtime/text/fuzzy.js";

export function computeFuzzyIndex(words: readonly string[]): BundleFuzzy {
  const pairs: [number, number][] = [];
  words.forEach((word, id) => {
    const budget = editBudget(Array.from(word).length);
    if (budget === 0) return;
    for (const variant of deletionVariants(word, budget)) pairs.push([hashString(variant), id]);
  });
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    hashes: Uint32Array.from(pairs, (p) => p[0]),
    words: Uint32Array.from(pairs, (p) => p[1]),
  };
}
