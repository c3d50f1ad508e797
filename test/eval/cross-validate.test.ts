// Cross-validation (compiler/eval/folds.ts, cross-validate.ts): every phrasing is held out of
// exactly one fold, the folds do not depend on file order, a fold's bundle really lacks its
// phrasings, and the same sources give the same report.
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { crossValidate, type CrossValidationReport } from "../../compiler/eval/cross-validate.js";
import { planFolds, withoutInputs, type FoldPlan } from "../../compiler/eval/folds.js";
import type { NpcIR } from "../../compiler/ir/types.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc } from "../../runtime/index.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { repoRoot } from "../support/repo-root.js";
import { writeLetters } from "./letters-npc.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";

let letters: NpcIR;
let lettersRoot: string;
let example: NpcIR;
beforeAll(() => {
  const lint = lintSources([writeLetters()]);
  letters = lint.ir;
  lettersRoot = lint.root;
  example = lintSources([join(repoRoot, "datasets/example")]).ir;
});

/** The IR with its intents and sources in another order, as another file enumeration would give. */
function reordered(ir: NpcIR, keys: readonly number[]): NpcIR {
  const order = <T>(items: readonly T[]) =>
    items
      .map((item, i) => ({ item, key: (keys[i % keys.length] ?? 0) * 1000 + i }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.item);
  return { ...ir, intents: order(ir.intents), sources: order(ir.sources) };
}

const phrasingsOf = (plan: FoldPlan) => plan.heldOut.map((fold) => fold.map((h) => `${h.intent}/${h.key}`));

/** A report without its latencies, the only part that changes from run to run. */
function stable(report: CrossValidationReport): Omit<CrossValidationReport, "latencyUs"> {
  const { latencyUs: _latencies, ...rest } = report;
  return rest;
}

describe("planFolds", () => {
  it("holds each phrasing of a multi-phrasing intent out of exactly one fold, spread evenly; skips single-phrasing intents", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: -5, max: 1000 }), (folds, seed) => {
        const plan = planFolds(example, folds, seed);
        const all = plan.heldOut.flat().map((h) => `${h.intent}/${h.key}`);
        const expected = example.intents.flatMap((i) => {
          const keys = [...new Set(i.inputs.map((input) => normalizeKey(input.value)))];
          return keys.length < 2 ? [] : keys.map((key) => `${i.id}/${key}`);
        });
        expect([...all].sort()).toEqual([...expected].sort());
        for (const intent of example.intents) {
          const perFold = plan.heldOut.map((fold) => fold.filter((h) => h.intent === intent.id).length);
          expect(Math.max(...perFold) - Math.min(...perFold)).toBeLessThanOrEqual(1);
        }
      }),
      { seed: 14, numRuns: 50 },
    );
    const plan = planFolds(letters, 2, 0);
    expect(plan.heldOut.flat()).toHaveLength(2 + 4 + 2 + 2);
    // delta has one phrasing ("delta" and "Delta!" are the same once normalized).
    expect(plan.skipped).toEqual({ intents: 1, inputs: 2, followUpInputs: 0 });
    expect(planFolds(example, 3, 0).skipped.followUpInputs).toBeGreaterThan(0);
  });

  it("gives the same folds in any order of intents and sources; another seed gives other folds", () => {
    const reference = phrasingsOf(planFolds(example, 3, 0));
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 12 }), (keys) => {
        expect(phrasingsOf(planFolds(reordered(example, keys), 3, 0))).toEqual(reference);
      }),
      { seed: 14, numRuns: 50 },
    );
    expect(phrasingsOf(planFolds(example, 3, 1))).not.toEqual(reference);
  });

  it("refuses fewer than two folds", () => {
    expect(() => planFolds(example, 1, 0)).toThrow(/at least 2 folds/);
  });
});

describe("withoutInputs", () => {
  it("removes every input of the held-out phrasing, whatever its case or punctuation, and nothing else", () => {
    const delta = letters.intents.find((i) => i.id === "delta")!;
    const without = withoutInputs(letters, [{ intent: "delta", key: "delta", input: delta.inputs[0]! }]);
    expect(without.intents.find((i) => i.id === "delta")!.inputs).toEqual([]);
    expect(without.intents.filter((i) => i.id !== "delta")).toEqual(letters.intents.filter((i) => i.id !== "delta"));
    expect(delta.inputs.map((i) => i.value)).toEqual(["delta", "Delta!"]);
  });

  it("a fold's bundle lacks exactly that fold's phrasings", async () => {
    const plan = planFolds(letters, 3, 0);
    const allKeys = stringsOf(compileNpc(letters).payload.exact.keys);
    for (const heldOut of plan.heldOut) {
      const npc = await loadNpc(compileNpc(withoutInputs(letters, heldOut)).bytes);
      const held = new Set(heldOut.map((h) => h.key));
      expect(stringsOf(npc.payload.exact.keys)).toEqual(allKeys.filter((key) => !held.has(key)));
      expect(npc.payload.counts.inputs).toBe(compileNpc(letters).payload.counts.inputs - heldOut.length);
    }
  });
});

describe("crossValidate", () => {
  it("compiles each fold without its phrasings and asks exactly those, expecting their own intent", async () => {
    const compiled: NpcIR[] = [];
    const progress: string[] = [];
    const report = await crossValidate(letters, {
      folds: 2,
      seed: 0,
      root: lettersRoot,
      compile: (ir) => {
        compiled.push(ir);
        return compileNpc(ir).bytes;
      },
      onFold: (fold, folds, heldOut) => progress.push(`${fold}/${folds}: ${heldOut}`),
    });
    const plan = planFolds(letters, 2, 0);
    expect(progress).toEqual(plan.heldOut.map((fold, i) => `${i + 1}/2: ${fold.length}`));
    expect(compiled).toEqual(plan.heldOut.map((fold) => withoutInputs(letters, fold)));
    for (const [i, ir] of compiled.entries()) {
      const keys = new Set(ir.intents.flatMap((intent) => intent.inputs.map((input) => normalizeKey(input.value))));
      for (const h of plan.heldOut[i]!) expect(keys.has(h.key)).toBe(false);
    }
    expect(report.cases).toBe(10);
    expect(report.crossValidation).toEqual({ folds: 2, seed: 0, heldOut: 10, intents: 4, skipped: { intents: 1, inputs: 2, followUpInputs: 0 } });
    // The phrasings of echo share nothing: neither can be answered from the other.
    expect(report.intents.find((m) => m.intent === "echo")).toMatchObject({ support: 2, correct: 0 });
    expect(report.failures.find((f) => f.input === "xylophone")).toMatchObject({ file: "dataset/dataset_e.json", expected: '{"intent":"echo"}' });
  });

  it("gives the same report twice, and in any order of intents and sources", async () => {
    const reference = stable(await crossValidate(example, { folds: 3, seed: 0 }));
    expect(stable(await crossValidate(example, { folds: 3, seed: 0 }))).toEqual(reference);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(50), { minLength: 1, maxLength: 12 }), async (keys) => {
        expect(stable(await crossValidate(reordered(example, keys), { folds: 3, seed: 0 }))).toEqual(reference);
      }),
      { seed: 14, numRuns: 4 },
    );
    expect(reference.cases).toBe(reference.crossValidation.heldOut);
  });
});
