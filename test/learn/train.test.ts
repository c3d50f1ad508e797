// The learned stage's trainer (compiler/learn/svm.ts) and its cross-validated training
// (compiler/learn/train.ts): the same results whatever the feature numbering, and the same results
// whether the folds train on a worker thread or on this one. Vitest runs the TypeScript sources,
// where fold-worker.js does not exist, so the worker path is exercised through the modules
// compiled for this run (builtCli), and the sources' own run checks the serial fallback.
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { foldScores, heldOutPredictions } from "../../compiler/learn/calibrate.js";
import { trainAndCrossValidate, type FirstFold, type TrainedAndValidated } from "../../compiler/learn/train.js";
import { trainOneVsRest, type OneVsRestModel, type SparseSamples } from "../../compiler/learn/svm.js";
import { builtCli } from "../support/built-cli.js";

const OPTIONS = { C: 1, epochs: 4 };
/** The fold models train for fewer epochs than the model, as compute-learned.ts has them. */
const SCHEDULE = { model: OPTIONS, folds: { C: 1, epochs: 2 } };
/** Pruning levels for the folds' predictions; 128 keeps no int8 weight at all. */
const LEVELS = [3, 6, 128];

/** Samples of `classes` classes over `dims` features: each class leans on its own features, with noise shared by all. */
function syntheticSamples(seed: number, count: number, classes: number, dims: number): SparseSamples {
  let s = seed >>> 0;
  const next = (bound: number): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % bound;
  };
  const offsets = [0];
  const features: number[] = [];
  const values: number[] = [];
  const labels: number[] = [];
  for (let i = 0; i < count; i++) {
    const label = i % classes;
    const chosen = new Set<number>();
    while (chosen.size < 6) chosen.add(next(3) === 0 ? next(dims) : (label * 7 + next(9)) % dims);
    for (const f of chosen) {
      features.push(f);
      values.push(0.1 + next(90) / 100);
    }
    offsets.push(features.length);
    labels.push(label);
  }
  return { offsets: Int32Array.from(offsets), features: Int32Array.from(features), values: Float64Array.from(values), labels: Int32Array.from(labels), dims };
}

function allWeights(model: OneVsRestModel, classes: number, dims: number): number[][] {
  return Array.from({ length: classes }, (_, c) => [...model.classWeights(c, new Float64Array(dims + 1))]);
}

function allRows(samples: SparseSamples): Int32Array {
  return Int32Array.from(samples.labels, (_, i) => i);
}

describe("the one-vs-rest trainer", () => {
  it("learns separable classes", () => {
    const samples = syntheticSamples(7, 120, 4, 60);
    const model = trainOneVsRest(samples, allRows(samples), 4, { C: 1, epochs: 10 });
    const weights = allWeights(model, 4, samples.dims);
    let right = 0;
    for (let i = 0; i < 120; i++) {
      const scores = weights.map((w) => {
        let sum = w[samples.dims]!;
        for (let k = samples.offsets[i]!; k < samples.offsets[i + 1]!; k++) sum += w[samples.features[k]!]! * samples.values[k]!;
        return sum;
      });
      if (scores.indexOf(Math.max(...scores)) === samples.labels[i]) right++;
    }
    expect(right / 120).toBeGreaterThan(0.9);
  });

  it("quantizes each class's weights to int8 by its largest weight (127), feature-major", () => {
    const samples = syntheticSamples(5, 90, 3, 30);
    const model = trainOneVsRest(samples, allRows(samples), 3, OPTIONS);
    const { rows, scale, bias } = model.int8();
    allWeights(model, 3, 30).forEach((w, c) => {
      const largest = Math.max(...w.slice(0, 30).map(Math.abs));
      expect(scale[c]).toBe(largest / 127);
      expect(bias[c]).toBe(w[30]);
      for (let f = 0; f < 30; f++) {
        expect(Math.abs(rows[f * 3 + c]!)).toBeLessThanOrEqual(127);
        expect(Math.abs(rows[f * 3 + c]! * scale[c]! - w[f]!)).toBeLessThanOrEqual(scale[c]! / 2 + 1e-12);
      }
    });
  });

  it("gives the same weights, feature for feature, whatever the features are numbered (its row order is its own)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const samples = syntheticSamples(seed, 60, 3, 40);
        // A relabelling of the features: f → (f · 17 + seed) mod 40 (17 is prime to 40).
        const relabel = (f: number): number => (f * 17 + seed) % 40;
        const renamed = { ...samples, features: samples.features.map(relabel) };
        const original = allWeights(trainOneVsRest(samples, allRows(samples), 3, OPTIONS), 3, 40);
        const moved = allWeights(trainOneVsRest(renamed, allRows(renamed), 3, OPTIONS), 3, 40);
        for (let c = 0; c < 3; c++) {
          for (let f = 0; f < 40; f++) expect(moved[c]![relabel(f)]).toBe(original[c]![f]);
          expect(moved[c]![40]).toBe(original[c]![40]);
        }
      }),
      { numRuns: 20 },
    );
  });
});

describe("training with cross-validation", () => {
  const samples = syntheticSamples(11, 300, 5, 80);
  const serial = trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, { parallel: false });

  function expectSame(run: TrainedAndValidated): void {
    expect(run.predictions).toEqual(serial.predictions);
    expect(allWeights(run.model, 5, samples.dims)).toEqual(allWeights(serial.model, 5, samples.dims));
  }

  it("predicts every sample by a model that did not see it, at each pruning level", () => {
    expect(serial.predictions).toHaveLength(LEVELS.length);
    const [light, , all] = serial.predictions;
    expect(light).toHaveLength(300);
    const right = light!.filter((p, i) => p.top === samples.labels[i]).length;
    expect(right / 300).toBeGreaterThan(0.6);
    // With every weight pruned a fold model is its biases: one answer for all the samples it holds out.
    expect(new Set(all!.map((p, i) => `${i % 3}:${p.top}`)).size).toBe(3);
  });

  it("trains the model on the model's schedule and each fold on the folds'", () => {
    expect(allWeights(serial.model, 5, samples.dims)).toEqual(allWeights(trainOneVsRest(samples, allRows(samples), 5, SCHEDULE.model), 5, samples.dims));
    const byFold = [0, 1, 2].map((fold) => foldScores(samples, 5, 3, fold, SCHEDULE.folds, LEVELS));
    expect(serial.predictions).toEqual(LEVELS.map((_, level) => heldOutPredictions(byFold.map((scores) => scores[level]!), 300, 5)));
    const longerFolds = trainAndCrossValidate(samples, 5, 3, { model: OPTIONS, folds: OPTIONS }, LEVELS, { parallel: false });
    expect(longerFolds.predictions).not.toEqual(serial.predictions);
  });

  it("falls back to this thread when the worker script is not beside it (the sources under vitest)", () => {
    const run = trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, { parallel: true });
    expect(run.parallel).toBe(false);
    expectSame(run);
  });

  // Compiling the CLI (builtCli, once per run) takes most of a minute on a loaded machine: setup's time, not the test's.
  let compiled = "";
  beforeAll(() => {
    compiled = pathToFileURL(join(dirname(dirname(builtCli())), "learn/train.js")).href;
  });

  it("gives the same model and predictions when the folds train on a worker thread (the compiled modules)", async () => {
    const built = (await import(compiled)) as typeof import("../../compiler/learn/train.js");
    const run = built.trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, { parallel: true });
    expect(run.parallel).toBe(true);
    expectSame(run);
    expect(built.trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, { parallel: false }).parallel).toBe(false);
  });
});

describe("trainAndCrossValidate's first-fold decision", () => {
  const samples = syntheticSamples(11, 300, 5, 80);
  it("stops after fold 0 when keepGoing says so, and otherwise gives what it gives without being asked", () => {
    const seen: number[] = [];
    const stopped = trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, {
      parallel: false,
      keepGoing: ({ predictions, labels }: FirstFold) => {
        seen.push(predictions.length, labels.length);
        return false;
      },
    });
    expect(stopped).toBeNull();
    expect(seen).toEqual([100, 100]); // every third of the 300 samples, from the first
    const asked = trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, { parallel: false, keepGoing: () => true });
    const plain = trainAndCrossValidate(samples, 5, 3, SCHEDULE, LEVELS, { parallel: false });
    expect(asked!.predictions).toEqual(plain.predictions);
    expect(allWeights(asked!.model, 5, samples.dims)).toEqual(allWeights(plain.model, 5, samples.dims));
  });
});
