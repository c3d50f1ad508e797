// compute-intent-order.ts on hand-built intents: bundle order by source (file, then offset), never
// by the order the loader listed them; context children after every top-level intent, parents first.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeIntentOrder, contextChildren } from "../../compiler/passes/compute-intent-order.js";
import { intent } from "../runtime/ir-fixture.js";

const top = () => [
  intent({ id: "b_first", inputs: ["one"], file: "dataset/b.json" }),
  intent({ id: "a_second", inputs: ["two"], file: "dataset/a.json" }),
  intent({ id: "a_first", inputs: ["three"], file: "dataset/a.json", context: [{ id: "child_x", inputs: ["yes"] }, { id: "child_y", inputs: ["no"] }] }),
];

describe("computeIntentOrder", () => {
  it("orders top-level intents by file, then by where they were written, whatever the listing order", () => {
    const intents = top();
    // intent() numbers locations as it goes: a_first was written after a_second in a.json.
    const expected = ["a_second", "a_first", "b_first"];
    fc.assert(
      fc.property(fc.shuffledSubarray(intents, { minLength: intents.length, maxLength: intents.length }), (listed) => {
        const ordered = computeIntentOrder(listed);
        expect(ordered.slice(0, 3).map((o) => o.intent.id)).toEqual(expected);
        expect(ordered.map((o) => o.index)).toEqual(ordered.map((_, i) => i));
      }),
    );
  });

  it("puts context children after the top-level intents, in their written order, pointing at their parent", () => {
    const ordered = computeIntentOrder(top());
    expect(ordered.map((o) => [o.intent.id, o.parent])).toEqual([
      ["a_second", null],
      ["a_first", null],
      ["b_first", null],
      ["child_x", 1],
      ["child_y", 1],
    ]);
    expect(contextChildren(ordered)).toEqual([null, [3, 4], null, null, null]);
  });
});
