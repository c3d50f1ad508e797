// compute-message-tables.ts: the tables the runtime used to build on its first message, now in the
// bundle; and the validator's refusal of intent-input rows that do not fit (BundleRows' checks).
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { shellNpc } from "../runtime/ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";
import { clonePayload } from "../support/clone-payload.js";

const { payload } = compileNpc(shellNpc());

function edited(edit: (tables: BundlePayload["messageTables"]) => void): Uint8Array {
  const copy = clonePayload(payload);
  edit(copy.messageTables);
  return encodeBundle(copy);
}

describe("computeMessageTables", () => {
  it("lists each intent's inputs, ascending, in the run its start says", () => {
    const { starts, items } = payload.messageTables.intentInputs;
    const intents = payload.intents.length;
    expect(starts).toHaveLength(intents + 1);
    for (let intent = 0; intent < intents; intent++) {
      const expected = [...payload.inputs.intent].flatMap((owner, input) => (owner === intent ? [input] : []));
      expect([...items.subarray(starts[intent], starts[intent + 1])]).toEqual(expected);
    }
    expect(starts.at(-1)).toBe(payload.inputs.intent.length);
  });

  it("counts the first word of every exact input, in any context, as an action word, sorted", () => {
    const actionWords = stringsOf(payload.messageTables.actionWords);
    for (const table of [payload.exact, ...payload.contextExact]) for (const key of stringsOf(table.keys)) expect(actionWords).toContain(key.split(" ")[0]);
    expect([...actionWords].sort()).toEqual(actionWords);
    expect(new Set(actionWords).size).toBe(actionWords.length);
  });

  it("is refused by the loader when the rows do not fit the intents and inputs", async () => {
    const rows = (edit: (rows: { starts: number[]; items: number[] }) => void) =>
      edited((t) => {
        const plain = { starts: [...t.intentInputs.starts], items: [...t.intentInputs.items] };
        edit(plain);
        t.intentInputs = { starts: Uint32Array.from(plain.starts), items: Uint32Array.from(plain.items) };
      });
    expect(await refusalOf(rows((r) => r.starts.pop()))).toMatch(/messageTables\.intentInputs\.starts: not one per intents\.ids and one more/);
    expect(await refusalOf(rows((r) => (r.starts[r.starts.length - 1] = 0)))).toMatch(/messageTables\.intentInputs\.starts: not from 0 to the number of items/);
    expect(await refusalOf(rows((r) => (r.starts[1] = r.items.length + 1)))).toMatch(/messageTables\.intentInputs\.starts: not ascending at 2/);
    expect(await refusalOf(rows((r) => (r.items[0] = 1e6)))).toMatch(/messageTables\.intentInputs\.items\[0\]: expected an index below/);
  });
});
