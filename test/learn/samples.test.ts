// The learned stage's training rows (compiler/learn/samples.ts): the feature space is every hash at
// least two phrasings use, ascending, with its IDF byte; each row lists its phrasing's kept
// features in the order the runtime's extractor first sees them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { featurize } from "../../compiler/learn/samples.js";
import { FeatureCounts, idfByte } from "../../runtime/match/learned-features.js";
import { tokenize } from "../../runtime/text/normalize.js";

const word = fc.constantFrom("card", "cards", "top", "up", "my", "account", "blocked", "pin", "why", "is", "the", "transfer", "refund");
const phrasing = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));

/** 4,000 phrasings of made-up words (a fixed linear congruential sequence): more distinct features than the counting table starts with. */
function madeUpPhrasings(): string[] {
  let s = 5;
  const next = (bound: number): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % bound;
  };
  const madeUpWord = (): string => Array.from({ length: 4 + next(6) }, () => "abcdefghijklmnopqrstuvwxyz"[next(26)]).join("");
  return Array.from({ length: 4000 }, () => Array.from({ length: 3 + next(3) }, madeUpWord).join(" "));
}

/** Checks featurize against its definition; returns how many distinct features the phrasings have. */
function checkFeaturize(texts: readonly string[]): number {
  const samples = texts.map((text, i) => ({ tokens: tokenize(text).tokens, label: i % 3 }));
  const { space, rows } = featurize(samples);
  const counter = new FeatureCounts();
  const perSample = samples.map((s) => [...counter.count(s.tokens).hashes.subarray(0, counter.size)]);
  const df = new Map<number, number>();
  for (const hashes of perSample) for (const h of hashes) df.set(h, (df.get(h) ?? 0) + 1);
  const expected = [...df]
    .filter(([, d]) => d >= 2)
    .map(([h]) => h)
    .sort((a, b) => a - b);
  expect([...space.hashes]).toEqual(expected);
  expect([...space.idf]).toEqual(expected.map((h) => idfByte(df.get(h)!, samples.length)));
  perSample.forEach((hashes, i) => {
    const listed = [...rows.features.subarray(rows.offsets[i]!, rows.offsets[i + 1]!)].map((f) => space.hashes[f]);
    expect(listed).toEqual(hashes.filter((h) => df.get(h)! >= 2));
  });
  expect([...rows.labels]).toEqual(samples.map((s) => s.label));
  return df.size;
}

describe("featurize", () => {
  it("keeps the hashes two or more phrasings use, ascending, and lists each phrasing's in first-seen order", () => {
    fc.assert(
      fc.property(fc.array(phrasing, { minLength: 1, maxLength: 30 }), (texts) => void checkFeaturize(texts)),
      { numRuns: 50 },
    );
  });

  it("does the same past 32,768 distinct features", () => {
    expect(checkFeaturize(madeUpPhrasings())).toBeGreaterThan(32_768);
  });
});
