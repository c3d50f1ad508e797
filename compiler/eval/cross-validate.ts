// Measuring an NPC on its own phrasings, without a test file: for each fold of planFolds
// (folds.ts), compile the NPC without that fold's phrasings, through the same compileNpc that
// `ndfc build` runs, ask each held-out phrasing in a fresh session (expecting its own intent) and
// sum every fold's answers into one report (score.ts), in the order the inputs are written.
// Deterministic apart from the latencies: the same sources and seed give the same folds, bundles
// and answers in any file order.

import { relative, sep } from "node:path";
import { loadNpc } from "../../runtime/index.js";
import { compileNpc } from "../compile.js";
import { compareStrings } from "../order.js";
import type { NpcIR } from "../ir/types.js";
import type { EvalCase } from "./cases.js";
import { planFolds, withoutInputs, type FoldPlan, type HeldOut } from "./folds.js";
import type { CaseOutcome } from "./outcome.js";
import { askCases, summarize, type EvalReport } from "./score.js";

export interface CrossValidationSummary {
  folds: number;
  seed: number;
  /** Phrasings asked (each held out of exactly one fold), and how many intents they cover. */
  heldOut: number;
  intents: number;
  /** Held out of no fold (folds.ts): single-phrasing intents and their inputs, empty inputs, context follow-ups. */
  skipped: FoldPlan["skipped"];
}

export type CrossValidationReport = EvalReport & { crossValidation: CrossValidationSummary };

export interface CrossValidationOptions {
  folds: number;
  seed: number;
  /** The NPC directory: case sources are given relative to it. */
  root?: string;
  /** Bundle bytes of a fold's IR; compileNpc by default (`ndfc eval --wordnet` adds the expansion). */
  compile?: (ir: NpcIR) => Uint8Array;
  /** Called before each fold is compiled (1-based), e.g. for progress on stderr. */
  onFold?: (fold: number, folds: number, heldOut: number) => void;
}

function foldCases(heldOut: readonly HeldOut[], root: string | undefined): EvalCase[] {
  return heldOut.map(({ intent, input }) => ({
    input: input.value,
    line: input.loc.line,
    source: root === undefined ? input.loc.file : relative(root, input.loc.file).split(sep).join("/"),
    expect: { format: "inputs", intent },
  }));
}

/** Outcomes in the order their inputs are written (the sort is stable: same line, fold order). */
function bySourceLine(a: CaseOutcome, b: CaseOutcome): number {
  return compareStrings(a.case.source ?? "", b.case.source ?? "") || a.case.line - b.case.line;
}

export async function crossValidate(ir: NpcIR, options: CrossValidationOptions): Promise<CrossValidationReport> {
  const plan = planFolds(ir, options.folds, options.seed);
  const compile = options.compile ?? ((foldIr: NpcIR) => compileNpc(foldIr).bytes);
  const outcomes: CaseOutcome[] = [];
  for (const [index, heldOut] of plan.heldOut.entries()) {
    options.onFold?.(index + 1, plan.folds, heldOut.length);
    if (heldOut.length === 0) continue;
    const npc = await loadNpc(compile(withoutInputs(ir, heldOut)));
    outcomes.push(...askCases(npc, foldCases(heldOut, options.root)));
  }
  const all = plan.heldOut.flat();
  return {
    ...summarize(outcomes.sort(bySourceLine)),
    crossValidation: {
      folds: plan.folds,
      seed: plan.seed,
      heldOut: all.length,
      intents: new Set(all.map((h) => h.intent)).size,
      skipped: plan.skipped,
    },
  };
}
