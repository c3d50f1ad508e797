// Stage 5: probabilistic match, deterministic and independent of word order.
//
// Each message word becomes weighted candidate stems: its own Porter stem, else its typo
// corrections from the fuzzy index (similarity 1 − edits/length, at least `wordThreshold`, never
// for literals or quoted text), plus every stem sharing a concept with those (dataset synonyms
// count `synonymContribution`, WordNet relatives from `ndfc build --wordnet` less). The inverted
// index over stems yields the intents sharing a candidate: only those are scored, and not all of
// them (MaxScore): words are tried by the most they can add, and once the words left could not
// lift an intent not yet found over the `limit`-th best score, no more intents are looked for.
// Common words thus only add to intents rarer words found; the ranking is the same as scoring all.
//
// Scoring is IDF-weighted and asymmetric. For an input I and the message M:
//   recall    R = Σ_{s ∈ I} w(s)·best sim of a message word to s  / Σ_{s ∈ I} w(s)
//   precision P = Σ_{m ∈ M} w(m)·best sim of m to a stem of I     / Σ_{m ∈ M} w(m)
//   score     = 1 / (RECALL_WEIGHT / R + (1 − RECALL_WEIGHT) / P)
// so a missing input word costs more than an extra message word. Function words weigh almost
// nothing on both sides (compiler/passes/compute-idf.ts); a word the NPC has never seen weighs
// the mean IDF (it counts against). An intent scores its best input's recall with the precision of
// all its inputs and describing text together. The winner needs `sentenceThreshold` and must beat the runner-up by
// `margin` (scaled down for a near-complete match, see requiredLead); otherwise the stage
// abstains and the ranking becomes `related`.

import type { BundlePayload, BundleRows } from "./bundle-types.js";
import type { NpcModel } from "./model.js";
import type { Token } from "./normalize.js";
import type { WitnessItem } from "./response.js";
import { stem } from "./stem.js";
import type { WordResolver } from "./word-resolver.js";

/** Share of recall in the harmonic mean: missing input words cost more than extra message words. */
const RECALL_WEIGHT = 0.6;
/** What a word of an entry's description counts, relative to a word of its inputs. */
const DESCRIPTION_WEIGHT = 0.6;
/** What another word of the same stem counts ("users" for "user"), relative to the word itself. */
const OTHER_FORM = 0.95;
/** A message word weighing less than this share of an unknown word is a function word. */
const WEAK_SHARE = 0.1;
/** A literal (file name, number, path) the NPC has never seen weighs this share of an unknown word. */
const LITERAL_WEIGHT = 0.3;

type CandidateKind = "word" | "fuzzy" | "synonym";

interface Candidate {
  stem: number;
  sim: number;
  kind: CandidateKind;
  /** The lexicon word the message word is (or was corrected to), -1 for none or a synonym. */
  word: number;
}

interface Term {
  token: Token;
  candidates: Candidate[];
  weight: number;
}

export interface RankedIntent {
  intent: number;
  score: number;
  input: number;
}

export interface ProbabilisticResult {
  /** The accepted intent, or null when below the threshold or too close to the runner-up. */
  hit: (RankedIntent & { items: WitnessItem[] }) | null;
  /** Eligible intents by descending score (best input each): at most `limit`, all while a context is active. */
  ranking: RankedIntent[];
}

/** The bundle's matching tables in the shape the matcher walks, plus reusable scratch buffers. */
export class MatchIndex {
  readonly stemId: Map<string, number>;
  readonly conceptMembers: number[][];
  /** Per stem: how many lexicon words have it. */
  readonly stemForms: Uint16Array;
  /** Per intent: whether the current message found it (reset after each message). */
  readonly found: Uint8Array;
  /** Scratch for one message: per stem, its last entry in the candidate list (-1: none), and per stem, the best similarity of a hit. */
  readonly stemLast: Int32Array;
  readonly stemBest: Float64Array;
  /** Scratch: the candidate-list entries that hit the input being scored, and the stems they hit. */
  readonly hits: number[] = [];
  readonly stemsHit: number[] = [];
  private inputsOfIntent: number[][] | null = null;

  constructor(
    readonly tables: BundlePayload["matching"],
    intentCount: number,
  ) {
    this.stemId = new Map(tables.stems.map((s, id) => [s, id]));
    this.conceptMembers = Array.from(tables.conceptWeight, () => []);
    this.stemForms = new Uint16Array(tables.stems.length);
    for (const s of tables.wordStem) this.stemForms[s]!++;
    const { starts, items } = tables.concepts;
    for (let s = 0; s + 1 < starts.length; s++) for (let k = starts[s]!; k < starts[s + 1]!; k++) this.conceptMembers[items[k]!]!.push(s);
    this.found = new Uint8Array(intentCount);
    this.stemBest = new Float64Array(tables.stems.length);
    this.stemLast = new Int32Array(tables.stems.length).fill(-1);
  }

  /** Per intent: its inputs, then its description (built on the first message, not at load). */
  intentInputs(inputIntent: readonly number[]): number[][] {
    if (!this.inputsOfIntent) {
      this.inputsOfIntent = Array.from(this.found, () => []);
      inputIntent.forEach((intent, input) => this.inputsOfIntent![intent]!.push(input));
    }
    return this.inputsOfIntent;
  }
}

function addCandidate(list: Candidate[], candidate: Candidate): void {
  const known = list.find((c) => c.stem === candidate.stem);
  if (!known) list.push(candidate);
  else if (candidate.sim > known.sim) Object.assign(known, candidate);
}

function termsOf(model: NpcModel, tokens: readonly Token[], words: WordResolver): Term[] {
  const index = model.matching;
  const { weight, wordStem, concepts, conceptWeight, unknownWeight } = index.tables;
  const { wordThreshold } = model.payload.config;
  const seen = new Set<string>();
  const terms: Term[] = [];
  for (const token of tokens) {
    if (seen.has(token.norm)) continue;
    seen.add(token.norm);
    const direct: Candidate[] = [];
    const own = index.stemId.get(token.kind === "word" ? stem(token.norm) : token.norm);
    if (own !== undefined) direct.push({ stem: own, sim: 1, kind: "word", word: words.id(token.norm) ?? -1 });
    else if (token.kind === "word") {
      // Literals and quoted text keep their exact text: "note.txt" is never "corrected" to a word.
      for (const hit of words.correctedLoosely(token.norm)) {
        if (hit.similarity >= wordThreshold) addCandidate(direct, { stem: wordStem[hit.word]!, sim: hit.similarity, kind: "fuzzy", word: hit.word });
      }
    }
    const candidates = [...direct];
    for (const d of direct) {
      for (let k = concepts.starts[d.stem]!; k < concepts.starts[d.stem + 1]!; k++) {
        const c = concepts.items[k]!;
        const sim = d.sim * conceptWeight[c]!;
        for (const member of index.conceptMembers[c]!) {
          if (member !== d.stem) addCandidate(candidates, { stem: member, sim, kind: "synonym", word: -1 });
        }
      }
    }
    let w = 0;
    for (const d of direct) w = Math.max(w, weight[d.stem]!);
    // A word no input uses (a synonym, a WordNet relative) weighs what it can stand for.
    if (w === 0) for (const c of candidates) w = Math.max(w, weight[c.stem]! * c.sim);
    if (w === 0) w = token.kind === "word" ? unknownWeight : unknownWeight * LITERAL_WEIGHT;
    terms.push({ token, candidates, weight: w });
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
): ProbabilisticResult {
  const index = model.matching;
  const { postings } = index.tables;
  const { sentenceThreshold, margin } = model.payload.config;
  const { intents } = model.payload;
  const inputIntent = model.payload.inputs.intent;
  const terms = termsOf(model, tokens, words);
  let messageWeight = 0;
  for (const term of terms) messageWeight += term.weight;

  // Function words ("the", "to") have the longest posting lists and weigh almost nothing: they
  // never find an intent, only add to inputs a real word found.
  const weak = WEAK_SHARE * index.tables.unknownWeight;
  // What each word can add to an intent's precision at most (its weight × its best similarity);
  // words are tried by that, largest first (MaxScore): once the words left could not lift an
  // intent the message has not found yet over the `limit`-th best score, the ranking is final.
  const most = terms.map((term) => term.weight * term.candidates.reduce((m, c) => Math.max(m, c.sim), 0));
  const order = terms.flatMap((term, t) => (term.weight >= weak ? [t] : [])).sort((a, b) => most[b]! - most[a]! || a - b);
  // What the words from the k-th of `order` on (and every function word) can add together.
  let rest = 0;
  terms.forEach((term, t) => (rest += term.weight < weak ? most[t]! : 0));
  const left = order.map(() => 0);
  for (let k = order.length; k-- > 0; ) left[k] = rest += most[order[k]!]!;
  // Recall is at most the best similarity: an input's stored weight is its stems' sum rounded to
  // 1e-6, and a stem weighs at least FUNCTION_FACTOR · ln 2 (compute-idf.ts), hence the 1e-3.
  let recallCap = 1.001;
  for (const term of terms) for (const c of term.candidates) recallCap = Math.max(recallCap, c.sim * 1.001);
  // Above any score an intent found only by the words left can reach.
  const ceiling = (weightLeft: number) => (weightLeft > 0 ? 1 / (RECALL_WEIGHT / recallCap + ((1 - RECALL_WEIGHT) * messageWeight) / weightLeft) : 0);
  // While a context is active the whole ranking is returned, yet the session reads only its first
  // `suggestions` (the explain trace 5) and the best two children of the context: only those
  // need to be exact, the rest of the ranking may be left out.
  const childMode = activeContext !== null;
  const keep = childMode ? Math.max(model.payload.config.suggestions, 5) : limit;
  const prune = keep < intents.length;

  const { found } = index;
  const foundIntents: number[] = [];
  const scored: RankedIntent[] = [];
  /** The `keep` best scores so far, and the two best of the context's children, descending. */
  const best: number[] = [];
  const bestChildren: number[] = [];
  const termBest = new Float64Array(terms.length);
  const inputsOfIntent = index.intentInputs(inputIntent);
  const list = candidateList(index, terms, weak);
  for (let k = 0; k < order.length; k++) {
    const cap = ceiling(left[k]!);
    if (prune && best.length === keep && cap < best[keep - 1]! && (!childMode || (bestChildren.length === 2 && cap < bestChildren[1]!))) break;
    for (const c of terms[order[k]!]!.candidates) {
      for (let p = postings.starts[c.stem]!; p < postings.starts[c.stem + 1]!; p++) {
        const input = postings.items[p]!;
        const intent = inputIntent[input]!;
        if (found[intent] !== 0) continue;
        found[intent] = 1;
        foundIntents.push(intent);
        const parent = intents[intent]!.parent;
        if (parent !== null && parent !== activeContext) continue;
        const ranked = scoreIntent(model, terms, list, messageWeight, intent, inputsOfIntent[intent]!, termBest);
        if (!ranked) continue;
        scored.push(ranked);
        if (prune) keepBest(best, ranked.score, keep);
        if (childMode && parent === activeContext) keepBest(bestChildren, ranked.score, 2);
      }
    }
  }
  for (const intent of foundIntents) found[intent] = 0;
  for (const c of list.candidate) index.stemLast[c.stem] = -1;
  // Only what can make the first `keep` (or is a child of the context) is sorted.
  const ranking = scored.filter((r) => best.length < keep || r.score >= best[keep - 1]! || (childMode && intents[r.intent]!.parent === activeContext)).sort((a, b) => b.score - a.score || a.intent - b.intent);
  const top = ranking[0];
  const runnerUp = ranking[1];
  const accepted = top !== undefined && top.score >= sentenceThreshold && (!runnerUp || top.score - runnerUp.score >= requiredLead(top.score, sentenceThreshold, margin));
  return {
    hit: accepted ? { ...top, items: witness(model, terms, top.input) } : null,
    ranking: childMode ? ranking : ranking.slice(0, limit),
  };
}

/** Inserts a score into a descending list of the `size` best. */
function keepBest(best: number[], score: number, size: number): void {
  if (best.length === size && score <= best[size - 1]!) return;
  let at = Math.min(best.length, size - 1);
  for (; at > 0 && best[at - 1]! < score; at--) best[at] = best[at - 1]!;
  best[at] = score;
}

/**
 * The message's candidates in one list, in the order the words find an input: every candidate of
 * every real word (message order), then those of function words (from `weakFrom`); chained per
 * stem (`stemLast`, `previous`) so an input's few stems find their hits without a search.
 */
interface CandidateList {
  term: number[];
  candidate: Candidate[];
  previous: number[];
  weakFrom: number;
}

function candidateList(index: MatchIndex, terms: readonly Term[], weak: number): CandidateList {
  const list: CandidateList = { term: [], candidate: [], previous: [], weakFrom: 0 };
  for (const pass of [false, true]) {
    if (pass) list.weakFrom = list.term.length;
    terms.forEach((term, t) => {
      if (term.weight < weak !== pass) return;
      for (const c of term.candidates) {
        list.previous.push(index.stemLast[c.stem]!);
        index.stemLast[c.stem] = list.term.length;
        list.term.push(t);
        list.candidate.push(c);
      }
    });
  }
  return list;
}

/**
 * An intent's score: its best input's recall, and the precision of all its inputs and its
 * description together (per message word, the best similarity anywhere), or null when either is 0.
 */
function scoreIntent(
  model: NpcModel,
  terms: readonly Term[],
  list: CandidateList,
  messageWeight: number,
  intent: number,
  inputs: readonly number[],
  termBest: Float64Array,
): RankedIntent | null {
  const index = model.matching;
  const { weight, inputStems, inputWords, inputWeight, firstDescription } = index.tables;
  const { stemLast, stemBest, hits, stemsHit } = index;
  termBest.fill(0);
  let bestRecall = 0;
  let bestInput = -1;
  for (const input of inputs) {
    // The input's hits, kept in the reverse of the list's order (the order they were always
    // folded in: the sums, and so the scores to the last bit, do not depend on how it was reached).
    let count = 0;
    let real = false;
    for (let k = inputStems.starts[input]!; k < inputStems.starts[input + 1]!; k++) {
      const s = inputStems.items[k]!;
      for (let j = stemLast[s]!; j !== -1; j = list.previous[j]!) {
        let at = count++;
        for (; at > 0 && hits[at - 1]! < j; at--) hits[at] = hits[at - 1]!;
        hits[at] = j;
        if (j < list.weakFrom) real = true;
      }
    }
    // Function words only add to an input a real word found.
    if (!real) continue;
    const scale = input < firstDescription ? 1 : DESCRIPTION_WEIGHT;
    let stemCount = 0;
    for (let h = 0; h < count; h++) {
      const j = hits[h]!;
      const c = list.candidate[j]!;
      const t = list.term[j]!;
      // "user" meets "users" through their stem, a little below the very word the input uses.
      const sameWord = c.word < 0 || index.stemForms[c.stem]! < 2 || input >= firstDescription || includesSorted(inputWords, input, c.word);
      const sim = sameWord ? c.sim : c.sim * OTHER_FORM;
      if (sim * scale > termBest[t]!) termBest[t] = sim * scale;
      if (stemBest[c.stem] === 0) stemsHit[stemCount++] = c.stem;
      if (sim > stemBest[c.stem]!) stemBest[c.stem] = sim;
    }
    let matchedInput = 0;
    for (let h = 0; h < stemCount; h++) {
      matchedInput += weight[stemsHit[h]!]! * stemBest[stemsHit[h]!]!;
      stemBest[stemsHit[h]!] = 0;
    }
    if (input >= firstDescription || inputWeight[input]! === 0) continue;
    const recall = matchedInput / inputWeight[input]!;
    if (recall > bestRecall || (recall === bestRecall && (bestInput === -1 || input < bestInput))) {
      bestRecall = recall;
      bestInput = input;
    }
  }
  let matchedMessage = 0;
  for (let t = 0; t < terms.length; t++) matchedMessage += terms[t]!.weight * termBest[t]!;
  const precision = messageWeight > 0 ? matchedMessage / messageWeight : 0;
  if (bestRecall === 0 || precision === 0) return null;
  return { intent, input: bestInput, score: 1 / (RECALL_WEIGHT / bestRecall + (1 - RECALL_WEIGHT) / precision) };
}

/**
 * The lead the winner needs over the runner-up: the full `margin` at the threshold, shrinking
 * with what the winner leaves unexplained (1 − score). Two partial matches close together are a
 * coin flip; a near-complete match whose runner-up is a close paraphrase (another entry using a
 * synonym of one word) is not.
 */
function requiredLead(score: number, threshold: number, margin: number): number {
  return threshold >= 1 ? margin : margin * Math.min(1, Math.max(0, (1 - score) / (1 - threshold)));
}

/** For the winning input: which stem each message word matched (or that it matched nothing). */
function witness(model: NpcModel, terms: readonly Term[], input: number): WitnessItem[] {
  const { inputStems, stems, unknownWeight } = model.matching.tables;
  const weak = WEAK_SHARE * unknownWeight;
  return terms.map(({ token, candidates, weight }) => {
    let chosen: Candidate | undefined;
    for (const c of candidates) if ((!chosen || c.sim > chosen.sim) && includesSorted(inputStems, input, c.stem)) chosen = c;
    if (chosen) return { word: token.text, kind: chosen.kind, matched: stems[chosen.stem]! };
    return { word: token.text, kind: weight < weak ? ("stop word" as const) : ("unknown" as const), matched: "" };
  });
}

/** Whether row `row` of `rows` (ascending) holds `value`. */
function includesSorted({ starts, items }: BundleRows, row: number, value: number): boolean {
  let lo = starts[row]!;
  const end = starts[row + 1]!;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < end && items[lo] === value;
}
