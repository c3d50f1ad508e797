// Banking77 (../shared/corpus/banking77) through the whole runtime, at the threshold chosen at
// build time by cross-validation on train.csv: floors a little under what we measured, and the
// off-topic prompts written for the banking NPC (test/matching/banking77-off-topic.txt).
import { beforeAll, describe, expect, it } from "vitest";
import { banking77OffTopic } from "../../bench/banking77.js";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { learnedIndexFor, NpcModel } from "../../runtime/bundle/model.js";
import { tokenize } from "../../runtime/text/normalize.js";
import { banking77Build, banking77Present } from "../support/banking77.js";
import { repoRoot } from "../support/repo-root.js";

// Built in beforeAll, not in the suite's body, so the tests are declared (and counted as skipped)
// without the corpus too; the build trains the learned stage, minutes under load.
describe.skipIf(!banking77Present)("Banking77", () => {
  let dir: string;
  let result: ReturnType<typeof banking77Build>["result"];
  let test: ReturnType<typeof banking77Build>["test"];
  let npc: Npc;
  beforeAll(async () => {
    ({ dir, result, test } = banking77Build());
    npc = await loadNpc(result.bytes);
  }, 600_000);

  it('ships the learned stage under the default "matcher": "auto"', () => {
    expect(result.summary.learnedShipped).toBe(true);
    expect(result.payload.config.learnedNote).toMatch(/^shipped: cross-validation answered 8\d\.\d % of 9982 held-out phrasings/);
  });

  it("answers test.csv correctly at the build-time threshold, precisely, and ranks it first when forced", async () => {
    let answered = 0;
    let correct = 0;
    for (const row of test) {
      const answer = npc.session().process(row.text);
      if (answer.status === "rejected") continue;
      answered++;
      if (answer.intent === row.label) correct++;
    }
    const model = new NpcModel(result.payload, await learnedIndexFor(result.payload));
    const ids = result.payload.intents.map((i) => i.id);
    let forced = 0;
    for (const row of test) {
      const scores = model.learned!.score(tokenize(row.text).tokens);
      if (ids[scores.topIntent >= 0 ? scores.topIntent : scores.runnerUpIntent] === row.label) forced++;
    }
    console.log(
      `Banking77 test.csv: ${correct}/${test.length} correct (${((correct / test.length) * 100).toFixed(2)} %), precision ${((correct / answered) * 100).toFixed(2)} %, ` +
        `forced top-1 ${((forced / test.length) * 100).toFixed(2)} %, threshold ${result.payload.config.learnedThreshold}`,
    );
    expect(test).toHaveLength(3080);
    // Measured 88.18 % correct at 95.33 % precision, forced 91.56 % (2026-12-01, cross-validated at 96 %, pruned below 4).
    expect(correct / test.length).toBeGreaterThanOrEqual(0.875);
    expect(correct / answered).toBeGreaterThanOrEqual(0.945);
    expect(forced / test.length).toBeGreaterThanOrEqual(0.91);
  });

  it("rejects at least 90 % of the off-topic prompts", () => {
    const prompts = banking77OffTopic(repoRoot);
    const answered = prompts.filter((p) => npc.session().process(p).status !== "rejected");
    console.log(`Banking77 off-topic: ${prompts.length - answered.length}/${prompts.length} rejected; answered: ${answered.join(" | ")}`);
    expect(prompts.length).toBeGreaterThanOrEqual(300);
    // Measured 279/305 rejected (91.5 %).
    expect(1 - answered.length / prompts.length).toBeGreaterThanOrEqual(0.9);
  });

  // A whole Banking77 build: about 8 s on a quiet machine, but over the default 60 s timeout on a
  // shared one (2 minutes at load 12 on 2 cores), where it failed by time, not by its bytes.
  it("builds the same bytes whatever the order of its entries", { timeout: 300_000 }, () => {
    const lint = lintSources([dir]);
    const reversed = compileNpc({ ...lint.ir, intents: [...lint.ir.intents].reverse() });
    expect(reversed.bytes).toEqual(result.bytes);
  });
});
