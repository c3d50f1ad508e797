// Format 12.0's sanitizer phrase table (runtime/bundle/phrase-table.ts): a lookup finds, for any
// word, exactly the phrases starting with it, longest first and then as the compiler gave them
// (what the Map by first word found), and a slot table a probe could loop in is refused at load.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle, phraseTableOf } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { PhraseTable } from "../../runtime/bundle/phrase-table.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { clonePayload } from "../support/clone-payload.js";

/** The phrases of `table` whose first word is `word`, in lookup order. */
function found(table: PhraseTable, word: string): [string[], number][] {
  const out: [string[], number][] = [];
  for (let i = table.first(word); i !== -1 && table.startsWith(i, word); i++) out.push([table.phrase(i).words, table.phrase(i).value]);
  return out;
}

const word = fc.stringMatching(/^[a-c]{1,3}$/);
const phrases = fc.array(fc.tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 4 })), { maxLength: 40 });

describe("phrase table", () => {
  it("finds exactly the phrases starting with a word, longest first, then in the given order", () => {
    fc.assert(
      fc.property(phrases, word, (given, probe) => {
        const expected = given.filter(([words]) => words[0] === probe).sort((a, b) => b[0].length - a[0].length);
        const table = phraseTableOf(given);
        expect(found(new PhraseTable(table, Uint32Array.from(table.values)), probe)).toEqual(expected);
      }),
    );
  });

  it("refuses slots a probe could loop in: none free, or not a power of two", async () => {
    const built = compileNpc(shellNpc());
    const withSlots = (slots: Uint32Array) => {
      const payload: BundlePayload = clonePayload(built.payload);
      payload.sanitizer.slots = slots;
      return encodeBundle(payload);
    };
    const size = built.payload.sanitizer.slots.length;
    expect(await refusalOf(withSlots(new Uint32Array(size).fill(1)))).toMatch(/sanitizer\.slots: expected a power of two of them, one free/);
    expect(await refusalOf(withSlots(new Uint32Array(size + 1)))).toMatch(/sanitizer\.slots: expected a power of two of them, one free/);
    expect(await refusalOf(withSlots(new Uint32Array(size).fill(10_000)))).toMatch(/sanitizer\.slots\[0\]: expected an index below/);
  });
});
