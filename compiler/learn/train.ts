// The learned stage's training: the model over all samples and k-fold cross-validation of it.
// They are independent jobs, so on a machine with a second core a worker thread
// (fold-worker.ts) trains all folds but the first while this thread trains the model and that
// fold; compileNpc stays synchronous, this thread blocking on Atomics.wait until the worker is
// done. Each job runs the same code on the same data wherever it runs, so the results are the
// same bytes as a serial run. Banking77: this thread trains the model (10 epochs over 12,329
// samples) and one fold, the worker the two other folds (each over two thirds of the samples).
//
// Fold 0 is trained first: a caller deciding from it whether the stage is worth having
// (compute-learned.ts) stops there when it is not, before the model is trained.
//
// Serial instead when the work is small (a worker's start costs more than it saves), when only
// one core is available, or when the worker script is not beside this module (the TypeScript
// sources run under vitest have no fold-worker.js).

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { firstFoldPredictions, foldScores, heldOutPredictions, type HeldOutPrediction } from "./calibrate.js";
import { trainOneVsRest, type OneVsRestModel, type SparseSamples, type SvmOptions } from "./svm.js";

/** Below this many (sample, class) pairs the folds train on this thread. */
export const PARALLEL_MIN_PAIRS = 200_000;

const WORKER_URL = new URL("./fold-worker.js", import.meta.url);

/** What the worker is asked to do (its workerData). */
export interface FoldJob {
  samples: SparseSamples;
  classCount: number;
  folds: number;
  /** The folds it trains. */
  jobs: number[];
  options: SvmOptions;
  pruneLevels: readonly number[];
  /** Set to 1 (and notified) once the answer is on `port`. */
  done: Int32Array;
  port: MessagePort;
}

/** The worker's answer: each job's foldScores (one array per pruning level), in job order, or why it failed. */
export type FoldAnswer = { scores: Float64Array[][] } | { error: string };

/** Fold 0's held-out samples: their predictions at the first pruning level, and their labels. */
export interface FirstFold {
  predictions: HeldOutPrediction[];
  labels: Int32Array;
}

export interface TrainingOptions {
  /** Whether folds may train on a worker thread (default: when it pays; see the header). */
  parallel?: boolean;
  /**
   * Asked with fold 0's held-out predictions (and their labels) before anything else is trained
   * on this thread: false stops the training there (trainAndCrossValidate returns null).
   */
  keepGoing?: (firstFold: FirstFold) => boolean;
}

export interface TrainedAndValidated {
  /** The model over all samples. */
  model: OneVsRestModel;
  /** Per pruning level (in the order asked): every sample's prediction by the fold model that held it out. */
  predictions: HeldOutPrediction[][];
  /** Whether a worker thread trained some of the folds. */
  parallel: boolean;
}

/** The model and every fold's predictions; null only when `keepGoing` stopped after fold 0. */
/** `pruneLevels`: the pruning levels the folds' predictions are made at (int8-model.ts PRUNE_LEVELS). */
export function trainAndCrossValidate(samples: SparseSamples, classCount: number, folds: number, options: SvmOptions, pruneLevels: readonly number[], training?: Omit<TrainingOptions, "keepGoing">): TrainedAndValidated;
export function trainAndCrossValidate(samples: SparseSamples, classCount: number, folds: number, options: SvmOptions, pruneLevels: readonly number[], training: TrainingOptions): TrainedAndValidated | null;
export function trainAndCrossValidate(samples: SparseSamples, classCount: number, folds: number, options: SvmOptions, pruneLevels: readonly number[], training: TrainingOptions = {}): TrainedAndValidated | null {
  const n = samples.labels.length;
  const parallel = training.parallel ?? (n * classCount >= PARALLEL_MIN_PAIRS && availableParallelism() > 1);
  const rest = Array.from({ length: folds - 1 }, (_, k) => k + 1);
  const worker = parallel && rest.length > 0 ? startWorker({ samples, classCount, folds, jobs: rest, options, pruneLevels }) : null;
  const scores = [foldScores(samples, classCount, folds, 0, options, pruneLevels)];
  if (training.keepGoing && !training.keepGoing(firstFoldPredictions(scores[0]![0]!, samples.labels, folds, classCount))) {
    if (worker) stopWorker(worker);
    return null;
  }
  const model = trainOneVsRest(samples, Int32Array.from({ length: n }, (_, i) => i), classCount, options);
  const fromWorker = worker ? awaitWorker(worker) : null;
  if (fromWorker) scores.push(...fromWorker);
  else for (const fold of rest) scores.push(foldScores(samples, classCount, folds, fold, options, pruneLevels));
  const predictions = pruneLevels.map((_, level) => heldOutPredictions(scores.map((byLevel) => byLevel[level]!), n, classCount));
  return { model, predictions, parallel: fromWorker !== null };
}

interface RunningWorker {
  worker: Worker;
  done: Int32Array;
  port: MessagePort;
}

/** The worker training `jobs`, or null when it cannot start (then this thread trains them). */
function startWorker(work: Omit<FoldJob, "done" | "port">): RunningWorker | null {
  if (!existsSync(fileURLToPath(WORKER_URL))) return null;
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const job: FoldJob = { ...work, done, port: port2 };
  try {
    const worker = new Worker(WORKER_URL, { workerData: job, transferList: [port2] });
    return { worker, done, port: port1 };
  } catch {
    port1.close();
    return null;
  }
}

/** Stops a worker whose answer is no longer wanted. */
function stopWorker({ worker, port }: RunningWorker): void {
  port.close();
  void worker.terminate();
}

/** Blocks until the worker answers: its fold scores, or null when it failed (then this thread trains them). */
function awaitWorker({ worker, done, port }: RunningWorker): Float64Array[][] | null {
  while (Atomics.load(done, 0) === 0) Atomics.wait(done, 0, 0);
  const answer = receiveMessageOnPort(port)?.message as FoldAnswer | undefined;
  port.close();
  void worker.terminate();
  return answer && "scores" in answer ? answer.scores : null;
}
