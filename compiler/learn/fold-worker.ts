// Worker thread of compiler/learn/train.ts: trains the model over all samples and the
// cross-validation folds it is given, and answers with the model's parts and the folds' scores.
// It always answers and sets `done`, even when a job throws, so the thread blocked on it never
// waits forever.

import { workerData } from "node:worker_threads";
import type { FoldAnswer, FoldJob } from "./train.js";

const { samples, classCount, folds, jobs, schedule, pruneLevels, done, port } = workerData as FoldJob;
let answer: FoldAnswer;
try {
  const { foldScores } = await import("./calibrate.js");
  const { trainOneVsRest } = await import("./svm.js");
  const { parts } = trainOneVsRest(samples, Int32Array.from({ length: samples.labels.length }, (_, i) => i), classCount, schedule.model);
  answer = { model: parts, scores: jobs.map((fold) => foldScores(samples, classCount, folds, fold, schedule.folds, pruneLevels)) };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
const transfer = "scores" in answer ? [...answer.scores.flat(), answer.model.weights, answer.model.bias, answer.model.rowOf].map((a) => a.buffer as ArrayBuffer) : [];
port.postMessage(answer, transfer);
Atomics.store(done, 0, 1);
Atomics.notify(done, 0);
