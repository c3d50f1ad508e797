// The transform stage through compileNpc: a library caller's teachings are folded in before the
// compute passes (what `ndfc build --taught` does), and the lexical expansion reads the taught IR.
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import type { NpcIR } from "../../compiler/ir/types.js";
import { foldTeachings } from "../../compiler/passes/fold-teachings.js";
import { loadNpc } from "../../runtime/index.js";
import { shellNpc } from "../runtime/ir-fixture.js";

const teachings = {
  synonyms: [
    { word: "zap", meaning: "delete" },
    { word: "duplicate", meaning: "delete" }, // already a synonym of copy: skipped
  ],
  inputs: [
    { input: "what is taking my disk", intent: "disk_usage" },
    { input: "anything", intent: "no_such_intent" },
  ],
};

describe("transform stage (foldTeachings, run by compileNpc)", () => {
  it("folds trusted synonyms and learned inputs into the bundle, and says what it left out", async () => {
    const plain = compileNpc(shellNpc());
    const taught = compileNpc(shellNpc(), { teachings });
    expect(plain.folded).toBeNull();
    expect(taught.folded).toMatchObject({ synonyms: 1, inputs: 1 });
    expect(taught.folded!.skipped).toHaveLength(2);
    expect(taught.folded!.skipped[0]).toMatch(/^taught "duplicate" means "delete" skipped: .*vocab_copy/);
    expect(taught.folded!.skipped[1]).toMatch(/^learned "anything" as no_such_intent skipped/);
    expect(taught.payload.sources).toEqual(expect.arrayContaining(["(taught)", "(learned)"]));

    const session = (await loadNpc(taught.bytes)).session();
    expect(session.process("zap notes.txt")).toMatchObject({ intent: "delete_file", slots: { target: "notes.txt" } });
    expect(session.process("what is taking my disk")).toMatchObject({ status: "exact match", intent: "disk_usage" });
    expect((await loadNpc(plain.bytes)).session().process("what is taking my disk").status).not.toBe("exact match");
  });

  it("compiles the same bytes as compiling the IR the stage gives", () => {
    const ir = foldTeachings(shellNpc(), teachings).ir;
    expect(compileNpc(shellNpc(), { teachings }).bytes).toEqual(compileNpc(ir).bytes);
  });

  it("hands the lexical expansion the taught IR", () => {
    const seen: NpcIR[] = [];
    compileNpc(shellNpc(), { teachings, lexicalExpansion: (ir) => (seen.push(ir), { synonyms: new Map(), neighbours: new Map() }) });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.synonyms.find((set) => set.tag === "vocab_delete")!.words).toContain("zap");
  });
});
