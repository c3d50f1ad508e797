// compute-automaton.ts on hand-built template paths: one trie for all intents, sharing the states
// of a common prefix; an optional node's skip edge beside its consuming edge, every edge forward;
// a vocab node's alternatives as one edge; a path with an unusable required node left out and
// reported; list and range slots as one edge each, equal ranges shared; context children's paths
// accepted under their own index; the same automaton whatever order the intents are listed in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NpcIR } from "../../compiler/ir/types.js";
import { computeAutomaton } from "../../compiler/passes/compute-automaton.js";
import { computeIntentOrder } from "../../compiler/passes/compute-intent-order.js";
import { computeVocab } from "../../compiler/passes/compute-vocab.js";
import type { BundleState } from "../../runtime/bundle/bundle-types.js";
import { npcIr } from "../runtime/ir-fixture.js";
import { templateNodes } from "../../compiler/ir/template-parts.js";

const USABLE_TYPES = new Map([["filename", 0]]);
const LIST_IDS = new Map([["room", 0]]);

function build(ir: NpcIR) {
  const ordered = computeIntentOrder(ir.intents);
  const vocab = computeVocab(ir.synonyms, ordered);
  const automaton = computeAutomaton(ordered, vocab, USABLE_TYPES, LIST_IDS);
  /** Where an intent's path is accepted. */
  const acceptedAt = (id: string, path = 0): number[] => {
    const index = ordered.findIndex((o) => o.intent.id === id);
    return automaton.states.flatMap((s, state) => (s.accept.some(([i, p]) => i === index && p === path) ? [state] : []));
  };
  return { ordered, vocab, automaton, acceptedAt };
}

/** Every child state an edge of `state` leads to (skips included). */
function children(state: BundleState): number[] {
  return [...state.vocab.map((e) => e[1]), ...state.typed.map((e) => e[2]), ...state.strings.map((e) => e[1]), ...state.lists.map((e) => e[2]), ...state.ranges.map((e) => e[2]), ...state.skip];
}

const filesIr = () =>
  npcIr({
    synonyms: { vocab_copy: ["copy"], vocab_file: ["file"], vocab_to: ["to"], vocab_delete: ["delete"], vocab_remove: ["remove"] },
    intents: [
      { id: "copy_file", paths: ["vocab_copy ?vocab_file src:filename ?vocab_to dst:filename"] },
      { id: "copy_text", paths: ["vocab_copy ?vocab_file text:string"] },
      // One node with two tags, written both ways round.
      { id: "delete_file", paths: ["vocab_delete|vocab_remove target:filename", "vocab_remove|vocab_delete|vocab_remove target:filename"] },
    ],
  });

describe("computeAutomaton", () => {
  it("shares the states of a common prefix across intents and counts every path", () => {
    const { automaton, acceptedAt } = build(filesIr());
    // root; copy, ?file shared; src, ?to, dst; text; the delete edge and its target.
    expect(automaton.states).toHaveLength(1 + 2 + 3 + 1 + 2);
    expect(automaton.paths).toBe(4);
    expect(automaton.unmatchable).toEqual([]);
    expect(automaton.states[0]!.vocab).toHaveLength(2);
    const afterFile = automaton.states[2]!;
    expect(afterFile.typed.map(([type, slot]) => [type, slot])).toEqual([[0, "src"]]);
    expect(afterFile.strings.map(([slot]) => slot)).toEqual(["text"]);
    expect(acceptedAt("copy_file")).toHaveLength(1);
    expect(acceptedAt("copy_text")).not.toEqual(acceptedAt("copy_file"));
  });

  it("gives an optional node a skip edge to the same state as its consuming edge, and every edge leads to a later state", () => {
    const { automaton, vocab } = build(filesIr());
    const afterCopy = automaton.states[1]!;
    expect(afterCopy.vocab).toEqual([[[vocab.tagId.get("vocab_file")!], 2]]);
    expect(afterCopy.skip).toEqual([2]);
    expect(automaton.states[0]!.skip).toEqual([]);
    automaton.states.forEach((state, id) => {
      for (const child of children(state)) expect(child).toBeGreaterThan(id);
    });
  });

  it("makes a vocab node's alternatives one edge of sorted, distinct tag ids, whatever order they are written in", () => {
    const { automaton, vocab, acceptedAt } = build(filesIr());
    const tags = [vocab.tagId.get("vocab_delete")!, vocab.tagId.get("vocab_remove")!].sort((a, b) => a - b);
    const deleteEdges = automaton.states[0]!.vocab.filter(([ids]) => ids.length > 1);
    expect(deleteEdges.map(([ids]) => ids)).toEqual([tags]);
    expect(acceptedAt("delete_file", 1)).toEqual(acceptedAt("delete_file", 0));
  });

  it("leaves out and reports a path whose required node has an unusable type; an optional one keeps only its skip edge", () => {
    const { automaton, acceptedAt } = build(
      npcIr({
        intents: [
          { id: "strict", paths: ["vocab_go where:nowhere"] },
          { id: "lenient", paths: ["vocab_go ?where:nowhere"] },
        ],
      }),
    );
    expect(automaton.unmatchable).toEqual([{ intent: "strict", path: 0, reason: 'type "nowhere" is undefined or unusable' }]);
    expect(automaton.paths).toBe(1);
    expect(acceptedAt("strict")).toEqual([]);
    const afterGo = automaton.states[1]!;
    expect(children(afterGo)).toEqual(afterGo.skip);
    expect(afterGo.skip).toEqual(acceptedAt("lenient"));
  });

  it("makes a list slot and a range slot one edge each, shares equal ranges, numbers them by first use, and drops a path with an undefined list", () => {
    const ir = npcIr({
      intents: [
        { id: "dim", paths: ["vocab_dim level:range", "vocab_set percent:range"] },
        { id: "go_to", paths: ["vocab_go room:list", "vocab_go room:list"] },
        { id: "count", paths: ["vocab_count n:range"] },
      ],
    });
    const node = (id: string, path: number) => templateNodes(ir.intents.find((i) => i.id === id)!.paths[path]!.nodes)[1]!;
    node("dim", 0).range = { min: 0, max: 100, unit: "%" };
    node("dim", 1).range = { min: 0, max: 100, unit: "%" };
    node("count", 0).range = { min: 1, max: 10, unit: "" };
    node("go_to", 0).list = "room";
    node("go_to", 1).list = "garden";
    const { automaton } = build(ir);
    expect(automaton.ranges).toEqual([
      { min: 0, max: 100, unit: "%" },
      { min: 1, max: 10, unit: "" },
    ]);
    const rangeEdges = automaton.states.flatMap((s) => s.ranges.map(([range, slot]) => [range, slot]));
    expect(rangeEdges).toEqual([
      [0, "level"],
      [0, "percent"],
      [1, "n"],
    ]);
    expect(automaton.states.flatMap((s) => s.lists.map(([list, slot]) => [list, slot]))).toEqual([[0, "room"]]);
    expect(automaton.unmatchable).toEqual([{ intent: "go_to", path: 1, reason: 'list "garden" is undefined' }]);
    expect(automaton.paths).toBe(4);
  });

  it("puts a context child's paths in the same automaton, accepted under the child's own index", () => {
    const { ordered, automaton, acceptedAt } = build(
      npcIr({ intents: [{ id: "create", paths: ["vocab_create name:string"], context: [{ id: "rename", paths: ["vocab_call_it name:string"] }] }, { id: "other", paths: ["vocab_other"] }] }),
    );
    const rename = ordered.findIndex((o) => o.intent.id === "rename");
    expect(ordered[rename]!.parent).not.toBeNull();
    expect(rename).toBeGreaterThan(ordered.findIndex((o) => o.intent.id === "other"));
    expect(automaton.paths).toBe(3);
    expect(acceptedAt("rename")).toHaveLength(1);
    expect(automaton.states[acceptedAt("rename")[0]!]!.accept).toEqual([[rename, 0]]);
  });

  it("builds the same automaton whatever order the intents are listed in (property)", () => {
    const ir = filesIr();
    const expected = build(ir).automaton;
    fc.assert(
      fc.property(fc.shuffledSubarray(ir.intents, { minLength: ir.intents.length, maxLength: ir.intents.length }), (intents) => {
        expect(build({ ...ir, intents }).automaton).toEqual(expected);
      }),
    );
  });
});
