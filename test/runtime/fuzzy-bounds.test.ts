// Issue 13 item 4: typo lookup of a long word built every two-deletion variant of it (a
// 480-letter word: 122,000 variants of ~480 characters, seconds of work). The work of one lookup
// is measured here as reads of the index's bucket starts (each variant's hash costs two, then a
// binary search of its one bucket), so the bound does not depend on the machine's speed.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { computeFuzzyIndex } from "../../compiler/passes/compute-fuzzy-index.js";
import { FuzzyIndex, MAX_TYPO_WORD_LENGTH } from "../../runtime/text/fuzzy.js";
import { stringTableOf } from "../../runtime/bundle/encode.js";

const LONGEST = "abcdefghijklmnopqrstuvwx"; // 24 letters, all different: the most variants a word can have
const words = ["archive", "directory", "show", LONGEST];

/** An index over `words` that counts the reads of its bucket starts. */
function countingIndex(): { index: FuzzyIndex; reads: () => number } {
  const built = computeFuzzyIndex(words);
  let reads = 0;
  const buckets = new Proxy(built.buckets, {
    get(target, key) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key);
    },
  });
  return { index: new FuzzyIndex({ ...built, buckets }, stringTableOf(words)), reads: () => reads };
}

/**
 * Most reads one lookup of a word within the cap may take: its variants (the word, 24 one-deletion
 * and 276 two-deletion ones) each read where their bucket starts and ends.
 */
function readBound(): number {
  const n = MAX_TYPO_WORD_LENGTH;
  return (1 + n + (n * (n - 1)) / 2) * 2;
}

describe("typo lookup work is bounded per word", () => {
  it(`corrects words up to ${MAX_TYPO_WORD_LENGTH} characters`, () => {
    const { index, reads } = countingIndex();
    expect(index.lookup("bacdefghijklmnopqrstuvwx").map((hit) => words[hit.word])).toEqual([LONGEST]);
    expect(reads()).toBe(readBound()); // a word of the longest corrected length takes the bound exactly
    expect(index.lookup("dirctory").map((hit) => words[hit.word])).toEqual(["directory"]);
  });

  it("reads a word over the cap as typed: no corrections and no index reads", () => {
    const { index, reads } = countingIndex();
    expect(index.lookup(`${LONGEST}y`)).toEqual([]);
    expect(index.lookup("abcdefghijklmnopqrstuvwxyz".repeat(19).slice(0, 480))).toEqual([]);
    expect(reads()).toBe(0);
  });

  it("never reads the bucket starts more often than a lookup of the longest corrected word does (property)", () => {
    const bound = readBound();
    const letters = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789é🙂");
    const word = fc.oneof(
      fc.array(letters, { minLength: 1, maxLength: 40, size: "max" }),
      fc.array(letters, { minLength: 41, maxLength: 600, size: "max" }),
    );
    fc.assert(
      fc.property(word, (chars) => {
        const { index, reads } = countingIndex();
        index.lookup(chars.join(""));
        expect(reads()).toBeLessThanOrEqual(bound);
      }),
      { numRuns: 200, seed: 13 },
    );
  });
});
