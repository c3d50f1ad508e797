// `ndfc graph`: categories, intents, follow-ups, templates with slot types and the linter's proven
// relations, as Mermaid or DOT, with every caption escaped whatever the NPC's text.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { buildNpcGraph } from "../../compiler/graph/npc-graph.js";
import { renderGraph } from "../../compiler/graph/render-graph.js";
import { allIntents } from "../../compiler/ir/walk.js";
import { lintSources } from "../../compiler/lint.js";
import { computeIntentOrder } from "../../compiler/passes/compute-intent-order.js";
import { npcIr, type IntentSpec } from "../runtime/ir-fixture.js";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

const work = tempDir("graph");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = (tag: string, type: string, required = true) => ({ tag: `<||${tag}||>`, type, required });
const template = (intent: string, path: object[]) => ({ intent, type: "template", structure: [path], output: intent, permission: "yolo" });

/** a_wide covers b_narrow (CON004); two entries share an input (CON001). */
const relations = writeTree(join(work, "relations"), {
  "config.json": JSON.stringify({ npc_name: "Relations" }),
  "dataset/types.json": JSON.stringify({ "<||path||>": "^[\\w./-]+$" }),
  "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_show||>": ["show", "print"], "<||vocab_view||>": ["show"] }),
  "dataset/templates_a.json": JSON.stringify([template("a_wide", [node("vocab_show", "vocab"), node("path", "path")])]),
  "dataset/templates_b.json": JSON.stringify([template("b_narrow", [node("vocab_view", "vocab"), node("path", "path")])]),
  "dataset/dataset_x.json": JSON.stringify([
    { intent: "hello", category: "talk", input: ["hi there"], output: "hello" },
    { intent: "greet", category: "talk", input: ["hi there"], output: "hey" },
  ]),
});

/** Node id of an intent in the diagram: its position in the bundle's intent order. */
function idOf(dir: string, intent: string): string {
  const { ir } = lintSources([dir]);
  return `n${computeIntentOrder(ir.intents).find((o) => o.intent.id === intent)!.index}`;
}

describe("ndfc graph", () => {
  it("draws categories, each intent once, follow-ups from the entry whose context lists them, and slot types", async () => {
    const run = await runCaptured(["graph", "datasets/example"], repoRoot);
    expect(run.code).toBe(0);
    const { ir } = lintSources([join(repoRoot, "datasets/example")]);
    const lines = run.out.split("\n");
    expect(lines[0]).toBe("flowchart LR");
    for (const category of new Set(allIntents(ir).flatMap((i) => (i.category ? [i.category] : [])))) expect(run.out).toContain(`["${category}"]`);
    const ordered = computeIntentOrder(ir.intents);
    for (const o of ordered) expect(lines.filter((l) => new RegExp(`^\\s+n${o.index}[[(]"`).test(l))).toHaveLength(1);
    const followUps = ordered.filter((o) => o.parent !== null);
    expect(followUps.length).toBeGreaterThan(0);
    for (const o of followUps) expect(lines).toContain(`  n${o.parent} -->|"follow-up"| n${o.index}`);
    expect(run.out).toMatch(/n\d+\("create_folder<br\/>.*#60;directory: path#62;"\)/);
  });

  it("draws the shadowing and the shared input the linter proved, winner first", async () => {
    const run = await runCaptured(["graph", relations], work);
    expect(run.out).toContain(`  ${idOf(relations, "a_wide")} -.->|"shadows"| ${idOf(relations, "b_narrow")}\n`);
    expect(run.out).toContain(`  ${idOf(relations, "hello")} -.-|"same input"| ${idOf(relations, "greet")}\n`);
    const dot = await runCaptured(["graph", relations, "--format", "dot"], work);
    expect(dot.out).toMatch(/^digraph "Relations" \{\n/);
    expect(dot.out).toContain(`  ${idOf(relations, "a_wide")} -> ${idOf(relations, "b_narrow")} [label="shadows", style=dashed];`);
    expect(dot.out.trimEnd().endsWith("}")).toBe(true);
  });

  it("writes -o atomically, refuses a missing NPC (exit 2) and teaches with examples", async () => {
    const out = join(work, "relations.mmd");
    const written = await runCaptured(["graph", relations, "-o", out], work);
    expect(written).toMatchObject({ code: 0, out: "" });
    expect(readFileSync(out, "utf8")).toBe((await runCaptured(["graph", relations], work)).out);
    const missing = await runCaptured(["graph", "nowhere"], work);
    expect(missing.code).toBe(2);
    expect(missing.err).not.toContain("    at ");
    expect((await runCaptured(["graph", relations, "--format", "png"], work)).code).toBe(2);
    const help = await runCaptured(["graph", "--help"], work);
    expect(help.out).toContain("Examples:");
    expect(help.out).toContain("--format dot");
  });

  it("property: arbitrary intent names, categories, inputs and synonyms never break either syntax", () => {
    const text = fc.string({ unit: "binary", maxLength: 12 });
    const spec = fc.record({
      id: text,
      category: fc.option(text, { nil: undefined }),
      inputs: fc.array(text, { maxLength: 3 }),
      template: fc.boolean(),
      child: fc.option(text, { nil: undefined }),
    });
    // One Mermaid statement per line: a header, a comment, a subgraph opening or end, a node, an edge.
    const quoted = '"(?:[A-Za-z0-9 _.,:/\'+*=?!@$%^~\\-|()\\[\\]{}…“”]|#\\d+;|<br/>)*"';
    const statement = new RegExp(
      `^(?:flowchart LR|  %% .*|  subgraph c\\d+ \\[${quoted}\\]|  end|\\s+n\\d+(?:\\[${quoted}\\]|\\(${quoted}\\))|  n\\d+ (?:-->|-\\.->|-\\.-)\\|"(?:follow-up|shadows|same input)"\\| n\\d+)$`,
    );
    const dotQuoted = /"(?:[^"\\\n]|\\.)*"/g;
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 5 }), text, (specs, word) => {
        const intents: IntentSpec[] = specs.map((s) => ({
          id: s.id,
          inputs: s.inputs,
          ...(s.category !== undefined ? { category: s.category } : {}),
          ...(s.template ? { paths: ["vocab_x ?vocab_y thing:path"] } : {}),
          ...(s.child !== undefined ? { context: [{ id: s.child, inputs: [s.child] }] } : {}),
        }));
        const ir = npcIr({ intents, synonyms: { vocab_x: [word, `${word}"#<b>`] } });
        const graph = buildNpcGraph(ir, []);
        const mermaid = renderGraph(graph, "mermaid").trimEnd().split("\n");
        for (const line of mermaid) expect(line, line).toMatch(statement);
        expect(mermaid.filter((l) => /^\s+n\d+[[(]/.test(l))).toHaveLength(allIntents(ir).length);
        for (const line of renderGraph(graph, "dot").trimEnd().split("\n")) {
          // Outside its quoted strings a DOT line holds no quote, and a statement never spans lines.
          expect(line.replace(dotQuoted, "S"), line).not.toMatch(/["\n]/);
        }
      }),
      { numRuns: 200 },
    );
  });
});
