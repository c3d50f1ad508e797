import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { computeFuzzyIndex } from "../../compiler/passes/compute-fuzzy-index.js";
import { deletionVariants, editBudget, FuzzyIndex, hashString, osaDistance } from "../../runtime/text/fuzzy.js";
import { stringTableOf } from "../../runtime/bundle/encode.js";

const words = ["archive", "backup", "cat", "directory", "disk", "download", "show", "usage"];
const index = (() => {
  const built = computeFuzzyIndex(words);
  return new FuzzyIndex(built.hashes, built.words, stringTableOf(words));
})();

describe("fuzzy index", () => {
  it("grows the edit budget with word length", () => {
    expect([3, 4, 5, 8, 12].map(editBudget)).toEqual([0, 1, 2, 2, 2]);
  });

  it("finds transpositions, insertions, deletions and substitutions within the budget", () => {
    const found = (token: string) => index.lookup(token).map((h) => words[h.word]);
    expect(found("shwo")).toEqual(["show"]);
    expect(found("usgae")).toEqual(["usage"]);
    expect(found("diks")).toEqual(["disk"]);
    expect(found("dirctroy")).toEqual(["directory"]);
    expect(found("cta")).toEqual([]); // 3 letters: no typo tolerance
    expect(found("arhcvie")).toEqual(["archive"]); // 7 letters: two edits (the generous budget)
    expect(found("shoe")).toEqual(["show"]);
    expect(found("xxxx")).toEqual([]);
  });

  it("gives each correction its similarity, 1 − edits / the longer length in characters (an emoji is one)", () => {
    expect(index.lookup("shwo")).toEqual([{ word: words.indexOf("show"), distance: 1, similarity: 0.75 }]);
    const withEmoji = ["disk🙂"];
    const built = computeFuzzyIndex(withEmoji);
    const emojiIndex = new FuzzyIndex(built.hashes, built.words, stringTableOf(withEmoji));
    expect(emojiIndex.lookup("dsik🙂")).toEqual([{ word: 0, distance: 1, similarity: 0.8 }]);
  });

  it("returns exactly the words a scan with the OSA distance would", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,10}$/), (token) => {
        const expected = words
          .map((w, id) => ({ word: id, distance: osaDistance(token, w, 5), similarity: 1 - osaDistance(token, w, 5) / Math.max(token.length, w.length) }))
          .filter((h) => h.distance > 0 && h.distance <= Math.min(editBudget(token.length), editBudget(words[h.word]!.length)))
          .sort((a, b) => a.distance - b.distance || a.word - b.word);
        expect(index.lookup(token)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("holds every deletion variant's (hash, word) pair, sorted by hash and then word, for any vocabulary (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 0, maxLength: 9 }), { maxLength: 40 }), (vocabulary) => {
        const pairs = vocabulary.flatMap((word, id) => {
          const budget = editBudget(Array.from(word).length);
          return budget === 0 ? [] : [...deletionVariants(word, budget)].map((variant) => [hashString(variant), id] as const);
        });
        pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const built = computeFuzzyIndex(vocabulary);
        expect([...built.hashes]).toEqual(pairs.map((p) => p[0]));
        expect([...built.words]).toEqual(pairs.map((p) => p[1]));
      }),
      { numRuns: 300 },
    );
  });
});
