// CON004: a template path that provably never wins, confirmed against the runtime.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

const work = tempDir("shadowing");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = (tag: string, type: string, required = true) => ({ tag: `<||${tag}||>`, type, required });
const template = (intent: string, path: object[]) => ({ intent, type: "template", structure: [path], output: intent, permission: "yolo" });

const dir = writeTree(join(work, "npc"), {
  "config.json": JSON.stringify({ npc_name: "Shadows" }),
  "dataset/types.json": JSON.stringify({ "<||path||>": "^[\\w./-]+$" }),
  "dataset/vocabulary/templates.json": JSON.stringify({
    "<||vocab_show||>": ["show", "display", "print"],
    "<||vocab_view||>": ["show", "display"],
    "<||vocab_file||>": ["file"],
  }),
  // a_wide: show|display|print [file] <path>; b_narrow: show|display file <path> — never wins.
  "dataset/templates_a.json": JSON.stringify([template("a_wide", [node("vocab_show", "vocab"), node("vocab_file", "vocab", false), node("path", "path")])]),
  "dataset/templates_b.json": JSON.stringify([
    template("b_narrow", [node("vocab_view", "vocab"), node("vocab_file", "vocab"), node("path", "path")]),
    // Optional where a_wide requires nothing more: not covered (a_wide cannot skip its first node).
    template("c_optional", [node("vocab_view", "vocab", false), node("vocab_file", "vocab"), node("path", "path")]),
  ]),
});

describe("provable template shadowing", () => {
  it("reports the path an earlier, wider path always beats, and nothing else", () => {
    const { diagnostics } = lintSources([dir]);
    const shadowed = diagnostics.filter((d) => d.code === "CON004");
    expect(shadowed).toHaveLength(1);
    expect(shadowed[0]!.message).toContain('"b_narrow" never wins');
    expect(shadowed[0]!.related![0]!.loc.file).toBe(join(dir, "dataset/templates_a.json"));
  });

  it("agrees with the runtime: the shadowed path's messages go to the earlier intent", async () => {
    const npc = await loadNpc(compileNpc(lintSources([dir]).ir).bytes);
    for (const message of ["show file notes.txt", "display file a/b.txt"]) {
      expect(npc.session({ seed: 1 }).process(message).intent).toBe("a_wide");
    }
    expect(npc.session({ seed: 1 }).process("file notes.txt").intent).toBe("c_optional");
  });
});
