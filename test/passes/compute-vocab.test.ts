// compute-vocab.ts on hand-built synonyms and templates: tag ids in sorted order, one-word synonyms
// by word, several-word synonyms as phrases, and a tag no synonym set defines read as its own name.
import { describe, expect, it } from "vitest";
import { computeIntentOrder } from "../../compiler/passes/compute-intent-order.js";
import { computeVocab, impliedWords } from "../../compiler/passes/compute-vocab.js";
import { npcIr } from "../runtime/ir-fixture.js";

const ir = npcIr({
  synonyms: { vocab_delete: ["Delete", "remove", "get rid of"], vocab_file: ["file", "remove"] },
  intents: [{ id: "delete", paths: ["vocab_delete ?vocab_file target:string"], context: [{ id: "undo", paths: ["vocab_take_back"] }] }],
});
const vocab = computeVocab(ir.synonyms, computeIntentOrder(ir.intents));

describe("computeVocab", () => {
  it("numbers the tags in sorted order, a context child's undefined tag included", () => {
    expect(vocab.tags).toEqual(["vocab_delete", "vocab_file", "vocab_take_back"]);
    expect([...vocab.tagId]).toEqual([
      ["vocab_delete", 0],
      ["vocab_file", 1],
      ["vocab_take_back", 2],
    ]);
  });

  it("maps a one-word synonym to every tag that has it, normalized, and keeps phrases apart", () => {
    expect(vocab.wordTags.get("delete")).toEqual([0]);
    expect(vocab.wordTags.get("remove")).toEqual([0, 1]);
    expect(vocab.phrases).toEqual([
      [0, ["get", "rid", "of"]],
      [2, ["take", "back"]],
    ]);
  });

  it("reads a tag defined nowhere as the words of its name, and lists it as implicit", () => {
    expect(impliedWords("vocab_take_back")).toBe("take back");
    expect(vocab.implicit).toEqual(["vocab_take_back"]);
  });
});
