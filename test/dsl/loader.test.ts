// The loader hook: DSL files in an NPC directory (alone, or beside NDF JSON) and given directly
// are lowered and merged; slots take types defined in other files of the NPC.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadSources } from "../../compiler/sources/load.js";
import type { Intent } from "../../compiler/ir/types.js";
import { tempDir, writeTree } from "../support/cli.js";
import { templateNodes } from "../../compiler/ir/template-parts.js";

const root = tempDir("dsl-loader");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const npcDirectory = (name: string, files: Record<string, string>): string => writeTree(join(root, name), files);

const slotTypes = (intent: Intent | undefined) => templateNodes(intent?.paths[0]?.nodes ?? []).filter((n) => n.type !== "vocab").map((n) => `${n.tags[0]}:${n.type}`);

describe("loading DSL sources", () => {
  test("a DSL-only directory: files merge, a type from one file types a slot of another, word sets merge", () => {
    const dir = npcDirectory("dsl-only", {
      "a.rules": `RuleSet.define "twofiles" do\n  types path: %r{[\\w/.]+}\n  rule "delete :path"\nend\n`,
      "rules/b.rules": `synonym "wipe", means: "delete"\nrule "delete all in :path"\n`,
    });
    const { ir, diagnostics } = loadSources([dir]);
    expect(diagnostics.sorted()).toEqual([]);
    expect(ir.intents.map((i) => [i.id, slotTypes(i)])).toEqual([
      ["a.rules#0", ["path:path"]],
      ["rules/b.rules#0", ["path:path"]],
    ]);
    expect(ir.sources.map((s) => s.path)).toEqual(["a.rules", "rules/b.rules"]);
    const deleteWords = new Set(ir.synonyms.filter((s) => s.tag === "word_delete").flatMap((s) => s.words));
    expect([...deleteWords].sort()).toEqual(["delete", "wipe"]);
  });

  test("a DSL file beside NDF JSON joins the NDF intents and uses types.json", () => {
    const dir = npcDirectory("mixed", {
      "config.json": JSON.stringify({ npc_name: "mixed" }),
      "dataset/types.json": JSON.stringify({ "<||path||>": "[\\w/.]+" }),
      "dataset/dataset_main.json": JSON.stringify([{ input: ["hello"], output: "Hi." }]),
      "dataset/extra.rules": `rule "show :path" do\n  command "cat -- '<||path||>'"\n  permission :yolo\nend\n`,
    });
    const { ir, diagnostics } = loadSources([dir]);
    expect(diagnostics.sorted().filter((d) => d.severity === "error")).toEqual([]);
    expect(ir.intents.map((i) => i.id)).toEqual(["dataset/dataset_main.json#0", "dataset/extra.rules#0"]);
    expect(slotTypes(ir.intents[1])).toEqual(["path:path"]);
    expect(ir.intents[1]!.loc.file).toBe(join(dir, "dataset/extra.rules"));
  });

  test("DSL files given directly: the rule set names the NPC; errors come back as diagnostics", () => {
    const dir = npcDirectory("direct", {
      "one.rules": `Ruleset.create("direct-npc") do\n  rule "ping"\nend\n`,
      "two.rb": `rule "pong" do\n  permission :never\nend\n`,
    });
    const { ir, diagnostics } = loadSources([join(dir, "two.rb"), join(dir, "one.rules")]);
    expect(ir.config.name).toBe("direct-npc");
    expect(ir.intents.map((i) => i.id)).toEqual(["one.rules#0", "two.rb#0"]);
    expect(diagnostics.sorted().map((d) => `${d.loc.file.slice(dir.length + 1)}:${d.loc.line}:${d.loc.column} ${d.code}`)).toEqual(["two.rb:2:14 DSL106"]);
  });
});
