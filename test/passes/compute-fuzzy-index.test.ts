// compute-fuzzy-index.ts on hand-built vocabularies: how many entries each word gets (its distinct
// deletion variants within its edit budget, counted in characters), that an entry names the word
// by its position in the vocabulary, and that the index holds the same (variant, word) pairs
// whatever order the vocabulary comes in. (test/runtime/fuzzy.test.ts checks the lookups.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeFuzzyIndex } from "../../compiler/passes/compute-fuzzy-index.js";
import type { BundleFuzzy } from "../../runtime/bundle/bundle-types.js";
import { hashString, MAX_TYPO_WORD_LENGTH } from "../../runtime/text/fuzzy.js";

/** Per word id: how many entries name it. */
function entriesPerWord(words: string[]): number[] {
  const counts = words.map(() => 0);
  for (const id of computeFuzzyIndex(words).words) counts[id]!++;
  return counts;
}

/** Word ids stored under the hash of `variant` in an index. */
function idsIn({ hashes, words: ids }: BundleFuzzy, variant: string): number[] {
  const hash = hashString(variant);
  return [...ids].filter((_, i) => hashes[i] === hash);
}

const idsUnder = (words: string[], variant: string): number[] => idsIn(computeFuzzyIndex(words), variant);

describe("computeFuzzyIndex", () => {
  it("stores a word's distinct deletion variants within its budget: none up to 3 characters, one deletion at 4, two from 5", () => {
    // disk: itself and 4 one-deletion variants; usage: itself, 5 and 10; tool: "tol" twice, stored once.
    expect(entriesPerWord(["cat", "disk", "usage", "tool"])).toEqual([0, 5, 16, 4]);
  });

  it("counts characters, not UTF-16 units, and leaves out words longer than the typo cap", () => {
    const longest = "abcdefghijklmnopqrstuvwx";
    expect(longest).toHaveLength(MAX_TYPO_WORD_LENGTH);
    // "ab🙂d" is 4 characters (5 code units): one deletion, never half an emoji.
    expect(entriesPerWord(["ab🙂d", longest, `${longest}y`])).toEqual([5, 1 + 24 + 276, 0]);
    expect(idsUnder(["ab🙂d"], "abd")).toEqual([0]);
    expect(idsUnder(["ab🙂d"], "ab\uD83D")).toEqual([]);
  });

  it("names a word by its position in the vocabulary, a skipped short word keeping its id", () => {
    const words = ["cat", "a", "show"];
    expect(new Set(computeFuzzyIndex(words).words)).toEqual(new Set([2]));
    expect(idsUnder(words, "how")).toEqual([2]);
    expect(idsUnder(words, "cat")).toEqual([]);
  });

  it("holds the same (variant, word) pairs in hash order whatever order the vocabulary is in, sharers in id order (property)", () => {
    const vocabulary = ["shows", "show", "shoe", "disk", "desk", "archive", "cat"];
    const pairs = (words: string[], { hashes, words: ids }: BundleFuzzy) => [...hashes].map((hash, i) => `${hash} ${words[ids[i]!]}`).sort();
    const expected = pairs(vocabulary, computeFuzzyIndex(vocabulary));
    fc.assert(
      fc.property(fc.shuffledSubarray(vocabulary, { minLength: vocabulary.length, maxLength: vocabulary.length }), (words) => {
        const built = computeFuzzyIndex(words);
        expect(built.hashes.every((hash, i) => i === 0 || hash >= built.hashes[i - 1]!)).toBe(true);
        expect(pairs(words, built)).toEqual(expected);
        // "sho" is a variant of shows (two deletions), show and shoe: their ids, ascending.
        expect(idsIn(built, "sho")).toEqual(["shows", "show", "shoe"].map((w) => words.indexOf(w)).sort((a, b) => a - b));
      }),
    );
  });
});
