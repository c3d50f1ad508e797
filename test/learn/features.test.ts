// The learned stage's feature extraction (runtime/match/learned-features.ts), shared by the trainer and
// the runtime: the reusable counting table must count exactly what a plain map counts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { featureText } from "../../runtime/match/learned-evidence.js";
import { addFeatureWeights, CHAR_BLOCK, FeatureCounts, featureWeight, featureWords, forEachFeature, normalizeBlocks, packedWeight, WORD_BLOCK } from "../../runtime/match/learned-features.js";
import { tokenize } from "../../runtime/text/normalize.js";

function naive(message: string): Map<number, number> {
  const { tokens } = tokenize(message);
  const out = new Map<number, number>();
  forEachFeature(tokens, featureWords(tokens), (hash) => out.set(hash, (out.get(hash) ?? 0) + 1));
  return out;
}

describe("learned features", () => {
  it("adds a feature's packed weights to each class's sum exactly as one weight at a time does", () => {
    // A feature's weights: distinct classes (as the bundle has them), int8 values, any count.
    const feature = fc.uniqueArray(fc.integer({ min: 0, max: 299 }), { maxLength: 40 }).chain((classes) =>
      fc.tuple(fc.constant(classes), fc.array(fc.integer({ min: -127, max: 127 }), { minLength: classes.length, maxLength: classes.length }), fc.double({ min: 0, max: 1, noNaN: true })),
    );
    fc.assert(
      fc.property(fc.array(feature, { minLength: 1, maxLength: 6 }), (features) => {
        const offsets = new Int32Array(features.length + 1);
        features.forEach(([classes], f) => (offsets[f + 1] = offsets[f]! + classes.length));
        const weights = Int32Array.from(features.flatMap(([classes, qs]) => classes.map((c, j) => packedWeight(c, qs[j]!))));
        const got = new Float64Array(300);
        const want = new Float64Array(300);
        features.forEach(([classes, qs, value], f) => {
          addFeatureWeights(got, offsets, weights, f, value);
          classes.forEach((c, j) => (want[c]! += qs[j]! * value));
        });
        expect(got).toEqual(want);
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it("weighs a feature seen once by its IDF alone, and more often sublinearly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffff }), fc.integer({ min: 1, max: 255 }), (count, idf) => {
        expect(featureWeight(count, idf)).toBe((1 + Math.log(count)) * (idf / 16));
      }),
      { seed: 14 },
    );
  });

  it("counts each distinct feature once, whatever messages came before (the table is reused)", () => {
    const counts = new FeatureCounts();
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { minLength: 1, maxLength: 4 }), (messages) => {
        for (const message of messages) {
          counts.count(tokenize(message).tokens);
          const got = new Map<number, number>();
          for (let i = 0; i < counts.size; i++) got.set(counts.hashes[i]!, counts.counts[i]!);
          expect(got).toEqual(naive(message));
        }
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it("names stems, stem pairs and character n-grams of the padded word, each in its block", () => {
    const { tokens } = tokenize("cards arrived");
    const words = featureWords(tokens);
    const seen: string[] = [];
    forEachFeature(tokens, words, (hash, token, start, length) => {
      const text = featureText(tokens, words, { token, start, length });
      seen.push(text);
      expect(hash & 1, text).toBe(text.startsWith("w:") ? WORD_BLOCK : CHAR_BLOCK);
    });
    expect(seen).toContain("w:card");
    expect(seen).toContain("w:card arriv");
    expect(seen).toContain("c: ca");
    expect(seen).toContain("c:ards ");
    expect(seen.filter((t) => t.startsWith("c:") && t.length - 2 > 5)).toEqual([]);
  });

  it("normalizes words and characters each to unit length", () => {
    const values = Float64Array.from([3, 4, 1, 1]);
    normalizeBlocks([WORD_BLOCK, WORD_BLOCK, CHAR_BLOCK, CHAR_BLOCK], values, 0, 4);
    [0.6, 0.8, Math.SQRT1_2, Math.SQRT1_2].forEach((v, i) => expect(values[i]).toBeCloseTo(v, 12));
  });
});
