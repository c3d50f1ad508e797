// The active context (NDF rules, applied in session.ts when an entry answers: a non-empty
// `context` list replaces the active context, `[]` clears it, an absent key keeps it) is tried
// before everything else at each stage: its exact table first (match-exact.ts), its template paths
// first (match-template.ts), and here, fuzzily: the best context child of the probabilistic
// ranking answers when it reaches the sentence threshold and beats the other children by the
// margin, even if a top-level intent scored higher ("delet it" after "create folder x"), and
// before a top-level template that needed a typo correction. A top-level template matched word
// for word still wins ("delete old.log" deletes old.log, not the folder just created).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { RankedIntent } from "../match/match-probabilistic.js";
import type { NpcModel } from "../bundle/model.js";
import { normalizeWords, type Token } from "../text/normalize.js";
import type { WitnessItem } from "../response.js";
import type { WordResolver } from "../text/word-resolver.js";

const childWords = new WeakMap<NpcModel, Map<number, Set<string>>>();

/** Normalized words of the exact inputs of a parent's context children. */
function wordsOfChildren(model: NpcModel, parent: number): Set<string> {
  let byParent = childWords.get(model);
  if (!byParent) childWords.set(model, (byParent = new Map()));
  let words = byParent.get(parent);
  if (!words) {
    const keys = model.contextExact.get(parent)?.keys;
    words = new Set();
    // A loop, not string-table.ts stringsOf, which this chunk alone would then keep in the core.
    for (let i = 0; keys && i < keys.length; i++) for (const word of keys.at(i).split(" ")) words.add(word);
    byParent.set(parent, words);
  }
  return words;
}

/**
 * Whether a context child could answer the message fuzzily at all: some word of it (or a typo
 * correction of it) occurs in the children's inputs. Spares the ranking when a top-level template
 * already answered a message unrelated to the follow-ups.
 */
export function mayMatchChild(model: NpcModel, activeContext: number, query: readonly Token[], words: WordResolver): boolean {
  const known = wordsOfChildren(model, activeContext);
  if (known.size === 0) return true; // template children only: let the ranking decide
  return query.some((t) => words.fits(t.norm, known));
}

export interface ContextGuess extends RankedIntent {
  items: WitnessItem[];
}

export const pickContextChild = (function pickContextChild(model: NpcModel, ranking: readonly RankedIntent[], activeContext: number | null, query: readonly Token[]): ContextGuess | null {
  if (activeContext === null) return null;
  const children = ranking.filter((r) => model.payload.intents[r.intent]!.parent === activeContext);
  const [top, second] = children;
  const { sentenceThreshold, margin } = model.payload.config;
  if (!top || top.score < sentenceThreshold || (second && top.score - second.score < margin)) return null;
  // Evidence against the child's first input (its example), read from the text itself.
  const example = new Set(normalizeWords(model.payload.intents[top.intent]!.example ?? ""));
  const items = query.map((token): WitnessItem => {
    return example.has(token.norm)
      ? { word: token.text, kind: "word", matched: token.norm }
      : { word: token.text, kind: "unknown", matched: "" };
  });
  return { ...top, items };
});
