// The learned stage reads a message as the dataset spells it: the model has only seen the
// dataset's spellings, so each word it does not know is replaced by its closest correction first.
// Part of the learned stage's lazily loaded chunk (runtime/bundle/model.ts learnedIndexFor), so
// bundles without the stage do not load it.

import type { FuzzyHit } from "../text/fuzzy.js";
import type { Token } from "../text/normalize.js";
import { remembered } from "./remembered.js";

/**
 * What the correction reads of the message's WordResolver (text/word-resolver.ts). Written out
 * rather than imported: the resolver's module reads the model's, which reads this chunk's.
 */
export interface KnownWords {
  id(norm: string): number | undefined;
  word(id: number): string;
  correctedLoosely(norm: string): FuzzyHit[];
}

/** Words whose reading is remembered; past that the memory starts over (a message has at most a few hundred). */
const SPELLING_MEMORY = 8192;

/**
 * How the learned stage reads each word, remembered per model: a word's reading depends only on
 * the vocabulary and the threshold, and messages share most words (the lookups were an eighth of
 * a whole answer on Banking77: a binary search of the vocabulary per word, a fuzzy lookup per unknown one).
 */
export class Spellings {
  private threshold = NaN;
  /** The resolver of the message being read (a nested message has its own: session.ts). */
  private words: KnownWords | null = null;
  private readingOf: (norm: string) => string = (norm) => norm;

  /**
   * The tokens with each word the NPC does not know replaced by its closest correction, when one
   * is closer than any other and similar enough ("updat ystem" → "update system"). The tokens
   * themselves when nothing needs correcting.
   */
  corrected(tokens: Token[], words: KnownWords, threshold: number): Token[] {
    this.words = words;
    if (threshold !== this.threshold) {
      // a reading depends on the threshold: another one starts a new memory
      this.readingOf = remembered((norm) => closestSpelling(norm, this.words!, threshold), SPELLING_MEMORY);
      this.threshold = threshold;
    }
    let out: Token[] | null = null;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.kind !== "word") continue;
      const norm = this.readingOf(token.norm);
      if (norm === token.norm) continue;
      out ??= tokens.slice();
      out[i] = { text: token.text, norm, kind: token.kind, shape: token.shape, start: token.start, end: token.end };
    }
    return out ?? tokens;
  }
}

/** The word itself when the NPC knows it or no single correction is close enough, else its correction. */
function closestSpelling(norm: string, words: KnownWords, threshold: number): string {
  if (words.id(norm) !== undefined) return norm;
  const [best, second] = words.correctedLoosely(norm);
  return !best || best.similarity < threshold || (second && second.distance === best.distance) ? norm : words.word(best.word);
}
