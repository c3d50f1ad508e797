// Format 13.0's word lists (runtime/bundle/word-lists.ts) and vocab phrase table: what the
// compiler writes is what a load reads back, and a table whose offsets, indexes or slots are wrong
// is refused at load, naming the field and what is wrong, whatever its hash.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle, wordListsOf } from "../../runtime/bundle/encode.js";
import type { BundlePayload, Segments } from "../../runtime/bundle/bundle-types.js";
import { decodeBundle } from "../../runtime/bundle/format.js";
import { WordLists } from "../../runtime/bundle/word-lists.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { clonePayload } from "../support/clone-payload.js";

const built = compileNpc(shellNpc());

/** The shell NPC's bundle after `edit` of a copy of its payload (valid header and hash). */
function edited(edit: (payload: BundlePayload) => void): Uint8Array {
  const payload = clonePayload(built.payload);
  edit(payload);
  return encodeBundle(payload);
}

const name = fc.string({ unit: "binary", maxLength: 10 });
const variant = fc.array(fc.string({ unit: "binary", maxLength: 12 }), { maxLength: 5 });
const lists = fc.uniqueArray(fc.tuple(name, fc.array(variant, { maxLength: 4 })), { selector: ([n]) => n, maxLength: 12 }).map((entries) => entries.sort((a, b) => (a[0] < b[0] ? -1 : 1)));

describe("word lists (format 13.0)", () => {
  it("round-trip any lists through a bundle: each name finds its variants, any other name none (property)", async () => {
    await fc.assert(
      fc.asyncProperty(lists, name, async (given, other) => {
        const bytes = edited((payload) => void (payload.wordLists = wordListsOf(given)));
        const loaded = new WordLists((await decodeBundle(bytes)).wordLists);
        for (const [listName, variants] of given) expect(loaded.get(listName)).toEqual(variants);
        if (!given.some(([listName]) => listName === other)) expect(loaded.get(other)).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it("refuses offsets that point past their table, run backwards or are one short", async () => {
    const some: [string, Segments[]][] = [["a", [["x", "b", "y"], ["z"]]], ["b", [["w"]]]];
    const with_ = (edit: (lists: ReturnType<typeof wordListsOf>) => void) =>
      edited((payload) => {
        payload.wordLists = wordListsOf(some);
        edit(payload.wordLists);
      });
    expect(await refusalOf(with_((l) => (l.variants = Uint32Array.of(0, 1, 9))))).toMatch(/wordLists\.variants: not from 0 to the number of items/);
    expect(await refusalOf(with_((l) => (l.variants = Uint32Array.of(0, 2))))).toMatch(/wordLists\.variants: not one per wordLists\.names and one more/);
    expect(await refusalOf(with_((l) => (l.variants = Uint32Array.of(0, 4, 3))))).toMatch(/wordLists\.variants: not ascending at 2/);
    expect(await refusalOf(with_((l) => (l.starts = Uint32Array.of(0, 3, 4, 7))))).toMatch(/wordLists\.starts: not from 0 to the number of items/);
    expect(await refusalOf(with_((l) => (l.starts = new Uint32Array(0))))).toMatch(/wordLists\.variants: not from 0 to the number of items/);
    expect(await refusalOf(with_((l) => (l.variants = Float64Array.of(0, 2, 3) as unknown as Uint32Array)))).toMatch(/wordLists\.variants: expected a Uint32Array section/);
  });
});

describe("vocab phrases (format 13.0)", () => {
  it("are the shell NPC's several-word synonyms, each with its tag", () => {
    const { phrases, phraseTags, tags } = built.payload.vocab;
    const found = Array.from({ length: phrases.length }, (_, i) => [phrases.at(i), tags[phraseTags[i]!]]);
    expect(found).toContainEqual(["tell me", "vocab_say"]);
  });

  it("refuses a tag index out of bounds, tags not one per phrase, and slots a probe could loop in", async () => {
    const { vocab } = built.payload;
    const size = vocab.slots.length;
    expect(await refusalOf(edited((p) => void p.vocab.phraseTags.fill(vocab.tags.length)))).toMatch(new RegExp(`vocab\\.phraseTags\\[0\\]: expected an index below ${vocab.tags.length}`));
    expect(await refusalOf(edited((p) => void (p.vocab.phraseTags = new Uint32Array(vocab.phraseTags.length + 1))))).toMatch(/vocab\.phraseTags: length differs from vocab\.phrases/);
    expect(await refusalOf(edited((p) => void (p.vocab.slots = new Uint32Array(size).fill(1))))).toMatch(/vocab\.slots: expected a power of two of them, one free/);
    expect(await refusalOf(edited((p) => void (p.vocab.slots = new Uint32Array(size + 1))))).toMatch(/vocab\.slots: expected a power of two of them, one free/);
    expect(await refusalOf(edited((p) => void (p.vocab.slots = new Uint32Array(size).fill(10_000))))).toMatch(/vocab\.slots\[0\]: expected an index below/);
  });
});
