// The model's int8 weights as the bundle holds them: quantized per class (OneVsRestModel.int8),
// pruned below a level, grouped by feature with classes ascending, each a packedWeight
// (runtime/match/learned-features.ts). The calibration scores held-out phrasings with exactly these
// (compiler/learn/calibrate.ts), and compute-learned.ts writes them into the bundle.

import { packedWeight } from "../../runtime/match/learned-features.js";

/**
 * Pruning levels the calibration tries: an int8 weight of smaller magnitude than the level (of the
 * class's 127) is dropped from the bundle. compute-learned.ts ships the largest level whose
 * cross-validation stays as good as the smallest's; fewer weights are fewer reads per message.
 * The least, 3, was the fixed level before, chosen by cross-validation on Banking77's train.csv
 * (84.5 % of held-out phrasings answered correctly unpruned, 84.6 % below 3).
 */
export const PRUNE_LEVELS: readonly number[] = [3, 4, 5, 6, 8];

/** Whether an int8 weight survives pruning below `level`. */
export function keeps(q: number, level: number): boolean {
  return q >= level || q <= -level;
}

/** The weights that survive pruning below `level`, grouped by feature, classes ascending: the bundle's layout. */
export function packedRows(rows: Int8Array, dims: number, K: number, level: number): { offsets: Int32Array; weights: Int32Array } {
  const offsets = new Int32Array(dims + 1);
  // One pass into room for every weight, then the kept ones copied out (two passes over the rows cost more).
  const room = new Int32Array(rows.length);
  let at = 0;
  for (let f = 0; f < dims; f++) {
    const row = f * K;
    for (let c = 0; c < K; c++) {
      const q = rows[row + c]!;
      if (keeps(q, level)) room[at++] = packedWeight(c, q);
    }
    offsets[f + 1] = at;
  }
  return { offsets, weights: room.slice(0, at) };
}

/** Packed weights (packedRows at a lower level) pruned below `level` too: what packedRows gives at `level`, read from the far fewer packed weights. */
export function prunedFurther(packed: { offsets: Int32Array; weights: Int32Array }, dims: number, level: number): { offsets: Int32Array; weights: Int32Array } {
  const offsets = new Int32Array(dims + 1);
  const weights = new Int32Array(packed.weights.length);
  let at = 0;
  for (let f = 0; f < dims; f++) {
    for (let p = packed.offsets[f]!; p < packed.offsets[f + 1]!; p++) {
      const w = packed.weights[p]!;
      if (keeps((w << 24) >> 24, level)) weights[at++] = w;
    }
    offsets[f + 1] = at;
  }
  return { offsets, weights: weights.slice(0, at) };
}
