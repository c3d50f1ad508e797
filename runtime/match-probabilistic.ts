// Stage 5: probabilistic match, deterministic and independent of word order.
//
// Each message word becomes weighted candidate stems: its own Porter stem, else its typo
// corrections from the fuzzy index (similarity 1 − edits/length, at least `wordThreshold`, never
// for literals or quoted text), plus every stem sharing a concept with those (dataset synonyms
// count `synonymContribution`, WordNet relatives from `ndfc build --wordnet` less). The inverted
// index over stems yields the inputs sharing a candidate: only those are scored.
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

import type { BundlePayload } from "./bundle-types.js";
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
  /** Eligible intents by descending score (best input each), at most `limit`. */
  ranking: RankedIntent[];
}

/** The bundle's matching tables in the shape the matcher walks, plus reusable scratch buffers. */
export class MatchIndex {
  readonly stemId: Map<string, number>;
  readonly conceptMembers: number[][];
  /** Per stem: how many lexicon words have it. */
  readonly stemForms: Uint16Array;
  /** Per input: first hit of the current message (index into the hit buffers), or -1. */
  readonly head: Int32Array;
  /** Scratch, reset after each message: hit buffers, touched inputs, per-intent slot, per-stem best. */
  readonly next: number[] = [];
  readonly hitTerm: number[] = [];
  readonly hitStem: number[] = [];
  readonly hitSim: number[] = [];
  readonly touched: number[] = [];
  readonly intentSlot: Int32Array;
  readonly stemBest: Float64Array;

  constructor(
    readonly tables: BundlePayload["matching"],
    intentCount: number,
  ) {
    this.stemId = new Map(tables.stems.map((s, id) => [s, id]));
    this.conceptMembers = tables.conceptWeight.map(() => []);
    this.stemForms = new Uint16Array(tables.stems.length);
    for (const s of tables.wordStem) this.stemForms[s]!++;
    tables.concepts.forEach((list, s) => list.forEach((c) => this.conceptMembers[c]!.push(s)));
    this.head = new Int32Array(tables.inputWeight.length).fill(-1);
    this.intentSlot = new Int32Array(intentCount).fill(-1);
    this.stemBest = new Float64Array(tables.stems.length);
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
      const length = token.norm.length;
      for (const hit of words.correctedLoosely(token.norm)) {
        const sim = 1 - hit.distance / Math.max(length, model.payload.lexicon.words[hit.word]!.length);
        if (sim >= wordThreshold) addCandidate(direct, { stem: wordStem[hit.word]!, sim, kind: "fuzzy", word: hit.word });
      }
    }
    const candidates = [...direct];
    for (const d of direct) {
      for (const c of concepts[d.stem]!) {
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
  const { weight, postings, inputStems, inputWords, inputWeight, firstDescription } = index.tables;
  const { sentenceThreshold, margin } = model.payload.config;
  const inputIntent = model.payload.inputs.intent;
  const terms = termsOf(model, tokens, words);
  let messageWeight = 0;
  for (const term of terms) messageWeight += term.weight;

  // Hits (input, term, stem, sim) chained per input through `head` / `next`, in reused buffers.
  const { head, next, hitTerm, hitStem, hitSim, touched } = index;
  next.length = hitTerm.length = hitStem.length = hitSim.length = touched.length = 0;
  const addHit = (input: number, t: number, c: Candidate) => {
    if (head[input] === -1) touched.push(input);
    next.push(head[input]!);
    head[input] = hitTerm.length;
    hitTerm.push(t);
    hitStem.push(c.stem);
    // "user" meets "users" through their stem, a little below the very word the input uses.
    const sameWord = c.word < 0 || index.stemForms[c.stem]! < 2 || input >= firstDescription || includesSorted(inputWords[input]!, c.word);
    hitSim.push(sameWord ? c.sim : c.sim * OTHER_FORM);
  };
  // Function words ("the", "to") have the longest posting lists and weigh almost nothing: they
  // only add to inputs a real word found, which changes no ranking and saves most of the work.
  const weak = WEAK_SHARE * index.tables.unknownWeight;
  terms.forEach((term, t) => {
    if (term.weight < weak) return;
    for (const c of term.candidates) for (const input of postings[c.stem]!) addHit(input, t, c);
  });
  const found = touched.length;
  terms.forEach((term, t) => {
    if (term.weight >= weak) return;
    for (const c of term.candidates) {
      for (let k = 0; k < found; k++) if (includesSorted(inputStems[touched[k]!]!, c.stem)) addHit(touched[k]!, t, c);
    }
  });

  // One slot per eligible intent: its best recall (and input) and, per term, the best similarity
  // anywhere in its inputs (what makes its precision).
  const { intentSlot, stemBest } = index;
  const slotIntent: number[] = [];
  for (const input of touched) {
    const intent = inputIntent[input]!;
    const parent = model.payload.intents[intent]!.parent;
    if (intentSlot[intent] === -1 && (parent === null || parent === activeContext)) {
      intentSlot[intent] = slotIntent.length;
      slotIntent.push(intent);
    }
  }
  const T = terms.length;
  const slotTerms = new Float64Array(slotIntent.length * T);
  const slotRecall = new Float64Array(slotIntent.length);
  const slotInput = new Int32Array(slotIntent.length).fill(-1);
  const stemsHit: number[] = [];
  for (const input of touched) {
    const slot = intentSlot[inputIntent[input]!]!;
    const scale = input < firstDescription ? 1 : DESCRIPTION_WEIGHT;
    stemsHit.length = 0;
    for (let h = head[input]!; h !== -1; h = next[h]!) {
      if (slot === -1) continue;
      const sim = hitSim[h]!;
      const at = slot * T + hitTerm[h]!;
      if (sim * scale > slotTerms[at]!) slotTerms[at] = sim * scale;
      const stemOfHit = hitStem[h]!;
      if (stemBest[stemOfHit] === 0) stemsHit.push(stemOfHit);
      if (sim > stemBest[stemOfHit]!) stemBest[stemOfHit] = sim;
    }
    head[input] = -1;
    let matchedInput = 0;
    for (const stemOfHit of stemsHit) {
      matchedInput += weight[stemOfHit]! * stemBest[stemOfHit]!;
      stemBest[stemOfHit] = 0;
    }
    if (slot === -1 || input >= firstDescription || inputWeight[input]! === 0) continue;
    const recall = matchedInput / inputWeight[input]!;
    if (recall > slotRecall[slot]! || (recall === slotRecall[slot]! && (slotInput[slot] === -1 || input < slotInput[slot]!))) {
      slotRecall[slot] = recall;
      slotInput[slot] = input;
    }
  }
  const scored: RankedIntent[] = [];
  slotIntent.forEach((intent, slot) => {
    intentSlot[intent] = -1;
    const recall = slotRecall[slot]!;
    let matchedMessage = 0;
    for (let t = 0; t < T; t++) matchedMessage += terms[t]!.weight * slotTerms[slot * T + t]!;
    const precision = messageWeight > 0 ? matchedMessage / messageWeight : 0;
    if (recall === 0 || precision === 0) return;
    scored.push({ intent, input: slotInput[slot]!, score: 1 / (RECALL_WEIGHT / recall + (1 - RECALL_WEIGHT) / precision) });
  });
  const ranking = scored.sort((a, b) => b.score - a.score || a.intent - b.intent);
  const top = ranking[0];
  const runnerUp = ranking[1];
  const accepted = top !== undefined && top.score >= sentenceThreshold && (!runnerUp || top.score - runnerUp.score >= requiredLead(top.score, sentenceThreshold, margin));
  return {
    hit: accepted ? { ...top, items: witness(model, terms, top.input) } : null,
    ranking: ranking.slice(0, limit),
  };
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
  const stemsOfInput = inputStems[input]!;
  return terms.map(({ token, candidates, weight }) => {
    let chosen: Candidate | undefined;
    for (const c of candidates) if ((!chosen || c.sim > chosen.sim) && stemsOfInput.includes(c.stem)) chosen = c;
    if (chosen) return { word: token.text, kind: chosen.kind, matched: stems[chosen.stem]! };
    return { word: token.text, kind: weight < weak ? ("stop word" as const) : ("unknown" as const), matched: "" };
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
