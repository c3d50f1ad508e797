// The learned stage's evidence: which features of a message add most to a class's score, as text
// ("w:card arriv", "c: car"). Only explanations need it, so it lives outside the core entry: the
// explain tracer (runtime/explain.ts) fills a learned answer's witness with it.

import { CONCEPT_START, featureWords, forEachFeature } from "./learned-features.js";
import type { LearnedIndex } from "./match-learned.js";
import type { Token } from "../text/normalize.js";

/** Where a feature comes from: a word (`start` −1), a pair (−2), a word's concept (CONCEPT_START), or characters of a token. */
export interface FeatureOrigin {
  token: number;
  /** −1: the token's stem; −2: its stem and the next one's; CONCEPT_START: a concept of its stem; otherwise the n-gram's first character in " norm ". */
  start: number;
  length: number;
}

/** One feature's share of a class's score. */
export interface LearnedEvidence {
  feature: string;
  weight: number;
}

/** The text of a feature: "w:card", "w:card arriv", "k:joke" (a concept of "joke"), "c: car". */
export function featureText(tokens: readonly Token[], words: readonly string[], origin: FeatureOrigin): string {
  if (origin.start === CONCEPT_START) return `k:${words[origin.token]}`;
  if (origin.start === -1) return `w:${words[origin.token]}`;
  if (origin.start === -2) return `w:${words[origin.token]} ${words[origin.token + 1]}`;
  return `c:${` ${tokens[origin.token]!.norm} `.slice(origin.start, origin.start + origin.length)}`;
}

/** The features that add most to class `c`'s score for these tokens, largest share first. */
export function learnedEvidence(index: LearnedIndex, tokens: readonly Token[], c: number, limit: number): LearnedEvidence[] {
  const n = index.weigh(tokens);
  const shares: { hash: number; weight: number }[] = [];
  for (let i = 0; i < n; i++) {
    const f = index.found[i]!;
    for (let p = index.offsets[f]!; p < index.offsets[f + 1]!; p++) {
      const w = index.weights[p]!;
      if (w >>> 8 === c) shares.push({ hash: index.foundHash[i]!, weight: index.scale[c]! * ((w << 24) >> 24) * index.values[i]! });
    }
  }
  shares.sort((a, b) => b.weight - a.weight || a.hash - b.hash);
  const chosen = shares.slice(0, limit);
  const origins = new Map<number, FeatureOrigin>();
  const wanted = new Set(chosen.map((s) => s.hash));
  const words = featureWords(tokens);
  forEachFeature(tokens, words, (hash, token, start, length) => {
    if (wanted.has(hash) && !origins.has(hash)) origins.set(hash, { token, start, length });
  }, index.concepts);
  return chosen.map((s) => ({ feature: featureText(tokens, words, origins.get(s.hash)!), weight: Math.round(s.weight * 10000) / 10000 }));
}
