// A context child's template with a vocab tag defined nowhere matches the word its name spells,
// like a top-level one (the tag table once skipped children, so their nodes got tag 0's words).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

const work = tempDir("context-vocab");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = (tag: string) => ({ tag: `<||${tag}||>`, type: "vocab", required: true });

describe("vocab tags of context children", () => {
  it("an undefined tag in a child's template matches its own word, not another tag's", async () => {
    const dir = writeTree(join(work, "npc"), {
      "config.json": JSON.stringify({ npc_name: "Ctx" }),
      "dataset/templates_a.json": JSON.stringify([
        {
          intent: "open_box",
          type: "template",
          structure: [[node("vocab_aaa"), node("vocab_box")]],
          output: "opened",
          permission: "yolo",
          context: [{ intent: "close_it", type: "template", structure: [[node("vocab_zzz"), node("vocab_it")]], output: "closed", permission: "yolo" }],
        },
      ]),
    });
    const npc = await loadNpc(compileNpc(lintSources([dir]).ir).bytes);
    const session = npc.session({ seed: 1 });
    expect(session.process("aaa box").intent).toBe("open_box");
    expect(session.process("aaa it").status).not.toBe("context match");
    const again = npc.session({ seed: 1 });
    again.process("aaa box");
    expect(again.process("zzz it").intent).toBe("close_it");
  });
});
