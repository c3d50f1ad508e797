// The learned stage's training: the model over all samples and k-fold cross-validation of it.
// They are independent jobs, so on a machine with a second core a worker thread
// (fold-worker.ts) trains the model and the last fold while this thread trains the other folds;
// compileNpc stays synchronous, this thread blocking on Atomics.wait until the worker is done;
// startTraining returns once this thread's folds are done, so compileNpc runs its other compute
// passes while the worker is still training and waits only after them.
// Each job runs the same code on the same data wherever it runs, so the results are the same
// bytes as a serial run. The fold models only calibrate (the threshold and the pruning level), so
// they may train for fewer epochs than the model (TrainingSchedule). Banking77: the worker trains
// the model (over 12,329 samples) and fold 2, this thread folds 0 and 1 (each over two thirds of
// the samples, in fewer epochs), then compileNpc's other compute passes.
//
// Fold 0 is trained first: a caller deciding from it whether the stage is worth having
// (compute-learned.ts) stops there when it is not, and the worker with it.
//
// Serial instead when the work is small (a worker's start costs more than it saves), when only
// one core is available, or when the worker script is not beside this module (the TypeScript
// sources run under vitest have no fold-worker.js).

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { firstFoldPredictions, foldScores, heldOutPredictions, type HeldOutPrediction } from "./calibrate.js";
import { OneVsRestModel, trainOneVsRest, type ModelParts, type SparseSamples, type SvmOptions } from "./svm.js";

/** Below this many (sample, class) pairs the folds train on this thread. */
export const PARALLEL_MIN_PAIRS = 200_000;

const WORKER_URL = new URL("./fold-worker.js", import.meta.url);

/** How the model over all samples trains, and how the fold models do. */
export interface TrainingSchedule {
  model: SvmOptions;
  folds: SvmOptions;
}

/** What the worker is asked to do (its workerData): the model, then the folds `jobs`. */
export interface FoldJob {
  samples: SparseSamples;
  classCount: number;
  folds: number;
  /** The folds it trains after the model. */
  jobs: number[];
  schedule: TrainingSchedule;
  pruneLevels: readonly number[];
  /** Set to 1 (and notified) once the answer is on `port`. */
  done: Int32Array;
  port: MessagePort;
}

/** The worker's answer: the model and each job's foldScores (one array per pruning level, in job order), or why it failed. */
export type FoldAnswer = { model: ModelParts; scores: Float64Array[][] } | { error: string };

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
export function trainAndCrossValidate(samples: SparseSamples, classCount: number, folds: number, schedule: TrainingSchedule, pruneLevels: readonly number[], training?: Omit<TrainingOptions, "keepGoing">): TrainedAndValidated;
export function trainAndCrossValidate(samples: SparseSamples, classCount: number, folds: number, schedule: TrainingSchedule, pruneLevels: readonly number[], training: TrainingOptions): TrainedAndValidated | null;
export function trainAndCrossValidate(samples: SparseSamples, classCount: number, folds: number, schedule: TrainingSchedule, pruneLevels: readonly number[], training: TrainingOptions = {}): TrainedAndValidated | null {
  return startTraining(samples, classCount, folds, schedule, pruneLevels, training)?.finish() ?? null;
}

/** Training under way: this thread's folds are done; the worker's jobs may still be running. */
export interface Training {
  /** Waits for the worker (or trains its jobs here), then gives the model and the predictions; called once. */
  finish(): TrainedAndValidated;
}

/**
 * trainAndCrossValidate in two steps, so that the caller can do other work on this thread while
 * the worker trains (compileNpc runs its other compute passes in between): returns once this
 * thread's folds are trained, or null when `keepGoing` stopped after fold 0.
 */
export function startTraining(samples: SparseSamples, classCount: number, folds: number, schedule: TrainingSchedule, pruneLevels: readonly number[], training: TrainingOptions = {}): Training | null {
  const n = samples.labels.length;
  const parallel = training.parallel ?? (n * classCount >= PARALLEL_MIN_PAIRS && availableParallelism() > 1);
  const last = folds - 1;
  const worker = parallel && folds > 1 ? startWorker({ samples, classCount, folds, jobs: [last], schedule, pruneLevels }) : null;
  const scoresOf = (fold: number) => foldScores(samples, classCount, folds, fold, schedule.folds, pruneLevels);
  const scores = [scoresOf(0)];
  if (training.keepGoing && !training.keepGoing(firstFoldPredictions(scores[0]![0]!, samples.labels, folds, classCount))) {
    if (worker) stopWorker(worker);
    return null;
  }
  for (let fold = 1; fold < (worker ? last : folds); fold++) scores.push(scoresOf(fold));
  return {
    finish: () => {
      const fromWorker = worker ? awaitWorker(worker) : null;
      const model = fromWorker ? new OneVsRestModel(fromWorker.model) : trainOneVsRest(samples, Int32Array.from({ length: n }, (_, i) => i), classCount, schedule.model);
      if (fromWorker) scores.push(...fromWorker.scores);
      else if (worker) scores.push(scoresOf(last));
      const predictions = pruneLevels.map((_, level) => heldOutPredictions(scores.map((byLevel) => byLevel[level]!), n, classCount));
      return { model, predictions, parallel: fromWorker !== null };
    },
  };
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
    // This thread waits for it with Atomics.wait, not the event loop: unreferenced, a worker whose
    // answer is never asked for (the caller threw between startTraining and finish) does not keep the process alive.
    worker.unref();
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

/** Blocks until the worker answers: its model and fold scores, or null when it failed (then this thread trains them). */
function awaitWorker({ worker, done, port }: RunningWorker): { model: ModelParts; scores: Float64Array[][] } | null {
  while (Atomics.load(done, 0) === 0) Atomics.wait(done, 0, 0);
  const answer = receiveMessageOnPort(port)?.message as FoldAnswer | undefined;
  port.close();
  void worker.terminate();
  return answer && "scores" in answer ? answer : null;
}
