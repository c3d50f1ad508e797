// Per-intent precision / recall / F1, their averages, the confusions and the confidence histogram
// (compiler/eval/metrics.ts), on the Letters NPC whose answers are known (letters-npc.ts): the
// expected values are worked out by hand from the table of cases below.
import { beforeAll, describe, expect, it } from "vitest";
import { parseCases } from "../../compiler/eval/cases.js";
import { confidenceHistogram } from "../../compiler/eval/metrics.js";
import type { CaseOutcome } from "../../compiler/eval/outcome.js";
import { evaluate, type EvalReport } from "../../compiler/eval/score.js";
import type { NpcResponse } from "../../runtime/index.js";
import { loadLetters } from "./letters-npc.js";

// Each message is an input of the intent it is answered with (exact match), or unknown (rejected).
const CASES = `text,category
alpha one,alpha
alpha two,alpha
bravo one,alpha
bravo four,alpha
charlie one,bravo
bravo two,bravo
zzz qqq,charlie
bravo three,charlie
alpha one,
xyzzy,
`;
//            expected  answered  correct
//  line  2   alpha     alpha     yes
//  line  3   alpha     alpha     yes
//  line  4   alpha     bravo
//  line  5   alpha     bravo
//  line  6   bravo     charlie
//  line  7   bravo     bravo     yes
//  line  8   charlie   rejected
//  line  9   charlie   bravo
//  line 10   off-topic alpha
//  line 11   off-topic rejected  yes
// alpha:   support 4, answered 3 (lines 2, 3, 10), correct 2: P 2/3, R 2/4, F1 2·2/(3+4) = 4/7
// bravo:   support 2, answered 4 (lines 4, 5, 7, 9), correct 1: P 1/4, R 1/2, F1 2/(4+2) = 1/3
// charlie: support 2, answered 1 (line 6), correct 0: P 0, R 0, F1 0

let report: EvalReport;
beforeAll(async () => {
  report = evaluate(await loadLetters(), parseCases(CASES, "letters.csv"));
});

describe("per-intent metrics", () => {
  it("counts support, answers and correct answers per intent, in id order", () => {
    expect(report.intents).toEqual([
      { intent: "alpha", support: 4, answered: 3, correct: 2, precision: 2 / 3, recall: 1 / 2, f1: 4 / 7 },
      { intent: "bravo", support: 2, answered: 4, correct: 1, precision: 1 / 4, recall: 1 / 2, f1: 1 / 3 },
      { intent: "charlie", support: 2, answered: 1, correct: 0, precision: 0, recall: 0, f1: 0 },
    ]);
    expect(report).toMatchObject({ cases: 10, correct: 4, answered: 8, answeredCorrect: 3, precision: 3 / 8 });
  });

  it("averages: macro over the intents, weighted by support", () => {
    expect(report.averages.intents).toBe(3);
    expect(report.averages.support).toBe(8);
    // macro: P (2/3 + 1/4 + 0)/3 = 11/36, R (1/2 + 1/2 + 0)/3 = 1/3, F1 (4/7 + 1/3 + 0)/3 = 19/63
    expect(report.averages.macro.precision).toBeCloseTo(11 / 36, 12);
    expect(report.averages.macro.recall).toBeCloseTo(1 / 3, 12);
    expect(report.averages.macro.f1).toBeCloseTo(19 / 63, 12);
    // weighted (4, 2, 2 of 8): P (8/3 + 1/2)/8 = 19/48, R (2 + 1)/8 = 3/8, F1 (16/7 + 2/3)/8 = 31/84
    expect(report.averages.weighted.precision).toBeCloseTo(19 / 48, 12);
    expect(report.averages.weighted.recall).toBeCloseTo(3 / 8, 12);
    expect(report.averages.weighted.f1).toBeCloseTo(31 / 84, 12);
  });

  it("lists the confused pairs, most frequent first, with the first message as example; null is off-topic", () => {
    expect(report.confusions).toEqual([
      { expected: "alpha", answered: "bravo", count: 2, example: "bravo one" },
      { expected: null, answered: "alpha", count: 1, example: "alpha one" },
      { expected: "bravo", answered: "charlie", count: 1, example: "charlie one" },
      { expected: "charlie", answered: "bravo", count: 1, example: "bravo three" },
    ]);
  });

  it("bins the answers by confidence: exact answers (1) in the last bin, rejections without suggestions in the first", () => {
    expect(report.confidenceHistogram).toHaveLength(10);
    expect(report.confidenceHistogram[9]).toEqual({ from: 0.9, to: 1, correct: 3, wrong: 5, asked: 0, rejected: 0 });
    expect(report.confidenceHistogram[0]).toEqual({ from: 0, to: 0.1, correct: 0, wrong: 0, asked: 0, rejected: 2 });
    expect(report.confidenceHistogram.slice(1, 9).every((b) => b.correct + b.wrong + b.rejected === 0)).toBe(true);
  });

  it("an intent no case expects but some answer gives is listed with support 0", async () => {
    const r = evaluate(await loadLetters(), parseCases("text,category\nalpha one,bravo\n", "x.csv"));
    expect(r.intents).toEqual([
      { intent: "alpha", support: 0, answered: 1, correct: 0, precision: 0, recall: 0, f1: 0 },
      { intent: "bravo", support: 1, answered: 0, correct: 0, precision: 0, recall: 0, f1: 0 },
    ]);
    expect(r.averages.weighted).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("an answer of several clauses is a confusion, not an intent of its own", async () => {
    const r = evaluate(await loadLetters(), parseCases("text,category\nalpha one. bravo one,alpha\n", "x.csv"));
    expect(r.statuses).toEqual({ "exact match": 1 });
    expect(r.intents.map((m) => m.intent)).toEqual(["alpha"]);
    expect(r.intents[0]).toMatchObject({ support: 1, answered: 0, correct: 0 });
    expect(r.confusions).toEqual([{ expected: "alpha", answered: "alpha, bravo", count: 1, example: "alpha one. bravo one" }]);
  });
});

describe("confidence histogram bins", () => {
  function outcome(answered: boolean, correct: boolean, score: number, asked = false): CaseOutcome {
    const response: NpcResponse = {
      status: answered ? "probabilistic match" : "rejected",
      confidence: answered ? score : 0,
      intent: answered ? "x" : null,
      response: "",
      thinking: "",
      tools: [],
      slots: {},
      permission: "ask",
      sentiment: { expletives: 0, interjections: 0, thanking: 0, encouraging: 0, discouraging: 0 },
      emoji: "",
      related: answered ? [] : [{ intent: "x", category: null, example: null, score }],
      description: null,
      witness: [],
    };
    const c = { input: "m", line: 1, expect: { format: "jsonl" as const, intent: "x" } };
    return { case: c, response, correct, answered, asked, expectsRejection: false, expectedIntent: "x", reachable: true, offeredExpected: false, latencyUs: 0 };
  }

  it("puts each edge in the bin it starts, 1 in the last, and a rejection by its best suggestion's score", () => {
    const bins = confidenceHistogram([outcome(true, true, 0.7), outcome(true, false, 0.6999), outcome(true, true, 1), outcome(false, false, 0.3), outcome(false, true, 0.05)], 10);
    const counts = bins.map((b) => [b.correct, b.wrong, b.rejected]);
    expect(counts[7]).toEqual([1, 0, 0]);
    expect(counts[6]).toEqual([0, 1, 0]);
    expect(counts[9]).toEqual([1, 0, 0]);
    expect(counts[3]).toEqual([0, 0, 1]);
    expect(counts[0]).toEqual([0, 0, 1]);
    const asked = confidenceHistogram([outcome(false, false, 0, true), outcome(false, false, 0)], 10)[0]!;
    expect([asked.asked, asked.rejected]).toEqual([1, 1]); // a question naming the expected intent is its own column
    expect(confidenceHistogram([outcome(true, true, 0.5)], 4).map((b) => [b.from, b.to, b.correct])).toEqual([
      [0, 0.25, 0],
      [0.25, 0.5, 0],
      [0.5, 0.75, 1],
      [0.75, 1, 0],
    ]);
  });
});
