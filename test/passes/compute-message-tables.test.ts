// compute-message-tables.ts: the tables the runtime used to build on its first message, now in the
// bundle; and the validator's refusal of runs that do not fit the inputs.
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle } from "../../runtime/encode.js";
import type { BundlePayload } from "../../runtime/bundle-types.js";
import { shellNpc } from "../runtime/ir-fixture.js";
import { refusalOf } from "../support/refusal.js";

const { payload } = compileNpc({ ir: shellNpc() });

function edited(edit: (tables: BundlePayload["messageTables"]) => void): Uint8Array {
  const copy = structuredClone(payload);
  edit(copy.messageTables);
  return encodeBundle(copy);
}

describe("computeMessageTables", () => {
  it("lists each intent's inputs, ascending, in the run its start says", () => {
    const { intentInputs, intentInputStart } = payload.messageTables;
    const intents = payload.intents.length;
    expect(intentInputStart).toHaveLength(intents + 1);
    for (let intent = 0; intent < intents; intent++) {
      const expected = payload.inputs.intent.flatMap((owner, input) => (owner === intent ? [input] : []));
      expect(intentInputs.slice(intentInputStart[intent], intentInputStart[intent + 1])).toEqual(expected);
    }
    expect(intentInputStart.at(-1)).toBe(payload.inputs.intent.length);
  });

  it("counts the first word of every exact input, in any context, as an action word, sorted", () => {
    const { actionWords } = payload.messageTables;
    for (const table of [payload.exact, ...payload.contextExact]) for (const key of table.keys) expect(actionWords).toContain(key.split(" ")[0]);
    expect([...actionWords].sort()).toEqual(actionWords);
    expect(new Set(actionWords).size).toBe(actionWords.length);
  });

  it("is refused by the loader when the runs do not fit the inputs", async () => {
    expect(await refusalOf(edited((t) => t.intentInputStart.pop()))).toMatch(/messageTables\.intentInputStart: not one per intent, and one more/);
    expect(await refusalOf(edited((t) => (t.intentInputStart[t.intentInputStart.length - 1] = 0)))).toMatch(/intentInputStart: not from 0 to the number of inputs/);
    expect(await refusalOf(edited((t) => t.intentInputs.push(0)))).toMatch(/messageTables\.intentInputs: length differs from inputs\.intent/);
    expect(await refusalOf(edited((t) => (t.intentInputs[0] = 1e6)))).toMatch(/messageTables\.intentInputs\[0\]: expected an index below/);
  });
});
