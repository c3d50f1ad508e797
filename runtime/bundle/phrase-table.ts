// Phrases by first word as a bundle stores them (BundlePhrases: the sanitizer's, format 12.0, and
// the vocab's, format 13.0): each phrase's words joined by spaces in a string table, grouped by
// first word (longest first within a group), their values (a sentiment kind, a vocab tag) in a
// section, and an open-addressing hash table of the groups (encode.ts phraseTableOf). A load makes
// no string and no Map of them (TERMy's 700 expletives were a third of its load's values, its vocab
// phrases a 140 KB Map); a lookup hashes the word and probes the slots, faster than a Map's get,
// and a phrase is decoded and split the first time a message holds its first word. A hostile
// table (a group split, words with spaces, slots anywhere) only finds less: the validator sees
// a free slot in a power-of-two table, so every probe ends.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundlePhrases } from "./bundle-types.js";
import { hashString } from "../text/fuzzy.js";

export interface Phrase {
  words: string[];
  value: number;
}

export class PhraseTable {
  /** Phrases split so far, by index; made on the first read. */
  #split: (Phrase | undefined)[] | undefined;

  /** `values`: per phrase, its value (BundleSanitizer.kinds, BundleVocab.phraseTags). */
  constructor(
    private readonly stored: BundlePhrases,
    private readonly values: Uint8Array | Uint32Array,
  ) {}

  /** The index of the first (longest) phrase whose first word is `word`, or -1: its group runs while `startsWith` holds. */
  first(word: string): number {
    const { slots } = this.stored;
    // A mask, not `%`: the hash is above 2^31 half the time, and `%` of such a number is a float division.
    const mask = slots.length - 1;
    for (let s = hashString(word) & mask; slots[s] !== 0; s = (s + 1) & mask) if (this.startsWith(slots[s]! - 1, word)) return slots[s]! - 1;
    return -1;
  }

  /** Whether phrase `index` exists and its first word is `word`. */
  startsWith(index: number, word: string): boolean {
    if (index >= this.values.length) return false;
    const text = this.stored.phrases.at(index);
    return text.startsWith(word) && (text.length === word.length || text.charCodeAt(word.length) === 32);
  }

  /** Phrase `index` (below the table's length): its words and value. */
  phrase(index: number): Phrase {
    const split = (this.#split ??= new Array<Phrase | undefined>(this.values.length));
    return (split[index] ??= { words: this.stored.phrases.at(index).split(" "), value: this.values[index]! });
  }
}
