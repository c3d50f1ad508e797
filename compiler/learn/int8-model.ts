// The model's int8 weights as the bundle holds them: quantized per class,
// pruned below a level, grouped by feature with classes ascending, each a packedWeight
// (runtime/learned-features.ts). The calibration scores held-out phrasings with exactly these
// (compiler/learn/calibrate.ts), and compute-learned.ts writes them into the bundle.

import { packedWeight } from "../../runtime/learned-features.js";
import type { OneVsRestModel } from "./svm.js";

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

/** int8 weights of one class, unpruned: weight ≈ q · scale, |q| ≤ 127 (scale 0 when every weight is 0). */
export function quantize(w: Float64Array, dims: number, out: Int8Array): number {
  let max = 0;
  for (let f = 0; f < dims; f++) max = Math.max(max, Math.abs(w[f]!));
  const scale = max / 127;
  for (let f = 0; f < dims; f++) out[f] = scale > 0 ? Math.round(w[f]! / scale) : 0;
  return scale;
}

/** The model's int8 weights, feature-major (rows[f · K + c]), unpruned, with each class's scale and bias. */
export function int8Rows(model: OneVsRestModel, dims: number, K: number): { rows: Int8Array; scale: Float64Array; bias: Float64Array } {
  const w = new Float64Array(dims + 1);
  const q = new Int8Array(dims);
  const rows = new Int8Array(dims * K);
  const scale = new Float64Array(K);
  const bias = new Float64Array(K);
  for (let c = 0; c < K; c++) {
    scale[c] = quantize(model.classWeights(c, w), dims, q);
    bias[c] = w[dims]!;
    for (let f = 0; f < dims; f++) rows[f * K + c] = q[f]!;
  }
  return { rows, scale, bias };
}

/** The weights that survive pruning below `level`, grouped by feature, classes ascending: the bundle's layout. */
export function packedRows(rows: Int8Array, dims: number, K: number, level: number): { offsets: Int32Array; weights: Int32Array } {
  const offsets = new Int32Array(dims + 1);
  for (let f = 0; f < dims; f++) {
    let count = 0;
    for (let c = 0; c < K; c++) if (keeps(rows[f * K + c]!, level)) count++;
    offsets[f + 1] = offsets[f]! + count;
  }
  const weights = new Int32Array(offsets[dims]!);
  let at = 0;
  for (let f = 0; f < dims; f++) {
    for (let c = 0; c < K; c++) {
      const q = rows[f * K + c]!;
      if (keeps(q, level)) weights[at++] = packedWeight(c, q);
    }
  }
  return { offsets, weights };
}
