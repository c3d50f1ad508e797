// Stage 5: probabilistic match. Each message word becomes weighted candidates (itself, typo
// corrections from the fuzzy index, synonyms); the inverted index yields the inputs that share a
// candidate, so only those are scored. Order-independent, IDF-weighted Dice similarity:
//   score(input) = 2 · Σ_terms max_{w ∈ input} idf(w)·sim(term, w) / (weight(input) + weight(message))
// where weight(message) sums each term's IDF (unknown words weigh the mean IDF: they count against).
// An intent scores its best input; a context child competes only while its parent is active.
// The winner must reach the sentence threshold and beat the best other intent by the margin;
// otherwise the stage abstains and the ranking becomes `related`.
//
// MaxScore pruning: the commonest words ("show", "my") have the longest posting lists. Taken
// together they cannot lift an input to (threshold − margin), so they do not generate
// candidates: their contribution is added only to inputs a rarer word found (membership test on
// the input's sorted word ids). The result is the same as scoring everything; the cost is not.

import type { NpcModel } from "./model.js";
import type { Token } from "./normalize.js";
import type { WitnessItem } from "./response.js";
import type { WordResolver } from "./word-resolver.js";

interface Candidate {
  word: number;
  sim: number;
  kind: "word" | "fuzzy" | "synonym";
}

interface Term {
  token: Token;
  candidates: Candidate[];
  weight: number;
  /** The most this term can add to an input's matched weight. */
  bound: number;
}

export interface RankedIntent {
  intent: number;
  score: number;
  input: number;
}

export interface ProbabilisticResult {
  /** The accepted intent, or null when below the threshold or too close to the runner-up. */
  hit: (RankedIntent & { items: WitnessItem[] }) | null;
  /** Eligible intents by descending score (best input each), at most `limit`. */
  ranking: RankedIntent[];
}

function termsOf(model: NpcModel, tokens: readonly Token[], words: WordResolver): Term[] {
  const seen = new Set<string>();
  const terms: Term[] = [];
  const synonymWeight = model.payload.config.synonymContribution;
  for (const token of tokens) {
    if (seen.has(token.norm)) continue;
    seen.add(token.norm);
    const direct: Candidate[] = [];
    const id = words.id(token.norm);
    if (id !== undefined) direct.push({ word: id, sim: 1, kind: "word" });
    else if (token.kind !== "quoted") {
      const length = Array.from(token.norm).length;
      for (const hit of words.corrected(token.norm)) {
        const other = Array.from(model.payload.lexicon.words[hit.word]!).length;
        direct.push({ word: hit.word, sim: 1 - hit.distance / Math.max(length, other), kind: "fuzzy" });
      }
    }
    const candidates = [...direct];
    for (const d of direct) {
      for (const tag of model.payload.lexicon.tags[d.word]!) {
        for (const word of model.tagWords[tag]!) {
          if (word !== d.word) candidates.push({ word, sim: d.sim * synonymWeight, kind: "synonym" });
        }
      }
    }
    let weight = 0;
    for (const d of direct) weight = Math.max(weight, model.idf[d.word]!);
    if (weight === 0) {
      // Never seen in an input: a synonym's weight if it has one, else it counts against the match.
      for (const c of candidates) weight = Math.max(weight, model.idf[c.word]! * c.sim);
      if (weight === 0) weight = model.unknownWeight * (Array.from(token.norm).length < 3 ? 0.2 : 1);
    }
    let bound = 0;
    for (const c of candidates) bound = Math.max(bound, model.idf[c.word]! * c.sim);
    terms.push({ token, candidates, weight, bound });
  }
  return terms;
}

export function matchProbabilistic(
  model: NpcModel,
  tokens: readonly Token[],
  limit: number,
  words: WordResolver,
  /** The intent whose context children may answer now, or null. */
  activeContext: number | null,
  /** false scores every posting (tests compare both ways: pruning must not change results). */
  prune = true,
): ProbabilisticResult {
  const terms = termsOf(model, tokens, words);
  const { postings } = model.payload.lexicon;
  const { intent: inputIntent, weight: inputWeight, words: inputWords } = model.payload.inputs;
  const { sentenceThreshold, margin } = model.payload.config;
  const score = model.scratchScore;
  const best = model.scratchBest;
  const touched: number[] = [];
  const touchedNow: number[] = [];
  let messageWeight = 0;
  for (const term of terms) messageWeight += term.weight;

  // Weakest terms first: they stay out of candidate generation while, all together, they could
  // not reach the floor (score ≤ 2B / (B + messageWeight) for an input matching only them).
  const byBound = [...terms].sort((a, b) => a.bound - b.bound);
  const floor = sentenceThreshold - margin;
  let weak = 0;
  let weakBound = 0;
  while (prune && weak < byBound.length - 1) {
    const next = weakBound + byBound[weak]!.bound;
    if ((2 * next) / (next + messageWeight) >= floor) break;
    weakBound = next;
    weak++;
  }
  for (const term of byBound.slice(weak)) {
    for (const c of term.candidates) {
      const value = model.idf[c.word]! * c.sim;
      if (value === 0) continue;
      for (const input of postings[c.word]!) {
        if (best[input] === 0) touchedNow.push(input);
        if (value > best[input]!) best[input] = value;
      }
    }
    for (const input of touchedNow) {
      if (score[input] === 0) touched.push(input);
      score[input]! += best[input]!;
      best[input] = 0;
    }
    touchedNow.length = 0;
  }
  for (const term of byBound.slice(0, weak)) {
    for (const input of touched) {
      let value = 0;
      for (const c of term.candidates) {
        const v = model.idf[c.word]! * c.sim;
        if (v > value && includesSorted(inputWords[input]!, c.word)) value = v;
      }
      score[input]! += value;
    }
  }
  const byIntent = new Map<number, RankedIntent>();
  for (const input of touched) {
    const value = (2 * score[input]!) / (inputWeight[input]! + messageWeight);
    score[input] = 0;
    const intent = inputIntent[input]!;
    const parent = model.payload.intents[intent]!.parent;
    if (parent !== null && parent !== activeContext) continue;
    const current = byIntent.get(intent);
    if (!current || value > current.score || (value === current.score && input < current.input)) {
      byIntent.set(intent, { intent, score: value, input });
    }
  }
  const ranking = [...byIntent.values()].sort((a, b) => b.score - a.score || a.intent - b.intent);
  const top = ranking[0];
  const runnerUp = ranking[1];
  const accepted = top !== undefined && top.score >= sentenceThreshold && (!runnerUp || top.score - runnerUp.score >= margin);
  return {
    hit: accepted ? { ...top, items: witness(model, terms, top.input) } : null,
    ranking: ranking.slice(0, limit),
  };
}

/** For the winning input: which candidate each message word matched (or that it matched nothing). */
function witness(model: NpcModel, terms: readonly Term[], input: number): WitnessItem[] {
  const { postings, words } = model.payload.lexicon;
  return terms.map(({ token, candidates }) => {
    let chosen: Candidate | undefined;
    for (const c of candidates) {
      if ((!chosen || c.sim > chosen.sim) && includesSorted(postings[c.word]!, input)) chosen = c;
    }
    return chosen
      ? { word: token.text, kind: chosen.kind, matched: words[chosen.word]! }
      : { word: token.text, kind: "unknown" as const, matched: "" };
  });
}

function includesSorted(list: readonly number[], value: number): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return list[lo] === value;
}
