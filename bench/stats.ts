// Statistics shared by the benchmarks: percentiles, medians, rounding, and batched latency.

/**
 * Nearest rank: of values sorted ascending, the smallest with at least q·n values at or below it,
 * sorted[ceil(q·n) − 1], q in 0..1 (0 when empty). (sorted[floor(q·n)] is one rank too high: for
 * n = 100 its "p99" is the maximum.) The epsilon keeps 0.07·100 = 7.000000000000001 at rank 7.
 */
export function quantileOfSorted(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length - 1e-9) - 1)] ?? 0;
}

/** The value at percentile `p` (0..100) by nearest rank (quantileOfSorted). */
export function percentile(values: readonly number[], p: number): number {
  return quantileOfSorted([...values].sort((a, b) => a - b), p / 100);
}

/** The median; the mean of the two middle values when their number is even. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function round(x: number, digits: number): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

export interface Latency {
  messages: number;
  medianUs: number;
  p99Us: number;
}

/**
 * Median and p99 in µs of `run` per item: after a GC (when exposed) and three warm-up calls per
 * item, each item is timed `rounds` times over `batch` calls.
 */
export function measure<T>(items: readonly T[], run: (item: T) => void, batch: number, rounds: number): Latency {
  const samples: number[] = [];
  // Garbage left by building and loading is collected first, so it is not billed to this stage.
  (globalThis as { gc?: () => void }).gc?.();
  for (const item of items) for (let i = 0; i < 3; i++) run(item); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const item of items) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) run(item);
      samples.push(Number(process.hrtime.bigint() - start) / 1000 / batch);
    }
  }
  return { messages: items.length, medianUs: round(percentile(samples, 50), 2), p99Us: round(percentile(samples, 99), 2) };
}
