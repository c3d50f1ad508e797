// How the learned stage reads one token, remembered per model: which of the model's features its
// word (stem and concepts) and its character n-grams are. A token's features depend only on its
// text and whether it is a word (learned-features.ts), and messages share most words: a word seen
// before costs one lookup instead of a stem, a dozen hashes and as many probes of the model's
// features (about a third of the stage's time on TERMy). Only the pair of a word and the next
// one is hashed per message.

import { type ConceptTable, forEachCharFeature, forEachWordFeature } from "./learned-features.js";
import type { Token } from "../text/normalize.js";
import { stem } from "../text/stem.js";
import { remembered } from "./remembered.js";

/** Tokens whose readings are remembered, of each kind; past that the memory starts over (a message has at most a few hundred). */
const READING_MEMORY = 8192;

export interface Reading {
  /** The token's featureWords form: the stem of a word, the text of a literal or quoted value. */
  form: string;
  /** The FNV-1a state of the form, which pairFeature continues with the next token's. */
  state: number;
  /** The model's indices of the word's features it knows: its word feature and its concepts, in forEachFeature's order. */
  words: number[];
  /** The model's indices of the token's character n-grams it knows, in forEachFeature's order (a repeated one twice). */
  chars: number[];
}

export class Readings {
  /** A word's reading by its normalized form; a literal's or quoted value's (read unstemmed) apart. */
  private readonly ofWord = remembered((norm) => this.read(norm, stem(norm)), READING_MEMORY);
  private readonly ofOther = remembered((norm) => this.read(norm, norm), READING_MEMORY);

  /** `find`: the model's index of a feature hash, −1 when it has none. */
  constructor(
    private readonly find: (hash: number) => number,
    private readonly concepts: ConceptTable | null,
  ) {}

  of(token: Token): Reading {
    return token.kind === "word" ? this.ofWord(token.norm) : this.ofOther(token.norm);
  }

  private read(norm: string, form: string): Reading {
    const words: number[] = [];
    const chars: number[] = [];
    let into = words;
    const keep = (hash: number): void => {
      const feature = this.find(hash);
      if (feature >= 0) into.push(feature);
    };
    const state = forEachWordFeature(form, 0, keep, this.concepts);
    into = chars;
    forEachCharFeature(norm, 0, keep);
    return { form, state, words, chars };
  }
}
