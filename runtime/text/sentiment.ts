// Sentiment in matching (the answer's face, its emoji, is render/emoji.ts). In the sanitizer's chunk,
// loaded only for bundles with sanitizer phrases (sanitizer-stage.ts, runtime/stages.ts).
//
// Sentiment phrases ("thanks", "amazing") are left out of the probabilistic query so they do not
// count against a request. The dataset's phrasings must then be read the same way, or "you are
// amazing" (query "you are") resembles "how are you" more than "you are great". `sentimentMatch`
// answers such messages first, exactly:
//   - the message's content (sentiment phrases removed) against each input's content, when both
//     removed phrases of the same kinds ("you are amazing" → "you are great": both encouraging);
//   - a message that is only sentiment and filler ("thanks a lot": nothing else the NPC knows)
//     against the inputs that are exactly one of its sentiment phrases ("thanks").
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import { SENTIMENT_KINDS } from "../bundle/bundle-types.js";
import type { NpcModel } from "../bundle/model.js";
import { keyOf, tokenize, type Token } from "./normalize.js";
import type { Sentiment } from "../response.js";
import { sanitize } from "./sanitize.js";
import { NOISE_KINDS } from "./sanitized.js";

/** Kinds of the sentiment phrases removed, as a signature ("encouraging"; "thanking+encouraging"). */
const signature = (function signature(counts: Readonly<Sentiment>): string {
  // A loop, not filter + join: it runs on every clause, and the usual one has no such phrase (counts are whole numbers).
  let sig = "";
  for (let i = NOISE_KINDS; i < SENTIMENT_KINDS.length; i++) if (counts[SENTIMENT_KINDS[i]!]) sig += (sig && "+") + SENTIMENT_KINDS[i];
  return sig;
});

/** Words of lowercase letters, digits, `_` and `-`, one space apart: tokenize reads each word as one token of that norm (or drops it). */
const PLAIN_KEY = /^[a-z\d_-]+(?: [a-z\d_-]+)*$/;

/** Per model: `${signature}|${content key}` → intent, for inputs holding sentiment phrases and other words. */
const cache = new WeakMap<NpcModel, Map<string, number>>();

/** Built on first use from the exact table's keys (top-level inputs); ambiguous keys are dropped. */
function contentTable(model: NpcModel): Map<string, number> {
  let content = cache.get(model);
  if (content) return content;
  content = new Map();
  const { keys, targets } = model.payload.exact;
  for (let i = 0; i < keys.length; i++) {
    const key = keys.at(i);
    // Tokenizing every key was most of the first sentiment message's time: a plain key's tokens
    // are its words, and sanitize finds no phrase in it if none of them starts one.
    if (PLAIN_KEY.test(key) && !key.split(" ").some((word) => model.sanitizerPhrases.first(word) !== -1)) continue;
    const sanitized = sanitize(model, tokenize(key).tokens);
    const sig = signature(sanitized.counts);
    if (sig === "" || sanitized.content.length === 0) continue;
    const k = `${sig}|${keyOf(sanitized.content)}`;
    const known = content.get(k);
    content.set(k, known === undefined || known === targets[i] ? targets[i]! : -1); // -1: two intents, dropped below
  }
  for (const [k, intent] of content) if (intent < 0) content.delete(k);
  cache.set(model, content);
  return content;
}

export interface SentimentHit {
  intent: number;
  key: string;
}

/**
 * An exact answer for a message that carries sentiment phrases, or null. `phrases` are the
 * normalized sentiment phrases found in the message, `content` what is left without them.
 */
export const sentimentMatch = (function sentimentMatch(model: NpcModel, counts: Readonly<Sentiment>, phrases: readonly string[], content: readonly Token[]): SentimentHit | null {
  const sig = signature(counts);
  if (sig === "") return null;
  if (content.length > 0) {
    const key = `${sig}|${keyOf(content)}`;
    const intent = contentTable(model).get(key);
    if (intent !== undefined) return { intent, key };
  }
  const knowsSomething = content.some((t) => t.kind !== "word" || (!model.stopWords.has(t.norm) && model.wordId.has(t.norm)));
  if (knowsSomething) return null;
  for (const phrase of phrases) {
    const intent = model.exact.get(phrase);
    if (intent !== undefined) return { intent, key: phrase };
  }
  return null;
});
