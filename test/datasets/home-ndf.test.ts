// datasets/home-ndf is datasets/home written in NDF JSON with ndfc's extension keys (list and
// range nodes, `slots`, vocabulary/lists.json; scripts/rules-to-ndf.ts wrote it): a JSON author
// gets the same NPC, so both must give the same answers, slots and spans on home's eval set.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { parseCases } from "../../compiler/eval/cases.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc, type NpcResponse } from "../../runtime/index.js";
import { repoRoot } from "../support/repo-root.js";

const cases = parseCases(readFileSync(join(repoRoot, "datasets/home/eval.jsonl"), "utf8"), "eval.jsonl");

async function bundle(name: string): Promise<{ npc: Npc; paths: number }> {
  const lint = lintSources([join(repoRoot, "datasets", name)]);
  expect(lint.diagnostics).toEqual([]);
  const { bytes, payload } = compileNpc(lint.ir);
  return { npc: await loadNpc(bytes), paths: payload.counts.templatePaths };
}

const answer = (r: NpcResponse) => ({ status: r.status, intent: r.intent, response: r.response, tools: r.tools, slots: r.slots, captures: r.captures, permission: r.permission });

describe("datasets/home-ndf (NDF with extension keys) and datasets/home (DSL)", () => {
  let dsl: { npc: Npc; paths: number };
  let ndf: { npc: Npc; paths: number };
  beforeAll(async () => {
    [dsl, ndf] = await Promise.all([bundle("home"), bundle("home-ndf")]);
  });

  it("compile to the same automaton size", () => {
    expect(ndf.paths).toBe(dsl.paths);
  });

  it("give the same answer, slots and spans to every eval sentence", () => {
    expect(cases.length).toBeGreaterThanOrEqual(400);
    for (const { input } of cases) {
      expect(answer(ndf.npc.session({ seed: 7 }).process(input)), input).toEqual(answer(dsl.npc.session({ seed: 7 }).process(input)));
    }
  });
});
