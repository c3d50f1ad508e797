// Sentiment in matching (the answer's face, its emoji, is render/emoji.ts). A chunk of its own,
// loaded only for bundles with sentiment phrases (runtime/stages.ts).
//
// Sentiment phrases ("thanks", "amazing") are left out of the probabilistic query so they do not
// count against a request. The dataset's phrasings must then be read the same way, or "you are
// amazing" (query "you are") resembles "how are you" more than "you are great". `sentimentMatch`
// answers such messages first, exactly:
//   - the message's content (sentiment phrases removed) against each input's content, when both
//     removed phrases of the same kinds ("you are amazing" → "you are great": both encouraging);
//   - a message that is only sentiment and filler ("thanks a lot": nothing else the NPC knows)
//     against the inputs that are exactly one of its sentiment phrases ("thanks").

import { SENTIMENT_KINDS } from "../bundle/bundle-types.js";
import type { NpcModel } from "../bundle/model.js";
import { keyOf, tokenize, type Token } from "./normalize.js";
import type { Sentiment } from "../response.js";
import { NOISE_KINDS, sanitize } from "./sanitize.js";

/** Kinds of the sentiment phrases removed, as a signature ("encouraging"; "thanking+encouraging"). */
function signature(counts: Readonly<Sentiment>): string {
  // A loop, not filter + join: it runs on every clause, and the usual one has no such phrase (counts are whole numbers).
  let sig = "";
  for (let i = NOISE_KINDS; i < SENTIMENT_KINDS.length; i++) if (counts[SENTIMENT_KINDS[i]!]) sig += (sig && "+") + SENTIMENT_KINDS[i];
  return sig;
}

interface SentimentTables {
  /** `${signature}|${content key}` → intent, for inputs holding sentiment phrases and other words. */
  content: Map<string, number>;
}

const cache = new WeakMap<NpcModel, SentimentTables>();

/** Built on first use from the exact table's keys (top-level inputs); ambiguous keys are dropped. */
function tables(model: NpcModel): SentimentTables {
  let t = cache.get(model);
  if (t) return t;
  const content = new Map<string, number>();
  const ambiguous = new Set<string>();
  const { keys, targets } = model.payload.exact;
  for (let i = 0; i < keys.length; i++) {
    const sanitized = sanitize(model, tokenize(keys.at(i)).tokens);
    const sig = signature(sanitized.counts);
    if (sig === "" || sanitized.content.length === 0) continue;
    const k = `${sig}|${keyOf(sanitized.content)}`;
    const known = content.get(k);
    if (known !== undefined && known !== targets[i]) ambiguous.add(k);
    else content.set(k, targets[i]!);
  }
  for (const k of ambiguous) content.delete(k);
  t = { content };
  cache.set(model, t);
  return t;
}

export interface SentimentHit {
  intent: number;
  key: string;
}

/**
 * An exact answer for a message that carries sentiment phrases, or null. `phrases` are the
 * normalized sentiment phrases found in the message, `content` what is left without them.
 */
export function sentimentMatch(model: NpcModel, counts: Readonly<Sentiment>, phrases: readonly string[], content: readonly Token[]): SentimentHit | null {
  const sig = signature(counts);
  if (sig === "") return null;
  if (content.length > 0) {
    const key = `${sig}|${keyOf(content)}`;
    const intent = tables(model).content.get(key);
    if (intent !== undefined) return { intent, key };
  }
  const knowsSomething = content.some((t) => t.kind !== "word" || (!model.stopWords.has(t.norm) && model.wordId.has(t.norm)));
  if (knowsSomething) return null;
  for (const phrase of phrases) {
    const intent = model.exact.get(phrase);
    if (intent !== undefined) return { intent, key: phrase };
  }
  return null;
}
