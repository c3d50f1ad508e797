// Scoring an NPC on evaluation cases: asks each case (outcome.ts) and sums the outcomes into a
// report: overall rates, per-intent metrics, confusions and the confidence histogram (metrics.ts).
// `summarize` takes outcomes from any number of bundles, so cross-validation (cross-validate.ts)
// reports the same way as a cases file.

import type { Npc } from "../../runtime/index.js";
import type { EvalCase } from "./cases.js";
import { askCase, bundleTexts, type CaseOutcome } from "./outcome.js";
import {
  confidenceHistogram,
  confusions,
  intentAverages,
  intentMetrics,
  type ConfidenceBin,
  type Confusion,
  type IntentAverages,
  type IntentMetrics,
} from "./metrics.js";

export interface EvalFailure {
  input: string;
  line: number;
  /** The source file of the input, when it is not the cases file (cross-validation). */
  file?: string;
  expected: string;
  status: string;
  intent: string | null;
  response: string;
}

export interface Rate {
  cases: number;
  correct: number;
  /** correct / cases (0 when there is no case). */
  accuracy: number;
}

export interface EvalReport {
  cases: number;
  correct: number;
  accuracy: number;
  /** Answers that were neither rejections nor questions, and how many of those were correct. */
  answered: number;
  answeredCorrect: number;
  /** answeredCorrect / answered: how far an answer can be trusted (questions are not answers). */
  precision: number;
  /** Questions (status "elicit") naming the expected intent: abstentions with the right intent, not errors (outcome.ts). */
  asked: number;
  rejected: number;
  rejectionRate: number;
  /** Answers per status. */
  statuses: Record<string, number>;
  /** Cases that expect an answer (not a rejection). */
  inScope: Rate;
  /** Cases that expect a rejection, and how many were rejected. */
  offTopic: Rate;
  /** Cases whose expected answer exists in the bundle; precision among their answered ones. */
  reachable: Rate & { answered: number; answeredCorrect: number; precision: number };
  /**
   * Rejected cases that expect an answer, and how many of those offered the expected entry among
   * their suggestions (`related`): the user was one choice away from it.
   */
  suggested: { rejected: number; offered: number };
  /** Correct answers to cases that state a permission (NDF), and how many answered with that permission. */
  permission: { compared: number; agree: number };
  /** Time of `process` per case, in microseconds. */
  latencyUs: { p50: number; p90: number; p99: number };
  /** Per intent, in id order (metrics.ts). */
  intents: IntentMetrics[];
  averages: IntentAverages;
  /** Wrong intents, most frequent first. */
  confusions: Confusion[];
  confidenceHistogram: ConfidenceBin[];
  failures: EvalFailure[];
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 10) / 10;
}

function rate(outcomes: readonly CaseOutcome[]): Rate {
  const correct = outcomes.filter((o) => o.correct).length;
  return { cases: outcomes.length, correct, accuracy: outcomes.length === 0 ? 0 : correct / outcomes.length };
}

function describeExpectation(c: EvalCase): string {
  const { format: _format, ...rest } = c.expect;
  return JSON.stringify(rest);
}

function failure(o: CaseOutcome): EvalFailure {
  const { input, line, source } = o.case;
  const { status, intent, response } = o.response;
  return { input, line, ...(source === undefined ? {} : { file: source }), expected: describeExpectation(o.case), status, intent, response };
}

/** Asks every case of `cases` to `npc`, each in a fresh session. */
export function askCases(npc: Npc, cases: readonly EvalCase[]): CaseOutcome[] {
  const texts = bundleTexts(npc);
  return cases.map((c) => askCase(npc, texts, c));
}

/** The report of some answered cases. */
export function summarize(outcomes: readonly CaseOutcome[]): EvalReport {
  const statuses: Record<string, number> = {};
  for (const o of outcomes) statuses[o.response.status] = (statuses[o.response.status] ?? 0) + 1;
  const answered = outcomes.filter((o) => o.answered);
  const answeredCorrect = answered.filter((o) => o.correct).length;
  const reachable = outcomes.filter((o) => o.reachable);
  const reachableAnswered = reachable.filter((o) => o.answered);
  const reachableAnsweredCorrect = reachableAnswered.filter((o) => o.correct).length;
  const permissionCases = outcomes.filter((o) => o.correct && o.case.expect.format === "ndf" && o.case.expect.permission !== undefined);
  const rejectedInScope = outcomes.filter((o) => o.response.status === "rejected" && !o.expectsRejection);
  const latencies = outcomes.map((o) => o.latencyUs).sort((a, b) => a - b);
  const rejected = statuses.rejected ?? 0;
  const cases = outcomes.length;
  const correct = outcomes.filter((o) => o.correct).length;
  const intents = intentMetrics(outcomes);
  return {
    cases,
    correct,
    accuracy: cases === 0 ? 0 : correct / cases,
    answered: answered.length,
    answeredCorrect,
    precision: answered.length === 0 ? 0 : answeredCorrect / answered.length,
    asked: outcomes.filter((o) => o.asked).length,
    rejected,
    rejectionRate: cases === 0 ? 0 : rejected / cases,
    statuses,
    inScope: rate(outcomes.filter((o) => !o.expectsRejection)),
    offTopic: rate(outcomes.filter((o) => o.expectsRejection)),
    reachable: {
      ...rate(reachable),
      answered: reachableAnswered.length,
      answeredCorrect: reachableAnsweredCorrect,
      precision: reachableAnswered.length === 0 ? 0 : reachableAnsweredCorrect / reachableAnswered.length,
    },
    suggested: { rejected: rejectedInScope.length, offered: rejectedInScope.filter((o) => o.offeredExpected).length },
    permission: {
      compared: permissionCases.length,
      agree: permissionCases.filter((o) => o.case.expect.format === "ndf" && o.response.permission === o.case.expect.permission).length,
    },
    latencyUs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99) },
    intents,
    averages: intentAverages(intents),
    confusions: confusions(outcomes),
    confidenceHistogram: confidenceHistogram(outcomes),
    failures: outcomes.filter((o) => !o.correct && !o.asked).map(failure),
  };
}

/** Asks every case of `cases` to `npc` and scores the answers. */
export function evaluate(npc: Npc, cases: readonly EvalCase[]): EvalReport {
  return summarize(askCases(npc, cases));
}
