// The classifier metrics of an evaluation, as `rasa test` or scikit-learn's classification report
// give them, adapted to an NPC that may abstain (a rejection is no intent):
//   - per intent X: support = cases expecting X; correct = correct answers with X; answered =
//     answers with X (right or wrong, off-topic cases included); precision = correct / answered,
//     recall = correct / support, F1 = 2·correct / (answered + support); 0 when a denominator is 0.
//     The intents listed are those some case expects or some answer gave, in id order; an answer
//     of several clauses (`parts`) has the joined ids as its intent, which is listed only when a
//     case expects exactly that (otherwise it is a wrong answer, in the confusions).
//   - macro averages: the plain mean over the listed intents; weighted: weighted by support.
//   - confusions: wrong answers grouped by (expected intent, answered intent), most frequent
//     first, with the first such message as an example; `expected` is null for an off-topic case
//     that was answered. Cases whose expected intent is unknown, and right intents with wrong
//     slots or output, are not confusions.
//   - the confidence histogram: cases by the confidence of their answer in bins of equal width
//     over [0, 1] (1 falls in the last bin), counting correct answers, wrong answers, questions
//     naming the expected intent (asked) and the other abstentions (rejected: rejections and
//     other questions); an abstention has no confidence, so it counts its best suggestion's score
//     (0 without suggestions, as for any question): how close it came to an answer.

import { compareStrings } from "../order.js";
import type { CaseOutcome } from "./outcome.js";

export interface IntentMetrics {
  intent: string;
  support: number;
  answered: number;
  correct: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface AverageMetrics {
  precision: number;
  recall: number;
  f1: number;
}

export interface IntentAverages {
  /** How many intents are listed, and how many cases expect one of them (the sum of supports). */
  intents: number;
  support: number;
  macro: AverageMetrics;
  weighted: AverageMetrics;
}

export interface Confusion {
  /** The intent the case expected; null for an off-topic case. */
  expected: string | null;
  answered: string;
  count: number;
  example: string;
}

export interface ConfidenceBin {
  /** The bin holds confidences from `from` (included) to `to` (excluded, but 1 is in the last bin). */
  from: number;
  to: number;
  correct: number;
  wrong: number;
  asked: number;
  rejected: number;
}

export const HISTOGRAM_BINS = 10;

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

function counter(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function intentMetrics(outcomes: readonly CaseOutcome[]): IntentMetrics[] {
  const support = new Map<string, number>();
  const answered = new Map<string, number>();
  const correct = new Map<string, number>();
  const listed = new Set<string>();
  for (const o of outcomes) {
    if (o.expectedIntent !== null) {
      counter(support, o.expectedIntent);
      listed.add(o.expectedIntent);
    }
    if (o.answered && o.response.intent !== null) {
      counter(answered, o.response.intent);
      if (o.correct) counter(correct, o.response.intent);
      if ((o.response.parts?.length ?? 1) === 1) listed.add(o.response.intent);
    }
  }
  const ids = [...listed].sort(compareStrings);
  return ids.map((intent) => {
    const s = support.get(intent) ?? 0;
    const a = answered.get(intent) ?? 0;
    const c = correct.get(intent) ?? 0;
    return { intent, support: s, answered: a, correct: c, precision: ratio(c, a), recall: ratio(c, s), f1: ratio(2 * c, a + s) };
  });
}

export function intentAverages(intents: readonly IntentMetrics[]): IntentAverages {
  const support = intents.reduce((sum, m) => sum + m.support, 0);
  const mean = (key: keyof AverageMetrics) => ratio(intents.reduce((sum, m) => sum + m[key], 0), intents.length);
  const weighted = (key: keyof AverageMetrics) => ratio(intents.reduce((sum, m) => sum + m[key] * m.support, 0), support);
  return {
    intents: intents.length,
    support,
    macro: { precision: mean("precision"), recall: mean("recall"), f1: mean("f1") },
    weighted: { precision: weighted("precision"), recall: weighted("recall"), f1: weighted("f1") },
  };
}

export function confusions(outcomes: readonly CaseOutcome[]): Confusion[] {
  const pairs = new Map<string, Confusion>();
  for (const o of outcomes) {
    const answered = o.response.intent;
    if (o.correct || !o.answered || answered === null || answered === o.expectedIntent) continue;
    if (o.expectedIntent === null && !o.expectsRejection) continue;
    const key = JSON.stringify([o.expectedIntent, answered]);
    const pair = pairs.get(key);
    if (pair) pair.count++;
    else pairs.set(key, { expected: o.expectedIntent, answered, count: 1, example: o.case.input });
  }
  return [...pairs.values()].sort(
    (a, b) => b.count - a.count || compareStrings(a.expected ?? "", b.expected ?? "") || compareStrings(a.answered, b.answered),
  );
}

/** The confidence a case is binned by (see the header). */
function binnedConfidence(o: CaseOutcome): number {
  return o.answered ? o.response.confidence : (o.response.related[0]?.score ?? 0);
}

export function confidenceHistogram(outcomes: readonly CaseOutcome[], bins = HISTOGRAM_BINS): ConfidenceBin[] {
  const histogram = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, correct: 0, wrong: 0, asked: 0, rejected: 0 }));
  for (const o of outcomes) {
    const x = Math.min(1, Math.max(0, binnedConfidence(o)));
    const bin = histogram[Math.min(bins - 1, Math.floor(x * bins))]!;
    if (o.asked) bin.asked++;
    else if (!o.answered) bin.rejected++;
    else if (o.correct) bin.correct++;
    else bin.wrong++;
  }
  return histogram;
}
