// The learned stage reads a message as the dataset spells it: the model has only seen the
// dataset's spellings, so each word it does not know is replaced by its closest correction first.
// Part of the learned stage's lazily loaded chunk (runtime/bundle/model.ts learnedIndexFor), so
// bundles without the stage do not load it.

import type { FuzzyHit } from "../text/fuzzy.js";
import type { Token } from "../text/normalize.js";

/**
 * What the correction reads of the message's WordResolver (text/word-resolver.ts). Written out
 * rather than imported: the resolver's module reads the model's, which reads this chunk's.
 */
export interface KnownWords {
  id(norm: string): number | undefined;
  word(id: number): string;
  correctedLoosely(norm: string): FuzzyHit[];
}

/**
 * The tokens with each word the NPC does not know replaced by its closest correction, when one is
 * closer than any other and similar enough ("updat ystem" → "update system"). The tokens
 * themselves when nothing needs correcting.
 */
export function correctedTokens(tokens: Token[], words: KnownWords, threshold: number): Token[] {
  let out: Token[] | null = null;
  tokens.forEach((token, i) => {
    if (token.kind !== "word" || words.id(token.norm) !== undefined) return;
    const [best, second] = words.correctedLoosely(token.norm);
    if (!best || best.similarity < threshold || (second && second.distance === best.distance)) return;
    out ??= tokens.slice();
    out[i] = { text: token.text, norm: words.word(best.word), kind: token.kind, shape: token.shape, start: token.start, end: token.end };
  });
  return out ?? tokens;
}
