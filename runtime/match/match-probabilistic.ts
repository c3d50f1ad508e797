// Stage probabilistic: a match, deterministic and independent of word order.
//
// Each message word becomes weighted candidate stems: its own Porter stem, else its typo
// corrections from the fuzzy index (similarity 1 − edits/length, at least `wordThreshold`, never
// for literals or quoted text), plus every stem sharing a concept with those (dataset synonyms
// count `synonymContribution`, WordNet relatives from `ndfc build --wordnet` less). The inverted
// index over stems yields the intents sharing a candidate: only those are scored, and not all of
// them (MaxScore): words are tried by the most they can add, and once the words left could not
// lift an intent not yet found over the `limit`-th best score, no more intents are looked for.
// Common words thus only add to intents rarer words found; the ranking is the same as scoring all.
// The message's hits are read off the postings once (collectHits): an intent's score walks only
// its inputs a real word hit, and their hits.
//
// Scoring is IDF-weighted and asymmetric. For an input I and the message M:
//   recall    R = Σ_{s ∈ I} w(s)·best sim of a message word to s  / Σ_{s ∈ I} w(s)
//   precision P = Σ_{m ∈ M} w(m)·best sim of m to a stem of I     / Σ_{m ∈ M} w(m)
//   score     = 1 / (RECALL_WEIGHT / R + (1 − RECALL_WEIGHT) / P)
// so a missing input word costs more than an extra message word. Function words weigh almost
// nothing on both sides (compiler/passes/compute-matching.ts); a word the NPC has never seen weighs
// the mean IDF (it counts against). An intent scores its best input's recall with the precision of
// all its inputs and describing text together. The winner needs `sentenceThreshold` and must beat the runner-up by
// `margin` (scaled down for a near-complete match, see requiredLead), and half the threshold
// without the message's WordNet relatives (ownEvidence); otherwise the stage abstains and the
// ranking becomes `related`.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleRows } from "../bundle/bundle-types.js";
import type { NpcModel } from "../bundle/model.js";
import type { Token } from "../text/normalize.js";
import { FUNCTION_WORDS_MOST, KIND_FUZZY, KIND_RELATIVE, KIND_SYNONYM, KIND_WORD, ProbabilisticScratch, RECALL_CAP, WEAK_MOST } from "./probabilistic-scratch.js";
import type { WitnessItem } from "../response.js";
import { includesSorted } from "./sorted.js";
import { stem } from "../text/stem.js";
import type { WordResolver } from "../text/word-resolver.js";

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
/** Witness kinds of the candidate kinds (KIND_WORD, KIND_FUZZY, KIND_SYNONYM, KIND_RELATIVE). */
const KIND_NAMES = ["word", "fuzzy", "synonym", "synonym"] as const;

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

/** Adds a candidate to the current term's run (from `from`), or raises the similarity of the one of that stem. */
const addCandidate = (function addCandidate(scratch: ProbabilisticScratch, from: number, stem: number, sim: number, kind: number, word: number): void {
  for (let k = from; k < scratch.candidates; k++) {
    if (scratch.candidateStem[k] !== stem) continue;
    if (sim > scratch.candidateSim[k]!) {
      scratch.candidateSim[k] = sim;
      scratch.candidateKind[k] = kind;
      scratch.candidateWord[k] = word;
    }
    return;
  }
  scratch.pushCandidate(stem, sim, kind, word);
});

/** Whether a token before `at` has the same normalized form (a message has few words: a scan, no set). */
const seenBefore = (function seenBefore(tokens: readonly Token[], at: number): boolean {
  const norm = tokens[at]!.norm;
  for (let k = 0; k < at; k++) if (tokens[k]!.norm === norm) return true;
  return false;
});

/**
 * The message's terms (one per distinct word) into the scratch: each term's token, candidate stems
 * with their similarity (its own stem, else its typo corrections; then every stem sharing a concept
 * with those), and weight. Returns the number of terms.
 */
const collectTerms = (function collectTerms(model: NpcModel, tokens: readonly Token[], words: WordResolver): number {
  const index = model.matching;
  const { scratch } = index;
  const { weight, wordStem, concepts, conceptWeight, unknownWeight } = index.tables;
  const { wordThreshold, synonymContribution } = model.payload.config;
  scratch.reserveTerms(tokens.length);
  let count = 0;
  for (let at = 0; at < tokens.length; at++) {
    if (seenBefore(tokens, at)) continue;
    const token = tokens[at]!;
    const from = scratch.candidates;
    const id = words.id(token.norm);
    // A lexicon word's stem is in the bundle (the compiler stems every lexicon word): no stem() per known word.
    const own = token.kind !== "word" ? index.stemId.get(token.norm) : id !== undefined ? wordStem[id] : index.stemId.get(stem(token.norm));
    if (own !== undefined) scratch.pushCandidate(own, 1, KIND_WORD, id ?? -1);
    else if (token.kind === "word") {
      // Literals and quoted text keep their exact text: "note.txt" is never "corrected" to a word.
      const hits = words.correctedLoosely(token.norm);
      for (let h = 0; h < hits.length; h++) {
        const hit = hits[h]!;
        if (hit.similarity >= wordThreshold) addCandidate(scratch, from, wordStem[hit.word]!, hit.similarity, KIND_FUZZY, hit.word);
      }
    }
    const direct = scratch.candidates;
    for (let d = from; d < direct; d++) {
      const own = scratch.candidateStem[d]!;
      for (let k = concepts.starts[own]!; k < concepts.starts[own + 1]!; k++) {
        const c = concepts.items[k]!;
        // Read here, not once: a synonym found earlier may have raised this candidate's similarity.
        const sim = scratch.candidateSim[d]! * conceptWeight[c]!;
        const members = index.conceptMembers[c]!;
        // A concept weaker than the dataset's synonyms is a WordNet relative's (a stem found both ways keeps its better one).
        const kind = conceptWeight[c]! < synonymContribution ? KIND_RELATIVE : KIND_SYNONYM;
        for (let m = 0; m < members.length; m++) if (members[m] !== own) addCandidate(scratch, from, members[m]!, sim, kind, -1);
      }
    }
    let w = 0;
    for (let d = from; d < direct; d++) w = Math.max(w, weight[scratch.candidateStem[d]!]!);
    // A word no input uses (a synonym, a WordNet relative) weighs what it can stand for.
    if (w === 0) for (let c = from; c < scratch.candidates; c++) w = Math.max(w, weight[scratch.candidateStem[c]!]! * scratch.candidateSim[c]!);
    if (w === 0) w = token.kind === "word" ? unknownWeight : unknownWeight * LITERAL_WEIGHT;
    scratch.termToken[count] = at;
    scratch.termWeight[count] = w;
    scratch.termFrom[count] = from;
    scratch.termTo[count] = scratch.candidates;
    count++;
  }
  // A candidate's word matters only where its stem has another form (scoreIntents): else none, checked once here.
  const { candidateStem, candidateWord } = scratch;
  for (let c = 0; c < scratch.candidates; c++) if (index.stemForms[candidateStem[c]!]! < 2) candidateWord[c] = -1;
  return count;
});

/** Sorts `order[0 … count)` by what each term can add, largest first, then by term (insertion sort: a message has few words). */
const sortByMost = (function sortByMost(order: Int32Array, count: number, most: Float64Array): void {
  for (let i = 1; i < count; i++) {
    const t = order[i]!;
    let at = i;
    for (; at > 0 && (most[order[at - 1]!]! < most[t]! || (most[order[at - 1]!] === most[t] && order[at - 1]! > t)); at--) order[at] = order[at - 1]!;
    order[at] = t;
  }
});

/**
 * The hits of the message's real words, once per message (message order): each input their
 * postings hold gets its hits, newest first, and its intent a list of such inputs and the rank
 * (in `order`) of the first real word that finds it (byRank then lists them by it). An intent's
 * score then walks those alone, not every stem of every input. A function word finds no intent
 * (it only adds to an input a real word found): its postings are walked after the real words', and
 * only the inputs those hit get its hits, in a list of their own (inputWeakHit), newest first.
 */
const collectHits = (function collectHits(model: NpcModel, terms: number, weak: number): void {
  const { scratch } = model.matching;
  const { starts, items } = model.matching.tables.postings;
  const inputIntent = model.payload.inputs.intent;
  const { weight } = model.matching.tables;
  const { termWeight, termFrom, termTo, termMost, candidateStem, candidateSim } = scratch;
  let count = 0;
  for (let c = 0; c < scratch.candidates; c++) count += starts[candidateStem[c]! + 1]! - starts[candidateStem[c]!]!;
  scratch.reserveHits(count);
  const { inputHit, inputWeakHit, inputNext, inputMost, intentInput, intentRank, intentTerm, intentMost, hitIntents, termRank, hitTerm, hitCandidate, hitPrevious, hitInputs, weakTerm, weakCandidate } = scratch;
  let at = 0;
  let weakMost = 0;
  for (let t = 0; t < terms; t++) {
    if (termWeight[t]! < weak) {
      for (let c = termFrom[t]!; c < termTo[t]!; c++) {
        weakTerm[scratch.weakCount] = t;
        weakCandidate[scratch.weakCount++] = c;
        weakMost += weight[candidateStem[c]!]! * candidateSim[c]!;
      }
      continue;
    }
    const rank = termRank[t]!;
    for (let c = termFrom[t]!; c < termTo[t]!; c++) {
      const s = candidateStem[c]!;
      const most = weight[s]! * candidateSim[c]!;
      for (let p = starts[s]!; p < starts[s + 1]!; p++) {
        const input = items[p]!;
        const intent = inputIntent[input]!;
        // A term's postings are walked together: the intent's last term tells whether this one is counted yet.
        if (intentTerm[intent] !== t) {
          if (intentTerm[intent] === -1) {
            // Found now: its other marks are set here, so that only intentTerm is reset after the message.
            hitIntents[scratch.hitIntentCount++] = intent;
            intentRank[intent] = rank;
            intentMost[intent] = termMost[t]!;
            intentInput[intent] = -1;
          } else {
            if (rank < intentRank[intent]!) intentRank[intent] = rank;
            intentMost[intent]! += termMost[t]!;
          }
          intentTerm[intent] = t;
        }
        const previous = inputHit[input]!;
        if (previous === -1) {
          // Likewise an input's: only inputHit is reset.
          hitInputs[scratch.hitInputCount++] = input;
          inputNext[input] = intentInput[intent]!;
          intentInput[intent] = input;
          inputWeakHit[input] = -1;
          inputMost[input] = most;
        } else inputMost[input]! += most;
        hitTerm[at] = t;
        hitCandidate[at] = c;
        hitPrevious[at] = previous;
        inputHit[input] = at++;
      }
    }
  }
  scratch.bounds[WEAK_MOST] = weakMost;
  for (let w = 0; w < scratch.weakCount; w++) {
    const c = weakCandidate[w]!;
    const s = candidateStem[c]!;
    for (let p = starts[s]!; p < starts[s + 1]!; p++) {
      const input = items[p]!;
      if (inputHit[input] === -1) continue;
      hitTerm[at] = weakTerm[w]!;
      hitCandidate[at] = c;
      hitPrevious[at] = inputWeakHit[input]!;
      inputWeakHit[input] = at++;
    }
  }
});

/** Inserts a score into a descending list of the `size` best (`count` of them so far); returns the new count. */
const keepBest = (function keepBest(best: Float64Array, count: number, score: number, size: number): number {
  if (count === size && score <= best[size - 1]!) return count;
  let at = Math.min(count, size - 1);
  for (; at > 0 && best[at - 1]! < score; at--) best[at] = best[at - 1]!;
  best[at] = score;
  return Math.min(count + 1, size);
});

export const matchProbabilistic = (function matchProbabilistic(
  model: NpcModel,
  tokens: readonly Token[],
  limit: number,
  words: WordResolver,
  /** The intent whose context children may answer now, or null. */
  activeContext: number | null,
): ProbabilisticResult {
  const index = model.matching;
  const { scratch } = index;
  const { unknownWeight } = index.tables;
  const { sentenceThreshold, margin, suggestions } = model.payload.config;
  const { intents } = model.payload;
  scratch.reset();
  const terms = collectTerms(model, tokens, words);
  const { termWeight, termMost, termFrom, termTo, candidateSim, order, left } = scratch;
  let messageWeight = 0;
  for (let t = 0; t < terms; t++) messageWeight += termWeight[t]!;
  scratch.messageWeight = messageWeight;

  // Function words ("the", "to") have the longest posting lists and weigh almost nothing: they
  // never find an intent, only add to inputs a real word found.
  const weak = WEAK_SHARE * unknownWeight;
  // What each word can add to an intent's precision at most (its weight × its best similarity);
  // words are tried by that, largest first (MaxScore): once the words left could not lift an
  // intent the message has not found yet over the `limit`-th best score, the ranking is final.
  // Recall is at most the best similarity: an input's stored weight is its stems' sum rounded to
  // 1e-6, and a stem weighs at least FUNCTION_FACTOR · ln 2 (compute-matching.ts), hence the 1e-3.
  let recallCap = 1.001;
  let realWords = 0;
  for (let t = 0; t < terms; t++) {
    let most = 0;
    for (let c = termFrom[t]!; c < termTo[t]!; c++) {
      most = Math.max(most, candidateSim[c]!);
      recallCap = Math.max(recallCap, candidateSim[c]! * 1.001);
    }
    termMost[t] = termWeight[t]! * most;
    if (termWeight[t]! >= weak) order[realWords++] = t;
  }
  sortByMost(order, realWords, termMost);
  // What the words from the k-th of `order` on (and every function word) can add together.
  let rest = 0;
  for (let t = 0; t < terms; t++) rest += termWeight[t]! < weak ? termMost[t]! : 0;
  scratch.bounds[RECALL_CAP] = recallCap;
  scratch.bounds[FUNCTION_WORDS_MOST] = rest;
  for (let k = realWords; k-- > 0; ) left[k] = rest += termMost[order[k]!]!;
  // While a context is active the whole ranking is returned, yet the session reads only its first
  // `suggestions` (the explain trace 5) and the best two children of the context: only those
  // need to be exact, the rest of the ranking may be left out.
  const childMode = activeContext !== null;
  const keep = childMode ? Math.max(suggestions, 5) : limit;
  const prune = keep < intents.length;

  const { best, bestChildren, termRank, byRank, rankStart, scoredScore, scoredIntent } = scratch;
  for (let k = 0; k < realWords; k++) termRank[order[k]!] = k;
  collectHits(model, terms, weak);
  scratch.sortByRank(realWords);
  for (let k = 0; k < realWords; k++) {
    // Above any score an intent found only by the words left can reach.
    const weightLeft = left[k]!;
    const cap = weightLeft > 0 ? 1 / (RECALL_WEIGHT / recallCap + ((1 - RECALL_WEIGHT) * messageWeight) / weightLeft) : 0;
    if (prune && scratch.bestCount === keep && cap < best[keep - 1]! && (!childMode || (scratch.bestChildrenCount === 2 && cap < bestChildren[1]!))) break;
    // The intents this word finds first (their order within a rank changes no score, nor the ranking: maxima and sorted lists).
    const first = scratch.scored;
    scoreIntents(model, byRank, rankStart[k]!, rankStart[k + 1]!, activeContext, false, prune ? keep : 0);
    if (childMode) {
      for (let at = first; at < scratch.scored; at++) {
        if (intents[scoredIntent[at]!]!.parent === activeContext) scratch.bestChildrenCount = keepBest(bestChildren, scratch.bestChildrenCount, scoredScore[at]!, 2);
      }
    }
  }
  const ranking = rankingOf(model, keep, childMode ? scratch.scored : limit, activeContext);
  const top = ranking[0];
  const runnerUp = ranking[1];
  const accepted =
    top !== undefined &&
    top.score >= sentenceThreshold &&
    (!runnerUp || top.score - runnerUp.score >= requiredLead(top.score, sentenceThreshold, margin)) &&
    ownEvidence(model, top.intent, activeContext) >= sentenceThreshold / 2;
  scratch.clearMarks();
  return { hit: accepted ? { ...top, items: witness(model, tokens, terms, top.input) } : null, ranking };
});

/**
 * An intent's score without the message's WordNet relatives (ndfc build --wordnet): from its own
 * words, their typo corrections and the dataset's synonyms alone. The winner needs half the
 * threshold of it (the floor suggestions need, session.ts): relatives may lift a match the
 * message nearly makes, not make one. An off-topic message mostly meets an entry through a rare
 * sense of a common word ("revolution" for "subversive", "holds" for "check"). Without relatives
 * it is the score itself. Recorded after the ranking was read, in the scored list's spare entry.
 */
const ownEvidence = (function ownEvidence(model: NpcModel, intent: number, activeContext: number | null): number {
  const { scratch } = model.matching;
  const at = scratch.scored;
  scratch.one[0] = intent;
  scoreIntents(model, scratch.one, 0, 1, activeContext, true, 0);
  return at === scratch.scored ? 0 : scratch.scoredScore[at]!;
});

/**
 * The ranking, best first (score, then intent): of the scored intents, those that can make the
 * first `keep` (or are children of the active context), at most `size` of them. Only these become
 * objects.
 */
const rankingOf = (function rankingOf(model: NpcModel, keep: number, size: number, activeContext: number | null): RankedIntent[] {
  const { scratch } = model.matching;
  const { scoredIntent, scoredScore, rankingOrder: sorted } = scratch;
  const { intents } = model.payload;
  const floor = scratch.bestCount < keep ? -Infinity : scratch.best[keep - 1]!;
  let count = 0;
  for (let i = 0; i < scratch.scored; i++) {
    if (!(scoredScore[i]! >= floor || (activeContext !== null && intents[scoredIntent[i]!]!.parent === activeContext))) continue;
    let at = count++;
    for (; at > 0 && ranksBefore(scratch, i, sorted[at - 1]!); at--) sorted[at] = sorted[at - 1]!;
    sorted[at] = i;
  }
  // Sized once (a pushed-to array grows its store to 17 entries at the first push); counted, as
  // `size` comes from the bundle and need not be a whole number.
  let length = 0;
  while (length < count && length < size) length++;
  const ranking = new Array<RankedIntent>(length);
  for (let k = 0; k < ranking.length; k++) {
    const i = sorted[k]!;
    ranking[k] = { intent: scoredIntent[i]!, score: scoredScore[i]!, input: scratch.scoredInput[i]! };
  }
  return ranking;
});

/** Whether scored entry `a` ranks before `b`: higher score, then lower intent. */
const ranksBefore = (function ranksBefore(scratch: ProbabilisticScratch, a: number, b: number): boolean {
  const sa = scratch.scoredScore[a]!;
  const sb = scratch.scoredScore[b]!;
  return sa > sb || (sa === sb && scratch.scoredIntent[a]! < scratch.scoredIntent[b]!);
});

/**
 * The scores of the intents `list[from … to)` that may answer now (top level, or children of the
 * active context): each its best input's recall, and the precision of all its inputs and its
 * description together (per message word, the best similarity anywhere); `withoutRelatives`, as if
 * the message's WordNet relatives were not there (ownEvidence). Each is recorded in the scratch's
 * scored list unless either is 0. With `keep` > 0 (the ranking is pruned to the `keep` best)
 * each score joins the scratch's best, and once there are `keep` of them a top-level intent whose
 * words could not lift it over the `keep`-th is not scored: it could not enter the ranking (a
 * child of the active context is in it whatever its score). A list at a time, so what every
 * intent reads (the tables and the scratch's arrays) is read once. Only integers cross the call:
 * a double is boxed, a heap number per call.
 */
const scoreIntents = (function scoreIntents(model: NpcModel, list: Int32Array, from: number, to: number, activeContext: number | null, withoutRelatives: boolean, keep: number): void {
  const index = model.matching;
  const { weight, inputWords, inputWeight, firstDescription } = index.tables;
  const { scratch } = index;
  const { intents } = model.payload;
  const { stemBest, stemsHit, termsHit, termWeight, termBest, candidateStem, candidateSim, candidateWord, candidateKind, intentInput, inputHit, inputWeakHit, inputNext, hitTerm, hitCandidate, hitPrevious, scoredIntent, scoredInput, scoredScore } = scratch;
  const { messageWeight, intentMost, inputMost, bounds } = scratch;
  const { best } = scratch;
  let floor = keep > 0 && scratch.bestCount === keep ? best[keep - 1]! : 0;
  for (let i = from; i < to; i++) {
    const intent = list[i]!;
    const parent = intents[intent]!.parent;
    if (parent !== null && parent !== activeContext) continue;
    if (floor > 0 && parent === null) {
      // Its precision is at most what the words that found it and the function words can add, so
      // reaching the floor takes a recall of at least `needed`; an input's recall is at most what
      // the candidates its real words hit and every function word's can add (the slack covers
      // summing in another order). An intent none of whose inputs can reach it is left out.
      const room = 1 / floor - ((1 - RECALL_WEIGHT) * messageWeight) / ((intentMost[intent]! + bounds[FUNCTION_WORDS_MOST]!) * (1 + 1e-9));
      const needed = RECALL_WEIGHT / room;
      if (room <= 0 || bounds[RECALL_CAP]! < needed) continue;
      let input = intentInput[intent]!;
      for (; input !== -1; input = inputNext[input]!) if (input < firstDescription && (inputMost[input]! + bounds[WEAK_MOST]!) * (1 + 1e-9) >= needed * inputWeight[input]!) break;
      if (input === -1) continue;
    }
    let bestRecall = 0;
    let bestInput = -1;
    let termCount = 0;
    // Only inputs a real word hit (function words only add to an input a real word found); the
    // order of inputs does not matter (maxima, and ties go to the lower input).
    for (let input = intentInput[intent]!; input !== -1; input = inputNext[input]!) {
      const scale = input < firstDescription ? 1 : DESCRIPTION_WEIGHT;
      let stemCount = 0;
      // The input's hits newest first, the function words' (last found) before the real words'
      // (the order they were always folded in: the sums, and so the scores to the last bit, do not
      // depend on how it was reached).
      for (let h = inputHit[input]!, g = inputWeakHit[input]!; ; ) {
        let c: number;
        let t: number;
        if (g !== -1) {
          c = hitCandidate[g]!;
          t = hitTerm[g]!;
          g = hitPrevious[g]!;
        } else if (h !== -1) {
          c = hitCandidate[h]!;
          t = hitTerm[h]!;
          h = hitPrevious[h]!;
        } else break;
        if (withoutRelatives && candidateKind[c] === KIND_RELATIVE) continue;
        const s = candidateStem[c]!;
        const word = candidateWord[c]!;
        // "user" meets "users" through their stem, a little below the very word the input uses.
        const sim = word < 0 || input >= firstDescription || rowIncludes(inputWords, input, word) ? candidateSim[c]! : candidateSim[c]! * OTHER_FORM;
        if (sim * scale > termBest[t]!) {
          // The terms met, ascending (a message has few words): summed in term order below.
          if (termBest[t] === 0) {
            let at = termCount++;
            for (; at > 0 && termsHit[at - 1]! > t; at--) termsHit[at] = termsHit[at - 1]!;
            termsHit[at] = t;
          }
          termBest[t] = sim * scale;
        }
        if (stemBest[s] === 0) stemsHit[stemCount++] = s;
        if (sim > stemBest[s]!) stemBest[s] = sim;
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
    // Only the terms met: one that met no stem would add +0, which leaves the sum's bits as they are.
    let matchedMessage = 0;
    for (let k = 0; k < termCount; k++) {
      const t = termsHit[k]!;
      matchedMessage += termWeight[t]! * termBest[t]!;
      termBest[t] = 0;
    }
    const precision = messageWeight > 0 ? matchedMessage / messageWeight : 0;
    if (bestRecall === 0 || precision === 0) continue;
    const at = scratch.scored++;
    scoredIntent[at] = intent;
    scoredInput[at] = bestInput;
    const score = (scoredScore[at] = 1 / (RECALL_WEIGHT / bestRecall + (1 - RECALL_WEIGHT) / precision));
    if (keep > 0) {
      scratch.bestCount = keepBest(best, scratch.bestCount, score, keep);
      if (scratch.bestCount === keep) floor = best[keep - 1]!;
    }
  }
});

/**
 * The lead the winner needs over the runner-up: the full `margin` at the threshold, shrinking
 * with what the winner leaves unexplained (1 − score). Two partial matches close together are a
 * coin flip; a near-complete match whose runner-up is a close paraphrase (another entry using a
 * synonym of one word) is not.
 */
const requiredLead = (function requiredLead(score: number, threshold: number, margin: number): number {
  return threshold >= 1 ? margin : margin * Math.min(1, Math.max(0, (1 - score) / (1 - threshold)));
});

/** For the winning input: which stem each message word matched (or that it matched nothing). Read from the scratch, which still holds the message's terms. */
const witness = (function witness(model: NpcModel, tokens: readonly Token[], terms: number, input: number): WitnessItem[] {
  const { inputStems, stems, unknownWeight } = model.matching.tables;
  const { termToken, termFrom, termTo, termWeight, candidateStem, candidateSim, candidateKind } = model.matching.scratch;
  const weak = WEAK_SHARE * unknownWeight;
  const items: WitnessItem[] = [];
  for (let t = 0; t < terms; t++) {
    const word = tokens[termToken[t]!]!.text;
    let chosen = -1;
    for (let c = termFrom[t]!; c < termTo[t]!; c++) {
      if ((chosen === -1 || candidateSim[c]! > candidateSim[chosen]!) && rowIncludes(inputStems, input, candidateStem[c]!)) chosen = c;
    }
    if (chosen !== -1) items.push({ word, kind: KIND_NAMES[candidateKind[chosen]!]!, matched: stems.at(candidateStem[chosen]!) });
    else items.push({ word, kind: termWeight[t]! < weak ? "stop word" : "unknown", matched: "" });
  }
  return items;
});

/** Whether row `row` of `rows` (each row ascending) holds `value`. */
const rowIncludes = (function rowIncludes({ starts, items }: BundleRows, row: number, value: number): boolean {
  return includesSorted(items, value, starts[row]!, starts[row + 1]!);
});
