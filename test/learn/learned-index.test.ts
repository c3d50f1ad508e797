// The learned stage's lookup of a message's features (runtime/match/match-learned.ts): the model's
// ascending hashes under a directory of their top bits (bucketStarts), and each token's features
// remembered (learned-readings.ts) giving what forEachFeature gives, in its order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BundleLearned } from "../../runtime/bundle/bundle-types.js";
import { conceptTable } from "../../compiler/learn/concept-table.js";
import { conceptFeature, FeatureCounts, featureWeight, featureWords, forEachFeature, normalizeBlocks, type ConceptTable } from "../../runtime/match/learned-features.js";
import { bucketStarts, LearnedIndex } from "../../runtime/match/match-learned.js";
import { tokenize } from "../../runtime/text/normalize.js";

const ascendingHashes = fc.uniqueArray(fc.oneof(fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xffffffff), fc.integer({ min: 0, max: 0xffffffff })), { maxLength: 300 }).map((hashes) => Uint32Array.from(hashes).sort());

/** "card" and "cards" one concept, "top" and "refund" another: "card" belongs to both. */
const CONCEPTS = conceptTable([
  { stems: ["card", "top"], weight: 0.9 },
  { stems: ["card", "refund"], weight: 0.9 },
])!;

/** A model that knows `hashes` (IDF bytes by `idf`) and weighs nothing: enough to see which features a message is found to have, and their values. */
function modelOf(hashes: Uint32Array, concepts: ConceptTable | null = null, idf: (i: number) => number = () => 16): LearnedIndex {
  const section: BundleLearned = {
    intents: [0],
    hashes,
    idf: Uint8Array.from(hashes, (_, i) => idf(i)),
    offsets: new Uint32Array(hashes.length + 1),
    classes: new Uint16Array(0),
    weights: new Uint8Array(0),
    scale: [1, 1],
    bias: [0, 0],
    conceptKeys: concepts?.keys ?? new Uint32Array(0),
    conceptOffsets: concepts?.offsets ?? new Uint32Array(1),
    conceptFeatures: concepts?.features ?? new Uint32Array(0),
  };
  return new LearnedIndex(section, 1);
}

function featuresOf(message: string, concepts: ConceptTable | null = null): number[] {
  const { tokens } = tokenize(message);
  const out: number[] = [];
  forEachFeature(tokens, featureWords(tokens), (hash) => out.push(hash), concepts);
  return out;
}

const words = fc.array(fc.constantFrom("card", "cards", '"cards"', "arrived", "top", "up", "pin", "lost", "x", "refund", "été", "a1", "42", "card card"), { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));

describe("the learned stage's feature lookup", () => {
  it("puts every value of an ascending array in the bucket of its top bits", () => {
    fc.assert(
      fc.property(ascendingHashes, fc.integer({ min: 1, max: 12 }), (sorted, bits) => {
        const starts = bucketStarts(sorted, bits);
        expect(starts).toHaveLength((1 << bits) + 1);
        expect([starts[0], starts[1 << bits]]).toEqual([0, sorted.length]);
        let ascending = true;
        for (let b = 0; b < 1 << bits; b++) ascending &&= starts[b]! <= starts[b + 1]!;
        expect(ascending).toBe(true);
        const misplaced = Array.from(sorted).filter((value, i) => i < starts[value >>> (32 - bits)]! || i >= starts[(value >>> (32 - bits)) + 1]!);
        expect(misplaced).toEqual([]);
      }),
      { numRuns: 300, seed: 14 },
    );
  });

  it("finds exactly the message's features the model has, at their index, whatever messages came before", () => {
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 4 }), fc.array(words, { minLength: 1, maxLength: 3 }), ascendingHashes, (known, messages, others) => {
        // The model: some messages' features and arbitrary other hashes (all of them distinct, ascending).
        const hashes = Uint32Array.from(new Set([...known.flatMap((m) => featuresOf(m)), ...others])).sort();
        const index = modelOf(hashes);
        for (const message of [...messages, ...known]) {
          const { tokens } = tokenize(message);
          const n = index.weigh(tokens);
          const want = [...new Set(featuresOf(message))].filter((h) => hashes.includes(h));
          expect(Array.from(index.foundHash.subarray(0, n))).toEqual(want);
          for (let i = 0; i < n; i++) expect(hashes[index.found[i]!]).toBe(index.foundHash[i]);
        }
      }),
      { numRuns: 200, seed: 14 },
    );
  });

  it("weighs a message as its features counted afresh would, concepts included, whatever messages came before", () => {
    const counts = new FeatureCounts();
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 4 }), fc.array(words, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 255 }), (known, messages, idfSeed) => {
        const hashes = Uint32Array.from(new Set([...known.flatMap((m) => featuresOf(m, CONCEPTS)), conceptFeature(0), conceptFeature(1)])).sort();
        const index = modelOf(hashes, CONCEPTS, (i) => 1 + ((i * idfSeed) % 255));
        for (const message of [...messages, ...known, ...messages]) {
          const { tokens } = tokenize(message);
          const n = index.weigh(tokens);
          // The reference: every feature counted by FeatureCounts, the model's kept in first-seen order, weighed and normalized.
          counts.count(tokens, featureWords(tokens), CONCEPTS);
          const kept = Array.from(counts.hashes.subarray(0, counts.size).keys()).filter((k) => hashes.includes(counts.hashes[k]!));
          const want = Float64Array.from(kept, (k) => featureWeight(counts.counts[k]!, index.idf[hashes.indexOf(counts.hashes[k]!)]!));
          normalizeBlocks(Uint32Array.from(kept, (k) => counts.hashes[k]!), want, 0, want.length);
          expect(Array.from(index.foundHash.subarray(0, n))).toEqual(kept.map((k) => counts.hashes[k]));
          expect(Array.from(index.values.subarray(0, n))).toEqual(Array.from(want));
        }
      }),
      { numRuns: 200, seed: 14 },
    );
  });
});
