// TERMy's own eval.json (reworded requests, scored by compiler/eval) and off-topic prompts
// written for this test (test/matching/off-topic.txt): the probabilistic stage must understand
// far more than the original engine (3 of 491) and answer almost nothing it should not.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCases, type EvalCase } from "../../compiler/eval/cases.js";
import { evaluate } from "../../compiler/eval/score.js";
import type { Npc } from "../../runtime/index.js";
import { hasTermy, termyBundles, termyDir } from "./support.js";

const offTopic = readFileSync(resolve(import.meta.dirname, "off-topic.txt"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"));

// Built in beforeAll, not in the suite's body, so the tests are declared (and counted as skipped)
// without the corpus too; TERMy with the learned stage takes over a minute to build under load.
describe.skipIf(!hasTermy)("TERMy eval.json and off-topic prompts", () => {
  let plain: Npc;
  let wordnet: Npc;
  let cases: EvalCase[];
  beforeAll(async () => {
    ({ plain, wordnet } = await termyBundles());
    cases = parseCases(readFileSync(resolve(termyDir, "dataset/eval.json"), "utf8"), "eval.json");
  }, 300_000);

  it("answers reworded requests correctly, and mostly correctly when it answers", () => {
    const results = { plain: evaluate(plain, cases), wordnet: evaluate(wordnet, cases) };
    for (const [name, r] of Object.entries(results)) {
      console.log(
        `TERMy eval.json (${name}): ${r.correct}/${r.cases} correct; answered ${r.answered}; ` +
          `reachable ${r.reachable.cases}, answered ${r.reachable.answered}, correct ${r.reachable.correct} (precision ${r.reachable.precision.toFixed(3)})`,
      );
    }
    expect(cases).toHaveLength(491);
    // Target of issue 9: 100 correct at 70% precision — NOT reached. Issue 14's line, 40 correct
    // at 75% precision on answered reachable prompts, is met with --wordnet only (its WordNet
    // neighbours), with the off-topic line below on the same build (relatives need the message's
    // own evidence, ownEvidence in match-probabilistic.ts): measured 27 at 77.1% (plain) and 42 at
    // 80.8% (--wordnet); the floors guard what we reach.
    expect(results.plain.correct, "issue 9 target is 100; floor at what we reach").toBeGreaterThanOrEqual(26);
    expect(results.wordnet.correct, "issue 14 target is 40; floor at what we reach").toBeGreaterThanOrEqual(41);
    expect(results.plain.reachable.precision).toBeGreaterThanOrEqual(0.7);
    expect(results.wordnet.reachable.precision).toBeGreaterThanOrEqual(0.75);
  });

  it("answers at most 5% of prompts about things TERMy does not do", () => {
    expect(offTopic.length).toBeGreaterThanOrEqual(200);
    for (const [name, npc] of Object.entries({ plain, wordnet })) {
      const answered = offTopic.filter((prompt) => npc.session().process(prompt).status !== "rejected");
      console.log(`off-topic (${name}): ${answered.length}/${offTopic.length} answered: ${answered.join(" | ")}`);
      // Measured 5 (plain) and 9 (--wordnet, 10 before relatives needed the message's own evidence).
      expect(answered.length / offTopic.length).toBeLessThanOrEqual(0.05);
    }
  });
});
