// Typo tolerance without scanning the vocabulary: symmetric-delete neighbourhoods. At build time
// every vocabulary word stores the hashes of its deletion variants (up to its edit budget); a
// misspelt word generates its own variants, looks their hashes up (binary search) and verifies
// the few candidates with the optimal-string-alignment distance (a transposition costs 1). A hash
// is searched for in its bucket only (BundleFuzzy.buckets, by its top bits): a few hashes, not all.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleFuzzy } from "../bundle/bundle-types.js";
import type { StringTable } from "../bundle/string-table.js";

/**
 * Longest word (in characters) that typo correction considers. Its cost grows with the cube of
 * the length (every two-deletion variant, each hashed), and a real word is rarely longer: a
 * 480-letter "word" would take seconds, so longer ones are read as typed, never corrected.
 */
export const MAX_TYPO_WORD_LENGTH = 24;

/**
 * Edits a word of this many characters may carry when a whole message is weighed (the
 * probabilistic stage, and what the index is built for): 0 up to 3, 1 at 4, 2 from 5, and 0
 * again past MAX_TYPO_WORD_LENGTH (not corrected, and not indexed).
 */
export const editBudget = (function editBudget(length: number): number {
  if (length > MAX_TYPO_WORD_LENGTH) return 0;
  return length <= 3 ? 0 : length <= 4 ? 1 : 2;
});

/**
 * Edits allowed when one word alone decides (a template's vocab node, a clause's verb): 0 up to
 * 3, 1 from 4 to 7, 2 from 8. Stricter, since nothing else in the message can outvote it.
 */
export const wordEditBudget = (function wordEditBudget(length: number): number {
  return length <= 3 ? 0 : length <= 7 ? 1 : 2;
});

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text` (those in [from, to)), continuing from state `h` (a signed 32-bit value). */
export function fnv1a(h: number, text: string, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a of `text`, unsigned. */
export function hashString(text: string): number {
  return fnv1a(FNV_OFFSET, text) >>> 0;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The word and every string obtained by deleting up to `budget` characters from it. */
export function deletionVariants(word: string, budget: number): Set<string> {
  const out = new Set<string>([word]);
  // Code units are characters unless the word has astral ones; only then split by code point.
  const split = SURROGATE.test(word) ? (text: string) => Array.from(text) : null;
  let frontier = [word];
  for (let round = 0; round < budget; round++) {
    const next: string[] = [];
    for (const variant of frontier) {
      const chars = split ? split(variant) : null;
      const length = chars ? chars.length : variant.length;
      for (let i = 0; i < length; i++) {
        const shorter = chars ? chars.slice(0, i).join("") + chars.slice(i + 1).join("") : variant.slice(0, i) + variant.slice(i + 1);
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** Code points of the two strings osaDistance compares, and its three rows: reused by every call (grown by the first). */
const NONE = new Int32Array(0);
let pointsA = NONE;
let pointsB = NONE;
let rows = NONE;

/** Writes the code points of `text` into `into` (as Array.from splits it: a lone surrogate is one); returns their number. */
const fillCodePoints = (function fillCodePoints(text: string, into: Int32Array): number {
  let n = 0;
  for (let i = 0; i < text.length; n++) {
    const point = text.codePointAt(i)!;
    into[n] = point;
    i += point > 0xffff ? 2 : 1;
  }
  return n;
});

/** Characters (code points) of `text`: its length unless it has surrogates. */
export const characters = (function characters(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; n++) i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  return n;
});

/** Optimal string alignment distance (on characters), giving up (returning limit + 1) once it exceeds `limit`. */
export const osaDistance = (function osaDistance(a: string, b: string, limit: number): number {
  if (pointsA.length < a.length) pointsA = new Int32Array(2 * a.length);
  if (pointsB.length < b.length) pointsB = new Int32Array(2 * b.length);
  const x = pointsA;
  const y = pointsB;
  const n = fillCodePoints(a, x);
  const m = fillCodePoints(b, y);
  if (Math.abs(n - m) > limit) return limit + 1;
  const width = m + 1;
  if (rows.length < 3 * width) rows = new Int32Array(6 * width);
  // Three rows in one array: offsets of the row before the previous, the previous and this one.
  let prevPrev = 0;
  let prev = width;
  let row = 2 * width;
  for (let j = 0; j < width; j++) {
    rows[prevPrev + j] = 0;
    rows[prev + j] = j;
  }
  for (let i = 1; i <= n; i++) {
    rows[row] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(rows[prev + j]! + 1, rows[row + j - 1]! + 1, rows[prev + j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, rows[prevPrev + j - 2]! + 1);
      rows[row + j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    const oldest = prevPrev;
    prevPrev = prev;
    prev = row;
    row = oldest;
  }
  return rows[prev + m]!;
});

export interface FuzzyHit {
  word: number;
  distance: number;
  /** 1 − distance / the longer length (in characters) of the token and the word. */
  similarity: number;
}

/**
 * Per character of the token being looked up (code points), where its code units start (one more
 * entry: the end) and the FNV-1a state after the characters before it: each deletion variant's
 * hash continues the state of its longest undeleted prefix, not rehashing it (grown to the
 * longest token, at most MAX_TYPO_WORD_LENGTH: a longer one has no edit budget).
 */
let unitStart = NONE;
let prefixState = NONE;

/**
 * The first index in [from, to) of the hashes (ascending as u32, read as int32) not below `hash` (an
 * int32), in u32 order: flipping the sign bit (`^ (1 << 31)`) orders int32 values as the u32 values of their bits.
 */
const firstHashAtLeast = (function firstHashAtLeast(hashes: Int32Array, hash: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  hash ^= 1 << 31;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((hashes[mid]! ^ (1 << 31)) < hash) lo = mid + 1;
    else hi = mid;
  }
  return lo;
});

export class FuzzyIndex {
  /**
   * Per vocabulary word, the last lookup that verified it: the current one's number marks the words
   * it has seen, and no reset is needed (kept below 2^30, small integers: cleared at 1e9 lookups).
   */
  private readonly seen: Uint32Array;
  private lookups = 0;
  /** The current lookup's hits, the first `foundCount`, kept in order as each is found. */
  private readonly found: FuzzyHit[] = [];
  private foundCount = 0;
  /**
   * The stored hashes (u32) read as int32, the same memory: a u32 from 2^31 is no small integer,
   * so until V8 optimizes a lookup each read and each `>>> 0` of a hash made a heap number.
   */
  private readonly hashes: Int32Array;
  private readonly wordIds: Uint32Array;
  private readonly buckets: Uint32Array;
  /** A hash's bucket is its top bits: `hash >>> bucketShift` (buckets.length − 1 is 2^(32 − bucketShift)). */
  private readonly bucketShift: number;

  constructor(
    { hashes, words: wordIds, buckets }: BundleFuzzy,
    private readonly words: StringTable,
  ) {
    this.hashes = new Int32Array(hashes.buffer, hashes.byteOffset, hashes.length);
    this.wordIds = wordIds;
    this.buckets = buckets;
    this.bucketShift = Math.clz32(buckets.length - 1) + 1;
    this.seen = new Uint32Array(words.length);
  }

  /** Vocabulary words within the edit budget of both `token` and the word (closest first, then by word id). */
  lookup(token: string): FuzzyHit[] {
    const tokenLength = characters(token);
    const budget = editBudget(tokenLength);
    if (budget === 0) return [];
    // Collected in one list kept by the index, then copied at their number (an array grown hit by hit takes room for 17).
    this.foundCount = 0;
    if (++this.lookups > 1e9) {
      this.seen.fill(0);
      this.lookups = 1;
    }
    if (unitStart.length <= tokenLength) {
      unitStart = new Int32Array(tokenLength + 1);
      prefixState = new Int32Array(tokenLength + 1);
    }
    prefixState[0] = FNV_OFFSET;
    for (let i = 0, c = 0; c < tokenLength; c++) {
      unitStart[c] = i;
      i += token.codePointAt(i)! > 0xffff ? 2 : 1;
      prefixState[c + 1] = fnv1a(prefixState[c]!, token, unitStart[c]!, i);
    }
    const end = (unitStart[tokenLength] = token.length);
    // The deletion variants' hashes without building the variants (a variant reached twice, as
    // "ll" minus either "l", is looked up twice and finds its words already verified): without
    // character i, and without i and each later j (the state `h` holds the characters between them).
    this.verify(prefixState[tokenLength]!, token, tokenLength, budget);
    for (let i = 0; i < tokenLength; i++) {
      this.verify(fnv1a(prefixState[i]!, token, unitStart[i + 1]!, end), token, tokenLength, budget);
      if (budget > 1) for (let j = i + 1, h = prefixState[i]!; j < tokenLength; j++) {
        this.verify(fnv1a(h, token, unitStart[j + 1]!, end), token, tokenLength, budget);
        h = fnv1a(h, token, unitStart[j]!, unitStart[j + 1]!);
      }
    }
    return this.found.slice(0, this.foundCount);
  }

  /** Adds to `hits` the words stored under `hash` (its FNV-1a state, an int32) that are within the edit budget of `token` (each word verified once per lookup). */
  private verify(hash: number, token: string, tokenLength: number, budget: number): void {
    const { found: hits, hashes, buckets } = this;
    const bucket = hash >>> this.bucketShift;
    const end = buckets[bucket + 1]!;
    for (let i = firstHashAtLeast(hashes, hash, buckets[bucket]!, end); i < end && hashes[i] === hash; i++) {
      const word = this.wordIds[i]!;
      if (word >= this.words.length || this.seen[word] === this.lookups) continue;
      this.seen[word] = this.lookups;
      const target = this.words.at(word);
      const targetLength = characters(target);
      const limit = Math.min(budget, editBudget(targetLength));
      const distance = osaDistance(token, target, limit);
      if (distance === 0 || distance > limit) continue;
      // Kept closest first, then by word id, as each is found: sorting afterwards would allocate a work array.
      let at = this.foundCount++;
      for (let prev: FuzzyHit; at > 0 && ((prev = hits[at - 1]!).distance - distance || prev.word - word) > 0; at--) hits[at] = prev;
      hits[at] = { word, distance, similarity: 1 - distance / Math.max(tokenLength, targetLength) };
    }
  }
}
