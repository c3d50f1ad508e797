// The features of a message for the learned stage (runtime/match/match-learned.ts). The compiler's
// trainer (compiler/learn/) extracts its training phrasings' features with this very module, so
// build time and run time cannot disagree. Features are 32-bit FNV-1a hashes, no strings:
//   - words: the Porter stem of each word (a literal keeps its text), and each pair of neighbours;
//   - concepts: for a word whose stem belongs to a concept (a dataset synonym set;
//     compiler/passes/compute-concepts.ts), one feature per concept, the same for every
//     member, so "gag" reaches what was learned from "joke". The bundle's ConceptTable says which;
//   - characters: the 3-, 4- and 5-grams inside each normalized token padded with spaces (" card ").
// The lowest bit of a hash is its block (WORD_BLOCK, CHAR_BLOCK): each block is TF-IDF weighted
// (tf = 1 + ln count) and L2-normalized on its own, so long words do not drown the word features.

import type { Token } from "../text/normalize.js";
import { FNV_OFFSET, FNV_PRIME, fnv1a, hashString } from "../text/fuzzy.js";
import { lowerBound } from "./sorted.js";
import { stem } from "../text/stem.js";

export const WORD_BLOCK = 0;
export const CHAR_BLOCK = 1;
const CHAR_MIN = 3;
const CHAR_MAX = 5;
/** Seeds keep a word feature and a character n-gram of the same text apart. */
const CHAR_SEED = 0x2545f491;
const SPACE = 32;
const CONCEPT_SEED = 0x5bd1e995;
/** FeatureOrigin.start of a concept feature (a word is −1, a pair −2). */
export const CONCEPT_START = -3;
/**
 * Distinct features kept of one message (the trainer's FeatureCounts) and distinct known features
 * (LearnedIndex); the rest are ignored (a 500-character message has about 1,400).
 */
export const MAX_FEATURES = 4096;
/** IDF values are stored in 1/IDF_STEPS steps (one byte per feature). */
export const IDF_STEPS = 16;

function withBlock(h: number, block: number): number {
  return ((h & ~1) | block) >>> 0;
}

/** The feature of concept `id`: a word-block hash of its own seed (no word hashes like it but by chance). */
export function conceptFeature(id: number): number {
  return withBlock(Math.imul(Math.imul(CONCEPT_SEED ^ (id & 0xffff), FNV_PRIME) ^ (id >>> 16), FNV_PRIME), WORD_BLOCK);
}

/** The hash a word's concepts are looked up by: FNV-1a of its featureWords form (its word feature before the block bit). */
export function conceptKey(word: string): number {
  return hashString(word);
}

/**
 * Which concepts a word belongs to: `keys` (conceptKey of member stems, ascending and distinct),
 * `offsets` (per key and one more, into `features`) and `features` (conceptFeature of each of the
 * key's concepts). Looked up by binary search, once per word of a message.
 */
export class ConceptTable {
  constructor(
    readonly keys: Uint32Array,
    readonly offsets: Uint32Array,
    readonly features: Uint32Array,
  ) {
    // The bundle validator checks only that these are u32 arrays: the rest is checked here, in the learned stage's chunk.
    const bad = (problem: string) => {
      throw new Error(`learned.concept${problem}`);
    };
    for (let i = 1; i < keys.length; i++) if (keys[i - 1]! >= keys[i]!) bad(`Keys: not ascending at ${i}`);
    if (offsets.length !== keys.length + 1) bad("Offsets: not one per concept key, and one more");
    if (offsets[0] !== 0 || offsets[keys.length] !== features.length) bad("Offsets: not from 0 to the number of concept features");
    for (let i = 1; i < offsets.length; i++) if (offsets[i - 1]! > offsets[i]!) bad(`Offsets: not ascending at ${i}`);
  }

  /** Calls `add(feature, token, CONCEPT_START, 1)` for each concept of the word keyed `key`. */
  forEach(key: number, token: number, add: AddFeature): void {
    const at = lowerBound(this.keys, key);
    if (at === this.keys.length || this.keys[at] !== key) return;
    for (let p = this.offsets[at]!; p < this.offsets[at + 1]!; p++) add(this.features[p]!, token, CONCEPT_START, 1);
  }
}

/** The word-block form of each token: the stem of a word (by `stemOf`, stem.ts's or a cache of it), the text of a literal or quoted value. */
export function featureWords(tokens: readonly Token[], stemOf: (word: string) => string = stem): string[] {
  return tokens.map((t) => (t.kind === "word" ? stemOf(t.norm) : t.norm));
}

/** What forEachFeature and its parts call per feature occurrence: its hash, token, and FeatureOrigin's start and length. */
export type AddFeature = (hash: number, token: number, start: number, length: number) => void;

/**
 * Calls `add(hash, token, start, length)` for every feature occurrence of the tokens (a feature
 * seen twice is added twice). `words` is featureWords(tokens); without `concepts`, no concept features.
 */
export function forEachFeature(tokens: readonly Token[], words: readonly string[], add: AddFeature, concepts: ConceptTable | null = null): void {
  for (let t = 0; t < words.length; t++) {
    const h = forEachWordFeature(words[t]!, t, add, concepts);
    if (t + 1 < words.length) add(pairFeature(h, words[t + 1]!), t, -2, 2);
  }
  for (let t = 0; t < tokens.length; t++) forEachCharFeature(tokens[t]!.norm, t, add);
}

/**
 * Adds token t's word feature (`word`, its featureWords form) and its concepts; returns the word's
 * FNV-1a state, which pairFeature continues with the next word.
 */
export function forEachWordFeature(word: string, t: number, add: AddFeature, concepts: ConceptTable | null): number {
  const h = fnv1a(FNV_OFFSET, word);
  add(withBlock(h, WORD_BLOCK), t, -1, 1);
  concepts?.forEach(h >>> 0, t, add);
  return h;
}

/** The feature of a word (its FNV-1a state `h`, as forEachWordFeature returns it) and the next one. */
export function pairFeature(h: number, next: string): number {
  return withBlock(fnv1a(Math.imul(h ^ SPACE, FNV_PRIME), next), WORD_BLOCK);
}

/** Adds the character n-grams of token t (its normalized form `norm`), in order. */
export function forEachCharFeature(norm: string, t: number, add: AddFeature): void {
  // The padded token " norm ", read without building it: position p is a space at both ends.
  const padded = norm.length + 2;
  for (let start = 0; start + CHAR_MIN <= padded; start++) {
    let h = CHAR_SEED;
    for (let n = 1; n <= CHAR_MAX && start + n <= padded; n++) {
      const p = start + n - 1;
      h = Math.imul(h ^ (p === 0 || p === padded - 1 ? SPACE : norm.charCodeAt(p - 1)), FNV_PRIME);
      if (n >= CHAR_MIN) add(withBlock(h, CHAR_BLOCK), t, start, n);
    }
  }
}

/**
 * Open addressing over an Int32Array of slots `stride` ints wide: a slot's first int is its key
 * (a feature hash as int32), its second 1 + the entry's index (0: free), any others the table's
 * own. The learned stage's feature table, FeatureCounts and the trainer's hash ids (compiler/
 * learn/samples.ts) share it; keeping the key in the slot makes a probe one cache line, not one
 * there and one in a key array. `mask` + 1 (the slots) is a power of two above the entries.
 * Returns where `hash` is, or the free slot where it goes.
 */
export function slotFor(slots: Int32Array, stride: number, mask: number, hash: number): number {
  const key = hash | 0;
  // The first slot: the high bits folded into the low ones the mask keeps.
  let slot = (hash ^ (hash >>> 15)) & mask;
  while (slots[slot * stride + 1] !== 0 && slots[slot * stride] !== key) slot = (slot + 1) & mask;
  return slot;
}

/**
 * A message's distinct features and their counts, in the order first seen. Reused from message to
 * message (slotFor's table, two ints a slot): counting allocates nothing.
 */
export class FeatureCounts {
  readonly hashes = new Uint32Array(MAX_FEATURES);
  readonly counts = new Uint16Array(MAX_FEATURES);
  size = 0;
  private readonly slots = new Int32Array(MAX_FEATURES * 4);
  private readonly mask = MAX_FEATURES * 2 - 1;
  /** Bound once: forEachFeature calls it per occurrence. */
  readonly add = (hash: number): void => {
    const slot = 2 * slotFor(this.slots, 2, this.mask, hash);
    const at = this.slots[slot + 1]!;
    if (at !== 0) {
      if (this.counts[at - 1]! < 0xffff) this.counts[at - 1]!++;
      return;
    }
    if (this.size === MAX_FEATURES) return;
    this.hashes[this.size] = hash;
    this.counts[this.size] = 1;
    this.slots[slot] = hash | 0;
    this.slots[slot + 1] = ++this.size;
  };

  /** Counts the features of `tokens`, replacing what was counted before. */
  count(tokens: readonly Token[], words: readonly string[] = featureWords(tokens), concepts: ConceptTable | null = null): this {
    this.clear();
    forEachFeature(tokens, words, this.add, concepts);
    return this;
  }

  /** Frees the slots of the features counted, newest first: each one's probe chain (over older entries only) still stands when it is found. */
  clear(): void {
    for (let i = this.size - 1; i >= 0; i--) this.slots[2 * slotFor(this.slots, 2, this.mask, this.hashes[i]!) + 1] = 0;
    this.size = 0;
  }
}

/** A weight as the scoring loop reads it: its class << 8 | its int8 value (given as int8 or as its byte). */
export function packedWeight(classIndex: number, q: number): number {
  return (classIndex << 8) | (q & 0xff);
}

/**
 * Adds `value` times each weight of `feature` to its class's sum. Weights are packed per feature
 * (offsets[f] .. offsets[f + 1]), each a packedWeight: the runtime's scoring
 * loop, and the calibration's (compiler/learn/calibrate.ts), so both sum alike.
 */
export function addFeatureWeights(sums: Float64Array, offsets: Uint32Array | Int32Array, weights: Int32Array, feature: number, value: number): void {
  const end = offsets[feature + 1]!;
  let p = offsets[feature]!;
  // Four weights a step: a feature's classes are distinct, so the four sums are independent
  // (CPU time a message on Banking77 at load 11: 47–53 µs one at a time, 25–32 µs four at a
  // time) and each class still adds its features in the same order: the same scores.
  for (; p + 3 < end; p += 4) {
    const a = weights[p]!;
    const b = weights[p + 1]!;
    const c = weights[p + 2]!;
    const d = weights[p + 3]!;
    sums[a >>> 8]! += ((a << 24) >> 24) * value;
    sums[b >>> 8]! += ((b << 24) >> 24) * value;
    sums[c >>> 8]! += ((c << 24) >> 24) * value;
    sums[d >>> 8]! += ((d << 24) >> 24) * value;
  }
  for (; p < end; p++) sums[weights[p]! >>> 8]! += ((weights[p]! << 24) >> 24) * value;
}

/** A feature's weight before normalization: sublinear term frequency times its (stored) IDF byte. */
export function featureWeight(count: number, idfByte: number): number {
  // Most features occur once, and 1 + ln 1 is exactly 1: no logarithm for them.
  return (count === 1 ? 1 : 1 + Math.log(count)) * (idfByte / IDF_STEPS);
}

/** The IDF byte of a feature seen in `df` of `n` training phrasings: ln((1 + n) / (1 + df)) + 1 in 1/16 steps. */
export function idfByte(df: number, n: number): number {
  return Math.min(255, Math.max(1, Math.round((Math.log((1 + n) / (1 + df)) + 1) * IDF_STEPS)));
}

/** Divides values[from + k] by the L2 norm of its block (the lowest bit of hashes[k]), for k < count, in place. */
export function normalizeBlocks(hashes: ArrayLike<number>, values: Float64Array, from: number, count: number): void {
  let words = 0;
  let chars = 0;
  for (let k = 0; k < count; k++) {
    const v = values[from + k]!;
    if ((hashes[k]! & 1) === WORD_BLOCK) words += v * v;
    else chars += v * v;
  }
  const w = words > 0 ? 1 / Math.sqrt(words) : 0;
  const c = chars > 0 ? 1 / Math.sqrt(chars) : 0;
  for (let k = 0; k < count; k++) values[from + k]! *= (hashes[k]! & 1) === WORD_BLOCK ? w : c;
}
