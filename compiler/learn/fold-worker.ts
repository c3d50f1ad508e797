// Worker thread of compiler/learn/train.ts: trains the cross-validation folds it is given and
// answers with their scores. It always answers and sets `done`, even when a job throws, so the
// thread blocked on it never waits forever.

import { workerData } from "node:worker_threads";
import type { FoldAnswer, FoldJob } from "./train.js";

const { samples, classCount, folds, jobs, options, pruneLevels, done, port } = workerData as FoldJob;
let answer: FoldAnswer;
try {
  const { foldScores } = await import("./calibrate.js");
  answer = { scores: jobs.map((fold) => foldScores(samples, classCount, folds, fold, options, pruneLevels)) };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
port.postMessage(answer, "scores" in answer ? answer.scores.flat().map((s) => s.buffer as ArrayBuffer) : []);
Atomics.store(done, 0, 1);
Atomics.notify(done, 0);
