// Compute pass: the concepts of the probabilistic stage. A concept is a set of stems that may
// stand for one another: each synonym set of the dataset (vocabulary/templates.json, DSL
// `synonym`) counts `synonymContribution`; each WordNet expansion (ndfc build --wordnet) a
// dataset word brings counts less, and each of its WordNet neighbours (a narrower, broader or
// similar word) is a concept of two, the word and that neighbour, counting less again: two
// neighbours of one word are not each other's (two kinds of earthquake are not one thing). Only
// one-word synonyms take part; multi-word ones are the template stage's business. Concepts are
// sorted by their members, so the order of the sources never changes the bundle.

import type { SynonymSet } from "../ir/types.js";
import { normalizeWords } from "../../runtime/text/normalize.js";
import { stem } from "../../runtime/text/stem.js";
import { compareStrings } from "../order.js";

/** What a WordNet relative counts, relative to a synonym of the dataset. */
export const LEXICAL_SCALE = 0.75;
/**
 * What a WordNet neighbour counts, relative to a synonym of the dataset. Chosen on the even-index
 * half of TERMy's eval.json among 0.45, 0.55 and 0.65 (the odd half held out): 0.65 answered more
 * at a lower precision, 0.45 fewer at about the same.
 */
export const NEIGHBOUR_SCALE = 0.55;

export interface Concept {
  /** Member stems, sorted, at least two. */
  stems: string[];
  /** What a match through this concept counts (0..1). */
  weight: number;
}

/** Words related to the dataset's words, see compiler/wordnet.ts. */
export interface LexicalExpansion {
  /** Dataset word → words that may stand for it (WordNet synonyms and derivations): one concept with the word. */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** Dataset word → its neighbours (narrower, broader, similar words): one weaker concept of two per neighbour. */
  neighbours: ReadonlyMap<string, readonly string[]>;
}

function stemsOf(words: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const normalized = normalizeWords(word);
    if (normalized.length === 1) out.add(stem(normalized[0]!));
  }
  return [...out].sort();
}

export function computeConcepts(
  synonyms: readonly SynonymSet[],
  expansion: LexicalExpansion | null,
  synonymContribution: number,
): Concept[] {
  const byKey = new Map<string, Concept>();
  const add = (stems: string[], weight: number) => {
    if (stems.length < 2) return;
    const key = stems.join(" ");
    const known = byKey.get(key);
    if (!known || known.weight < weight) byKey.set(key, { stems, weight });
  };
  const byTag = new Map<string, string[]>();
  for (const set of synonyms) byTag.set(set.tag, [...(byTag.get(set.tag) ?? []), ...set.words]);
  for (const words of byTag.values()) add(stemsOf(words), synonymContribution);
  for (const [word, related] of expansion?.synonyms ?? []) add(stemsOf([word, ...related]), synonymContribution * LEXICAL_SCALE);
  for (const [word, near] of expansion?.neighbours ?? []) for (const other of near) add(stemsOf([word, other]), synonymContribution * NEIGHBOUR_SCALE);
  return [...byKey.entries()].sort((a, b) => compareStrings(a[0], b[0])).map(([, concept]) => concept);
}
