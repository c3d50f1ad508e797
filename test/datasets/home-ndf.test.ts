// datasets/home-ndf is datasets/home written in NDF JSON with ndfc's extension keys (list, range
// and choice nodes, `slots`, vocabulary/lists.json; scripts/rules-to-ndf.ts wrote it): a JSON author
// gets the same NPC, so both must give the same answers, slots and spans on home's eval set.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { parseCases } from "../../compiler/eval/cases.js";
import { templateSequences } from "../../compiler/ir/template-parts.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc, type NpcResponse } from "../../runtime/index.js";
import { repoRoot } from "../support/repo-root.js";

const cases = parseCases(readFileSync(join(repoRoot, "datasets/home/eval.jsonl"), "utf8"), "eval.jsonl");

interface Built {
  npc: Npc;
  /** Templates in the automaton (a DSL pattern is one, its groups branching inside it). */
  templates: number;
  /** Node sequences of those templates (NDF structure paths, a DSL pattern's phrasing shapes). */
  sequences: number;
}

async function bundle(name: string): Promise<Built> {
  const lint = lintSources([join(repoRoot, "datasets", name)]);
  expect(lint.diagnostics).toEqual([]);
  const { bytes, payload } = compileNpc(lint.ir);
  const sequences = lint.ir.intents.flatMap((intent) => intent.paths).reduce((n, path) => n + templateSequences(path.nodes, 1024).sequences.length, 0);
  return { npc: await loadNpc(bytes), templates: payload.counts.templatePaths, sequences };
}

const answer = (r: NpcResponse) => ({ status: r.status, intent: r.intent, response: r.response, tools: r.tools, slots: r.slots, captures: r.captures, permission: r.permission });

describe("datasets/home-ndf (NDF with extension keys) and datasets/home (DSL)", () => {
  let dsl: Built;
  let ndf: Built;
  beforeAll(async () => {
    [dsl, ndf] = await Promise.all([bundle("home"), bundle("home-ndf")]);
  });

  it("hold the same templates and node sequences: a DSL pattern is one structure path whose choice nodes branch", () => {
    expect(ndf.templates).toBe(dsl.templates);
    expect(ndf.sequences).toBe(dsl.sequences);
    expect(ndf.templates).toBeLessThan(ndf.sequences);
  });

  it("give the same answer, slots and spans to every eval sentence", () => {
    expect(cases.length).toBeGreaterThanOrEqual(400);
    for (const { input } of cases) {
      expect(answer(ndf.npc.session({ seed: 7 }).process(input)), input).toEqual(answer(dsl.npc.session({ seed: 7 }).process(input)));
    }
  });
});
