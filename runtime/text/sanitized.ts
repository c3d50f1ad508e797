// What the sanitize stage makes of a clause (Sanitized), in the core: the scan itself (sanitize.ts)
// is a chunk loaded for bundles with sanitizer phrases (runtime/stages.ts), and a clause of a
// bundle without any is what the scan makes of a clause it finds nothing in (unsanitized).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { Token } from "./normalize.js";
import type { Sentiment, WitnessItem } from "../response.js";

/** Sentiment kinds below this (expletives, interjections) are noise: stripped, not sentiment phrases. */
export const NOISE_KINDS = 2;

export interface Sanitized {
  /** Tokens without noise. */
  kept: Token[];
  /** Tokens without noise and without sentiment phrases. */
  content: Token[];
  counts: Readonly<Sentiment>;
  items: readonly WitnessItem[];
  /** The sentiment phrases found (not noise), normalized: "don't worry" reads "do not worry". */
  phrases: readonly string[];
}

export function emptySentiment(): Sentiment {
  return { expletives: 0, interjections: 0, thanking: 0, encouraging: 0, discouraging: 0 };
}

/** What a clause without noise or sentiment phrases (the usual one) finds: shared, never written. */
const NOTHING_COUNTED: Readonly<Sentiment> = Object.freeze(emptySentiment());
const NONE: readonly never[] = Object.freeze([]);

/** A clause in which no phrase was found: its tokens kept as they are. */
export const unsanitized = (function unsanitized(tokens: Token[]): Sanitized {
  return { kept: tokens, content: tokens, counts: NOTHING_COUNTED, items: NONE, phrases: NONE };
});
