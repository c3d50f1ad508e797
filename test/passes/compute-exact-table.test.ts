// compute-exact-table.ts on hand-built intents: normalized keys, sorted; the first intent in bundle
// order keeps a shared input; context children get a table of their own, not the top-level one.
import { describe, expect, it } from "vitest";
import { computeExactTables } from "../../compiler/passes/compute-exact-table.js";
import { computeIntentOrder } from "../../compiler/passes/compute-intent-order.js";
import { intent } from "../runtime/ir-fixture.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";
import type { BundleExactTable } from "../../runtime/bundle/bundle-types.js";

const ordered = computeIntentOrder([
  intent({ id: "list", inputs: ["List  FILES!", "ls"] }),
  intent({ id: "show", inputs: ["list files", "Show the files"] }),
  intent({ id: "create", inputs: ["create a folder"], context: [{ id: "confirm", inputs: ["Yes", "ls"] }] }),
]);
const { exact, contextExact } = computeExactTables(ordered);
const entries = (table: BundleExactTable) => stringsOf(table.keys).map((key, i) => [key, ordered[table.targets[i]!]!.intent.id]);

describe("computeExactTables", () => {
  it("keys the top-level inputs normalized and sorted; the first intent keeps an input two share", () => {
    expect(entries(exact)).toEqual([
      ["create a folder", "create"],
      ["list files", "list"],
      ["ls", "list"],
      ["show the files", "show"],
    ]);
    expect(stringsOf(exact.keys).sort()).toEqual(stringsOf(exact.keys));
  });

  it("gives a context's children their own table, keyed by the parent, and leaves them out of the top-level one", () => {
    const create = ordered.findIndex((o) => o.intent.id === "create");
    expect(contextExact.map((t) => t.parent)).toEqual([create]);
    expect(entries(contextExact[0]!)).toEqual([
      ["ls", "confirm"],
      ["yes", "confirm"],
    ]);
    expect(stringsOf(exact.keys)).not.toContain("yes");
  });
});
