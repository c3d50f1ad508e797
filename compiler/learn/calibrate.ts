// Calibration without test data: k-fold cross-validation over the NPC's own phrasings (and the
// none-of-these sentences) gives every phrasing a prediction by a model that never saw it; the
// acceptance threshold is the smallest winner-over-runner-up margin at which those predictions
// still reach the target precision. Fold f holds out the samples whose index is f modulo k (the
// samples are sorted, so the folds do not depend on file order). Scores use the int8 weights the
// bundle will hold.

import { quantize, trainOneVsRest, type SparseSamples, type SvmOptions } from "./svm.js";

export interface HeldOutPrediction {
  top: number;
  /** The top class's score, and its lead over the runner-up. */
  score: number;
  margin: number;
  /** The best class but the last ("none of these"): what a forced answer would be. */
  forced: number;
}

/** Every sample's prediction by the model of the fold that held it out. */
export function crossValidate(rows: SparseSamples, classCount: number, folds: number, options: SvmOptions): HeldOutPrediction[] {
  const n = rows.labels.length;
  const predictions: HeldOutPrediction[] = new Array(n);
  const q = new Int8Array(rows.dims);
  for (let fold = 0; fold < folds; fold++) {
    const train: number[] = [];
    const held: number[] = [];
    for (let i = 0; i < n; i++) (i % folds === fold ? held : train).push(i);
    const scores = new Float64Array(held.length * classCount);
    trainOneVsRest(rows, Int32Array.from(train), classCount, options, (c, w) => {
      const scale = quantize(w, rows.dims, q);
      const bias = w[rows.dims]!;
      held.forEach((i, h) => {
        let sum = 0;
        for (let k = rows.offsets[i]!; k < rows.offsets[i + 1]!; k++) sum += q[rows.features[k]!]! * rows.values[k]!;
        scores[h * classCount + c] = bias + scale * sum;
      });
    });
    held.forEach((i, h) => (predictions[i] = topTwo(scores, h * classCount, classCount)));
  }
  return predictions;
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
