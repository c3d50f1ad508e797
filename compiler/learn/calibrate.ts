// Calibration without test data: k-fold cross-validation over the NPC's own phrasings (and the
// none-of-these sentences) gives every phrasing a prediction by a model that never saw it; the
// acceptance threshold is the smallest winner-over-runner-up margin at which those predictions
// still reach the target precision. Fold f holds out the samples whose index is f modulo k (the
// samples are sorted, so the folds do not depend on file order). Scores use the int8 weights the
// bundle will hold, once per pruning level (int8-model.ts PRUNE_LEVELS): each level is calibrated on
// the weights it would ship.

import { addFeatureWeights } from "../../runtime/match/learned-features.js";
import { packedRows, prunedFurther } from "./int8-model.js";
import { trainOneVsRest, type OneVsRestModel, type SparseSamples, type SvmOptions } from "./svm.js";

export interface HeldOutPrediction {
  top: number;
  /** The top class's score, and its lead over the runner-up. */
  score: number;
  margin: number;
  /** The best class but the last ("none of these"): what a forced answer would be. */
  forced: number;
}

/** The samples fold `fold` of `folds` holds out (`held`) or trains on, ascending. */
function foldRows(n: number, folds: number, fold: number, held: boolean): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if ((i % folds === fold) === held) out.push(i);
  return Int32Array.from(out);
}

/**
 * Fold `fold` of `folds`: the model trained without its samples scores each of them for every
 * class (held-out sample h, class c at h · classCount + c), once per pruning level (in the
 * order of `pruneLevels`). The job a worker thread may run.
 */
export function foldScores(samples: SparseSamples, classCount: number, folds: number, fold: number, options: SvmOptions, pruneLevels: readonly number[]): Float64Array[] {
  const n = samples.labels.length;
  const model = trainOneVsRest(samples, foldRows(n, folds, fold, false), classCount, options);
  return heldOutScores(model, samples, foldRows(n, folds, fold, true), classCount, pruneLevels);
}

/**
 * Per pruning level, per held-out sample, every class's score by the model's int8 weights that
 * survive the level, packed and summed as the runtime does (runtime/match/learned-features.ts
 * addFeatureWeights): the scores the bundle would give.
 */
function heldOutScores(model: OneVsRestModel, samples: SparseSamples, held: Int32Array, K: number, pruneLevels: readonly number[]): Float64Array[] {
  const { offsets, features, values, dims } = samples;
  const { rows, scale, bias } = model.int8();
  const sums = new Float64Array(K);
  const least = Math.min(...pruneLevels);
  const leastKept = packedRows(rows, dims, K, least);
  return pruneLevels.map((level) => {
    const kept = level === least ? leastKept : prunedFurther(leastKept, dims, level);
    const scores = new Float64Array(held.length * K);
    for (let h = 0; h < held.length; h++) {
      const i = held[h]!;
      sums.fill(0);
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) addFeatureWeights(sums, kept.offsets, kept.weights, features[k]!, values[k]!);
      for (let c = 0; c < K; c++) scores[h * K + c] = bias[c]! + scale[c]! * sums[c]!;
    }
    return scores;
  });
}

/** Fold 0's held-out samples (every `folds`-th from the first), their predictions from its foldScores, and their labels. */
export function firstFoldPredictions(scores: Float64Array, labels: Int32Array, folds: number, classCount: number): { predictions: HeldOutPrediction[]; labels: Int32Array } {
  const held = foldRows(labels.length, folds, 0, true);
  return { predictions: Array.from(held, (_, h) => topTwo(scores, h * classCount, classCount)), labels: Int32Array.from(held, (i) => labels[i]!) };
}

/** Every sample's prediction by the model of the fold that held it out, from each fold's foldScores. */
export function heldOutPredictions(scoresByFold: readonly Float64Array[], sampleCount: number, classCount: number): HeldOutPrediction[] {
  const folds = scoresByFold.length;
  return Array.from({ length: sampleCount }, (_, i) => topTwo(scoresByFold[i % folds]!, Math.floor(i / folds) * classCount, classCount));
}

function topTwo(scores: Float64Array, from: number, count: number): HeldOutPrediction {
  let top = 0;
  for (let c = 1; c < count; c++) if (scores[from + c]! > scores[from + top]!) top = c;
  let second = -Infinity;
  for (let c = 0; c < count; c++) if (c !== top) second = Math.max(second, scores[from + c]!);
  let forced = 0;
  for (let c = 1; c < count - 1; c++) if (scores[from + c]! > scores[from + forced]!) forced = c;
  return { top, score: scores[from + top]!, margin: scores[from + top]! - second, forced };
}

export interface Calibration {
  /** The margin a winner needs, or null when no margin reaches the target precision. */
  threshold: number | null;
  /** Of the held-out phrasings of intents: how many a model at that threshold answers correctly. */
  correct: number;
  answered: number;
  /** Held-out phrasings of intents (the none-of-these sentences left out). */
  cases: number;
  /** Every held-out phrasing answered by its first-ranked class: the share of intents' phrasings right. */
  forcedAccuracy: number;
}

/**
 * The smallest margin at which the held-out answers keep `precision`: answering a none-of-these
 * sentence, or the wrong intent, counts against it.
 */
export function calibrate(predictions: readonly HeldOutPrediction[], labels: Int32Array, noneClass: number, precision: number): Calibration {
  const answered = predictions.map((p, i) => ({ margin: p.margin, ok: p.top === labels[i] })).filter((_, i) => predictions[i]!.top !== noneClass);
  answered.sort((a, b) => b.margin - a.margin);
  let ok = 0;
  let threshold: number | null = null;
  let correct = 0;
  let count = 0;
  for (let k = 0; k < answered.length; k++) {
    if (answered[k]!.ok) ok++;
    // Ties answer together: a threshold may sit only after the last of equal margins.
    if (k + 1 < answered.length && answered[k + 1]!.margin === answered[k]!.margin) continue;
    if (ok / (k + 1) >= precision) {
      threshold = answered[k]!.margin;
      correct = ok;
      count = k + 1;
    }
  }
  let cases = 0;
  let forced = 0;
  predictions.forEach((p, i) => {
    if (labels[i] === noneClass) return;
    cases++;
    if (p.forced === labels[i]) forced++;
  });
  return { threshold, correct, answered: count, cases, forcedAccuracy: cases > 0 ? forced / cases : 0 };
}
