// compute-lists.ts on hand-built value lists: lists of one name merge across files, sorted by
// name; each spoken form keeps its first value; values are shared, not repeated; number words
// ship only when some slot reads numbers.
import { describe, expect, it } from "vitest";
import type { ValueList } from "../../compiler/ir/types.js";
import { computeLists, computeNumberWords } from "../../compiler/passes/compute-lists.js";
import { loc } from "../runtime/ir-fixture.js";

const list = (name: string, values: [string, string][]): ValueList => ({ name, values: values.map(([spoken, value]) => ({ spoken, value, loc: loc() })), loc: loc() });

const { lists, ids } = computeLists([
  list("room", [
    ["living room", "living_room"],
    ["lounge", "living_room"],
  ]),
  list("colour", [["red", "red"]]),
  // A second file: a new spoken form, and one already spoken with another value.
  list("room", [
    ["kitchen", "kitchen"],
    ["lounge", "kitchen"],
  ]),
]);

describe("computeLists", () => {
  it("merges the lists of one name and sorts them by name, ids following", () => {
    expect(lists.map((l) => l.name)).toEqual(["colour", "room"]);
    expect([...ids]).toEqual([
      ["colour", 0],
      ["room", 1],
    ]);
  });

  it("keeps a spoken form's first value, splits it into words, and stores each value once", () => {
    const room = lists[1]!;
    expect(room.values).toEqual(["living_room", "kitchen"]);
    expect(room.phrases).toEqual([
      [["living", "room"], 0],
      [["lounge"], 0],
      [["kitchen"], 1],
    ]);
  });
});

describe("computeNumberWords", () => {
  it("ships the number words only when some slot reads numbers", () => {
    expect(computeNumberWords(0)).toEqual([]);
    const words = new Map(computeNumberWords(2));
    expect([words.get("zero"), words.get("nineteen"), words.get("twenty"), words.get("ninety"), words.get("hundred")]).toEqual([0, 19, 20, 90, 100]);
  });
});
