import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { computeFuzzyIndex } from "../../compiler/passes/compute-fuzzy-index.js";
import { deletionVariants, editBudget, FuzzyIndex, hashString, osaDistance } from "../../runtime/text/fuzzy.js";
import { stringTableOf } from "../../runtime/bundle/encode.js";

const words = ["archive", "backup", "cat", "directory", "disk", "download", "show", "usage"];
const index = (() => {
  const built = computeFuzzyIndex(words);
  return new FuzzyIndex(built, stringTableOf(words));
})();

/** The full OSA table (every cell, code points): the distance osaDistance must give within its limit. */
function fullOsa(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

const length = (text: string) => Array.from(text).length;

/** What a lookup of `token` must find: a scan of the whole vocabulary with the OSA distance, closest first, then by word id. */
function scanned(vocabulary: readonly string[], token: string) {
  return vocabulary
    .map((w, id) => ({ word: id, distance: osaDistance(token, w, 5), similarity: 1 - osaDistance(token, w, 5) / Math.max(length(token), length(w)) }))
    .filter((h) => h.distance > 0 && h.distance <= Math.min(editBudget(length(token)), editBudget(length(vocabulary[h.word]!))))
    .sort((a, b) => a.distance - b.distance || a.word - b.word);
}

describe("osaDistance", () => {
  it("is the full table's distance within the limit, and more than the limit beyond it (property)", () => {
    const text = fc.array(fc.constantFrom(..."abcd🙂"), { maxLength: 9 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        const full = fullOsa(a, b);
        const distance = osaDistance(a, b, limit);
        if (full <= limit) expect(distance).toBe(full);
        else expect(distance).toBeGreaterThan(limit);
      }),
      { numRuns: 2000 },
    );
  });
});

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
    const emojiIndex = new FuzzyIndex(built, stringTableOf(withEmoji));
    expect(emojiIndex.lookup("dsik🙂")).toEqual([{ word: 0, distance: 1, similarity: 0.8 }]);
  });

  it("finds words whose variants hash on either side of 2^31 (the lookup reads the u32 hashes as int32)", () => {
    const vocabulary = Array.from({ length: 200 }, (_, i) => `word${i.toString(36)}x`);
    const built = computeFuzzyIndex(vocabulary);
    // Both halves of the u32 range are stored, so the search's sign-bit flip is exercised.
    expect(built.hashes.some((h) => h >= 2 ** 31)).toBe(true);
    expect(built.hashes.some((h) => h < 2 ** 31)).toBe(true);
    const vocabularyIndex = new FuzzyIndex(built, stringTableOf(vocabulary));
    for (const [i, word] of vocabulary.entries()) {
      const typo = word.slice(0, 1) + word.slice(2); // one deletion
      expect(vocabularyIndex.lookup(typo).map((h) => h.word)).toContain(i);
    }
  });

  it("returns exactly the words a scan with the OSA distance would, astral characters too (property)", () => {
    // Variant hashes continue their prefix's state (fuzzy.ts): a character of two code units must be deleted whole.
    const vocabulary = [...words, "disk🙂", "🙂show", "us🙂🙂age"];
    const built = computeFuzzyIndex(vocabulary);
    const astral = new FuzzyIndex(built, stringTableOf(vocabulary));
    const letter = fc.constantFrom(..."abcdegiknorsuwy🙂é");
    // A vocabulary word with up to three edits at random characters: deleted, replaced, or a letter put before.
    const edit = fc.tuple(fc.nat(), fc.constantFrom("delete", "replace", "insert"), letter);
    const typo = fc.tuple(fc.constantFrom(...vocabulary), fc.array(edit, { maxLength: 3 })).map(([word, edits]) => {
      const chars = Array.from(word);
      for (const [at, kind, added] of edits) chars.splice(at % (chars.length + 1), kind === "insert" ? 0 : 1, ...(kind === "delete" ? [] : [added]));
      return chars.join("");
    });
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[a-z]{1,10}$/), typo), (token) => {
        expect(astral.lookup(token)).toEqual(scanned(vocabulary, token));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps each hash in the bucket of its top bits: a power of two of buckets, 8 to 16 hashes each on average (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{4,9}$/), { maxLength: 120 }), (vocabulary) => {
        const { hashes, buckets } = computeFuzzyIndex(vocabulary);
        const count = buckets.length - 1;
        expect(count >= 2 && (count & (count - 1)) === 0).toBe(true);
        if (hashes.length >= 32) expect(hashes.length / count).toSatisfy((average: number) => average >= 8 && average < 16);
        else expect(count).toBe(2);
        const shift = 32 - Math.log2(count);
        expect(buckets[0]).toBe(0);
        expect(buckets[count]).toBe(hashes.length);
        hashes.forEach((hash, i) => {
          const bucket = hash >>> shift;
          expect(buckets[bucket]! <= i && i < buckets[bucket + 1]!).toBe(true);
        });
      }),
      { numRuns: 100 },
    );
  });

  it("finds in an index of many buckets exactly the words a scan finds (property)", () => {
    // 600 words of 5 to 8 letters: about 20,000 hashes in 2,048 buckets.
    const vocabulary = Array.from({ length: 600 }, (_, i) => `${"bcdfgklmnprstvz"[i % 15]}${"aeiou"[i % 5]}${(i * 7919).toString(36)}`.slice(0, 5 + (i % 4)));
    const unique = [...new Set(vocabulary)];
    const built = computeFuzzyIndex(unique);
    expect(built.buckets.length - 1).toBeGreaterThanOrEqual(1024);
    const bucketed = new FuzzyIndex(built, stringTableOf(unique));
    const typo = fc.tuple(fc.constantFrom(...unique), fc.nat(), fc.constantFrom(..."aeklrstz")).map(([word, at, letter]) => {
      const chars = Array.from(word);
      chars.splice(at % chars.length, at % 2, letter); // replaced, or a letter put before
      return chars.join("");
    });
    fc.assert(
      fc.property(fc.oneof(typo, fc.stringMatching(/^[a-z]{4,8}$/)), (token) => {
        expect(bucketed.lookup(token)).toEqual(scanned(unique, token));
      }),
      { numRuns: 300 },
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
