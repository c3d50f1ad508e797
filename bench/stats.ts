// Statistics shared by the benchmarks: percentiles, medians, rounding, and batched latency.

/** The value at percentile `p` (0..100): the element at floor(p% of n) of the sorted values (0 when empty). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
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
