// Format 7.0's string tables (runtime/bundle/string-table.ts): what the compiler writes is what a
// load reads back, a lookup finds every string and nothing else, and a table whose offsets or
// bytes are wrong is refused at load, naming the table and what is wrong, whatever its hash.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle, stringTableOf } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { decodeBundle } from "../../runtime/bundle/format.js";
import { StringTable, stringsOf } from "../../runtime/bundle/string-table.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { clonePayload } from "../support/clone-payload.js";

const built = compileNpc(shellNpc());

/** The shell NPC's bundle with its lexicon words replaced by `table` (valid header and hash). */
function withWords(table: StringTable): Uint8Array {
  const payload: BundlePayload = clonePayload(built.payload);
  payload.lexicon.words = table;
  return encodeBundle(payload);
}

/** The lexicon words' own bytes and offsets, copied, for editing. */
function wordsParts(): { bytes: Uint8Array; starts: Uint32Array } {
  const { bytes, starts } = built.payload.lexicon.words;
  return { bytes: bytes.slice(), starts: starts.slice() };
}

describe("string tables", () => {
  it("round-trip any strings through a bundle, and find each one by binary search (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ unit: "binary", maxLength: 12 }), { maxLength: 40 }), fc.string({ unit: "binary", maxLength: 12 }), async (words, other) => {
        const sorted = [...words].sort();
        const payload = clonePayload(built.payload);
        payload.messageTables.actionWords = stringTableOf(sorted);
        const loaded = (await decodeBundle(encodeBundle(payload))).messageTables.actionWords;
        expect(stringsOf(loaded)).toEqual(sorted);
        sorted.forEach((word, i) => expect(loaded.get(word)).toBe(i));
        expect(loaded.has(other)).toBe(sorted.includes(other));
      }),
      { numRuns: 60 },
    );
  });

  it("make no string of a table at load, and decode a string once, on first read", async () => {
    const { lexicon } = await decodeBundle(built.bytes);
    const first = lexicon.words.at(0);
    expect(first).toBe(built.payload.lexicon.words.at(0));
    expect(lexicon.words.at(0)).toBe(first);
    expect(lexicon.words.get(first)).toBe(0);
    expect(lexicon.words.get(`${first}\u0000`)).toBeUndefined();
  });

  it("refuse offsets that do not start at 0, run past the bytes, go backwards or stop short of the end", async () => {
    const notFromZero = wordsParts();
    notFromZero.starts[0] = 1;
    expect(await refusalOf(withWords(new StringTable(notFromZero.bytes, notFromZero.starts)))).toMatch(/lexicon\.words: the first offset is not 0$/);
    const past = wordsParts();
    past.starts[2] = past.bytes.length + 5;
    expect(await refusalOf(withWords(new StringTable(past.bytes, past.starts)))).toMatch(new RegExp(`lexicon\\.words: offset 2 \\(${past.bytes.length + 5}\\) is past the ${past.bytes.length} bytes of the strings$`));
    const backwards = wordsParts();
    [backwards.starts[2], backwards.starts[3]] = [backwards.starts[3]!, backwards.starts[2]!];
    expect(await refusalOf(withWords(new StringTable(backwards.bytes, backwards.starts)))).toMatch(/lexicon\.words: offset 3 \(\d+\) is below the one before it$/);
    const short = wordsParts();
    expect(await refusalOf(withWords(new StringTable(short.bytes, short.starts.subarray(0, short.starts.length - 1))))).toMatch(/lexicon\.words: the last offset is not the end of the \d+ bytes of the strings$/);
    expect(await refusalOf(withWords(new StringTable(new Uint8Array(0), new Uint32Array(0))))).toMatch(/lexicon\.words: the first offset is not 0$/);
  });

  it("refuse bytes that are not UTF-8, and an offset inside a character", async () => {
    const invalid = wordsParts();
    invalid.bytes[invalid.starts[1]! - 1] = 0xff;
    expect(await refusalOf(withWords(new StringTable(invalid.bytes, invalid.starts)))).toMatch(/lexicon\.words: the strings are not valid UTF-8$/);
    const split = stringTableOf(["é", "ü"]); // two bytes each: an offset of 1 falls inside "é"
    expect(await refusalOf(withWords(new StringTable(split.bytes, Uint32Array.of(0, 1, 4))))).toMatch(/lexicon\.words: offset 1 \(1\) falls inside a UTF-8 character$/);
  });

  it("refuse a table of the wrong kind, and a plain list where a table belongs", async () => {
    const { bytes, starts } = wordsParts();
    expect(await refusalOf(withWords(new StringTable(bytes, new Uint16Array(starts) as unknown as Uint32Array)))).toMatch(/lexicon\.words: expected a Uint8Array of UTF-8 and a Uint32Array of offsets$/);
    const payload = clonePayload(built.payload);
    (payload.exact as unknown as { keys: string[] }).keys = stringsOf(built.payload.exact.keys);
    expect(await refusalOf(encodeBundle(payload))).toMatch(/exact\.keys: expected a string table$/);
  });
});
