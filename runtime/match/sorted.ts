// Binary search over the bundle's sorted arrays of numbers (sections and rows), and an exact
// table over a sorted StringTable (runtime/bundle/string-table.ts), so that lookups need no Map built at load.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { StringTable } from "../bundle/string-table.js";

/** The first index in [from, to) whose value is not below `value` (`to` when there is none). */
export const lowerBound = (function lowerBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
});

/** Whether `value` is in [from, to) of the ascending `sorted`. */
export const includesSorted = (function includesSorted(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): boolean {
  const at = lowerBound(sorted, value, from, to);
  return at < to && sorted[at] === value;
});

/** Sorted keys with a value each (an exact table's targets): what a Map of key → value gives, without building one at load. */
export class SortedTable {
  constructor(
    readonly keys: StringTable,
    private readonly values: ArrayLike<number>,
  ) {}

  get(key: string): number | undefined {
    const at = this.keys.get(key);
    return at === undefined ? undefined : this.values[at];
  }
}
