// Binary search over the bundle's sorted arrays: numbers (sections and rows) and strings (table
// keys, words, stems), so that lookups need no Map built at load.

/** The first index in [from, to) whose value is not below `value` (`to` when there is none). */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `value` is in [from, to) of the ascending `sorted`. */
export function includesSorted(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): boolean {
  const at = lowerBound(sorted, value, from, to);
  return at < to && sorted[at] === value;
}

/** Index of `key` in `keys` (ascending in code-unit order, as the compiler sorts them), or -1. */
function indexOfKey(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = keys[mid]!;
    if (at === key) return mid;
    if (at < key) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/**
 * A bundle's sorted list of strings looked up by binary search: what a Map of key → index gives,
 * without building one at load (thousands of keys cost more to insert than a load's budget). A
 * hostile bundle's unsorted list only finds less.
 */
export class SortedKeys {
  constructor(readonly keys: readonly string[]) {}

  /** The key's index, or undefined. */
  get(key: string): number | undefined {
    const at = indexOfKey(this.keys, key);
    return at < 0 ? undefined : at;
  }

  has(key: string): boolean {
    return indexOfKey(this.keys, key) >= 0;
  }
}

/** Sorted keys with a value each (an exact table's targets), looked up like SortedKeys. */
export class SortedTable {
  constructor(
    readonly keys: readonly string[],
    private readonly values: ArrayLike<number>,
  ) {}

  get(key: string): number | undefined {
    const at = indexOfKey(this.keys, key);
    return at < 0 ? undefined : this.values[at];
  }
}
