// The learned stage's reading of a message's words (runtime/match/learned-spelling.ts): remembered
// per model, so a reading must be what a fresh reading gives, whatever messages and thresholds came before.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FuzzyHit } from "../../runtime/text/fuzzy.js";
import { Spellings, type KnownWords } from "../../runtime/match/learned-spelling.js";
import { tokenize } from "../../runtime/text/normalize.js";

const VOCABULARY = ["card", "cart", "top", "pin", "refund", "lost"];

/** A vocabulary whose corrections of an unknown word are the words of its length, by how many letters differ. */
const words: KnownWords = {
  id: (norm) => (VOCABULARY.includes(norm) ? VOCABULARY.indexOf(norm) : undefined),
  word: (id) => VOCABULARY[id]!,
  correctedLoosely: (norm): FuzzyHit[] =>
    VOCABULARY.flatMap((w, id) => {
      if (w.length !== norm.length) return [];
      const distance = [...w].filter((c, i) => c !== norm[i]).length;
      return distance <= 2 ? [{ word: id, distance, similarity: 1 - distance / w.length }] : [];
    }).sort((a, b) => a.distance - b.distance),
};

describe("the learned stage's spellings", () => {
  it("read a message as a fresh reading does, whatever was read before and at whatever threshold", () => {
    const word = fc.constantFrom("card", "cerd", "carx", "cort", "tap", "pin", "pon", "rfund", "lsot", "xyz", "42");
    const message = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
    const threshold = fc.constantFrom(0.5, 0.7, 0.75, 0.9);
    const spellings = new Spellings();
    fc.assert(
      fc.property(fc.array(fc.tuple(message, threshold), { minLength: 1, maxLength: 5 }), (reads) => {
        for (const [text, t] of reads) {
          const { tokens } = tokenize(text);
          expect(spellings.corrected(tokens, words, t).map((k) => k.norm)).toEqual(new Spellings().corrected(tokens, words, t).map((k) => k.norm));
        }
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it("replace an unknown word by its single closest correction, and keep a word with two equally close ones", () => {
    const read = (text: string) => new Spellings().corrected(tokenize(text).tokens, words, 0.7).map((t) => t.norm);
    expect(read("cerd lsot 42")).toEqual(["card", "lsot", "42"]);
    expect(read("carx")).toEqual(["carx"]);
    const { tokens } = tokenize("top pin");
    expect(new Spellings().corrected(tokens, words, 0.7)).toBe(tokens);
  });
});
