// compute-message-tables.ts: the tables the runtime used to build on its first message, now in the
// bundle; and the validator's refusal of rows that do not fit (BundleRows' checks, on the inputs' stems).
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { shellNpc } from "../runtime/ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";
import { clonePayload } from "../support/clone-payload.js";

const { payload } = compileNpc(shellNpc());

function edited(edit: (tables: BundlePayload["matching"]) => void): Uint8Array {
  const copy = clonePayload(payload);
  edit(copy.matching);
  return encodeBundle(copy);
}

describe("computeMessageTables", () => {
  it("counts the first word of every exact input, in any context, as an action word, sorted", () => {
    const actionWords = stringsOf(payload.messageTables.actionWords);
    for (const table of [payload.exact, ...payload.contextExact]) for (const key of stringsOf(table.keys)) expect(actionWords).toContain(key.split(" ")[0]);
    expect([...actionWords].sort()).toEqual(actionWords);
    expect(new Set(actionWords).size).toBe(actionWords.length);
  });

  it("is refused by the loader when the rows do not fit the inputs and stems", async () => {
    const rows = (edit: (rows: { starts: number[]; items: number[] }) => void) =>
      edited((t) => {
        const plain = { starts: [...t.inputStems.starts], items: [...t.inputStems.items] };
        edit(plain);
        t.inputStems = { starts: Uint32Array.from(plain.starts), items: Uint32Array.from(plain.items) };
      });
    expect(await refusalOf(rows((r) => r.starts.pop()))).toMatch(/matching\.inputStems\.starts: not one per inputs\.intent and one more/);
    expect(await refusalOf(rows((r) => (r.starts[r.starts.length - 1] = 0)))).toMatch(/matching\.inputStems\.starts: not from 0 to the number of items/);
    expect(await refusalOf(rows((r) => (r.starts[1] = r.items.length + 1)))).toMatch(/matching\.inputStems\.starts: not ascending at 2/);
    expect(await refusalOf(rows((r) => (r.items[0] = 1e6)))).toMatch(/matching\.inputStems\.items\[0\]: expected an index below/);
  });
});
