// Binary search over an ascending array of numbers (bundle sections and rows are sorted so that
// lookups need no Map built at load).

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
