// Scratch buffers of the probabilistic stage, one set per model, reused by every message: the
// stage allocates nothing per message but its answer (issue #15: a young GC on ~1 % of calls was
// the whole p99). A message leaves them as it found them (the per-stem marks, and the marks that
// say an input or an intent was hit, are reset after each message; what else is kept per input or
// intent is set when it is first hit), so no state passes from one message to the next. Arrays
// grow to the largest message seen and stay that size.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

/** `array` if it holds `size` entries, else a copy with room for at least `size` (doubling). */
const grown = (function grown<T extends Int32Array | Float64Array>(array: T, size: number, make: (length: number) => T): T {
  if (size <= array.length) return array;
  const bigger = make(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
});

const ints = (length: number) => new Int32Array(length);
const floats = (length: number) => new Float64Array(length);

export const KIND_WORD = 0;
export const KIND_FUZZY = 1;
export const KIND_SYNONYM = 2;
/** A WordNet relative (ndfc build --wordnet): a concept weaker than the dataset's synonyms. */
export const KIND_RELATIVE = 3;

/** scratch.bounds[RECALL_CAP]: the best recall any intent can have (the best similarity, with slack). */
export const RECALL_CAP = 0;
/** scratch.bounds[FUNCTION_WORDS_MOST]: what every function word can add to precision together. */
export const FUNCTION_WORDS_MOST = 1;
/** scratch.bounds[WEAK_MOST]: what every function word can add to an input's matched weight together. */
export const WEAK_MOST = 2;

export class ProbabilisticScratch {
  /** Per stem: the best similarity of a hit. */
  readonly stemBest: Float64Array;
  /** The stems the input being scored hit, and the terms the intent being scored met (ascending). */
  stemsHit = ints(16);
  termsHit = ints(16);
  /**
   * The message's hits, found once per message from the postings: per input its last hit (-1:
   * none, the mark reset after each message); per hit its term, its candidate and the input's
   * previous hit; per intent found its first input with a hit (-1: none) and per such input the
   * intent's next; the inputs hit (to reset them).
   */
  readonly inputHit: Int32Array;
  /** Per input a real word hit, its last function word's hit (-1: none; in the same hit arrays, after the real words'). */
  readonly inputWeakHit: Int32Array;
  readonly inputNext: Int32Array;
  /** Per input a real word hit, what its real words' hits can add to its matched weight at most (weight × similarity, summed). */
  readonly inputMost: Float64Array;
  readonly intentInput: Int32Array;
  hitTerm = ints(64);
  hitCandidate = ints(64);
  hitPrevious = ints(64);
  readonly hitInputs: Int32Array;
  hitInputCount = 0;
  /**
   * Per intent found, the rank of the first real word that finds it; the intents found, in the
   * order found; those by rank (counting sort), rank k's from rankStart[k]; per term, its rank.
   */
  readonly intentRank: Int32Array;
  /**
   * Per intent a real word found, what those words can add to its precision at most (their
   * termMost summed, each term once), and the last term counted (-1: not found, the mark reset
   * after each message): its score's bound.
   */
  readonly intentMost: Float64Array;
  readonly intentTerm: Int32Array;
  readonly hitIntents: Int32Array;
  hitIntentCount = 0;
  readonly byRank: Int32Array;
  rankStart = ints(17);
  termRank = ints(16);
  /** The function words' candidates (posted after the real words', only to inputs those hit) and their terms, in message order. */
  weakCandidate = ints(16);
  weakTerm = ints(16);
  weakCount = 0;

  /** Candidates, per term a contiguous run [termFrom[t], termTo[t]): stem, similarity, kind, lexicon word (-1: none, or the only word of its stem). */
  candidateStem = ints(64);
  candidateSim = floats(64);
  candidateKind = ints(64);
  candidateWord = ints(64);
  candidates = 0;

  /** Terms (distinct message words): token, weight, candidate run, what they can add at most, and the best similarity per scored intent. */
  termToken = ints(16);
  termWeight = floats(16);
  termFrom = ints(16);
  termTo = ints(16);
  termMost = floats(16);
  termBest = floats(16);
  /** The terms' weights summed. */
  messageWeight = 0;
  /**
   * Bounds on what any intent can score (matchProbabilistic), at RECALL_CAP, FUNCTION_WORDS_MOST and WEAK_MOST: a typed array,
   * so that writing one boxes no number under --jitless.
   */
  readonly bounds = floats(3);
  /** Real words (not function words) by what they can add, and what the words from the k-th on can add together. */
  order = ints(16);
  left = floats(16);

  /** Intents scored for this message: intent, best input, score (an intent is scored once, the winner twice: one entry per intent and one more). */
  readonly scoredIntent: Int32Array;
  readonly scoredInput: Int32Array;
  readonly scoredScore: Float64Array;
  scored = 0;
  /** The `keep` best scores (kept only when keep < the number of intents), and the two best of the context's children, descending. */
  readonly best: Float64Array;
  bestCount = 0;
  readonly bestChildren = floats(2);
  bestChildrenCount = 0;
  /** Indices into the scored arrays of the ranking, sorted. */
  readonly rankingOrder: Int32Array;

  constructor(intentCount: number, stemCount: number, inputCount: number) {
    this.intentRank = ints(intentCount);
    this.intentMost = floats(intentCount);
    this.intentTerm = ints(intentCount).fill(-1);
    this.hitIntents = ints(intentCount);
    this.byRank = ints(intentCount);
    this.inputHit = ints(inputCount).fill(-1);
    this.inputWeakHit = ints(inputCount);
    this.inputNext = ints(inputCount);
    this.inputMost = floats(inputCount);
    this.hitInputs = ints(inputCount);
    this.intentInput = ints(intentCount);
    this.scoredIntent = ints(intentCount + 1);
    this.scoredInput = ints(intentCount + 1);
    this.scoredScore = floats(intentCount + 1);
    this.best = floats(intentCount);
    this.rankingOrder = ints(intentCount);
    this.stemBest = floats(stemCount);
  }

  /** One intent for scoreIntents (ownEvidence). */
  readonly one = ints(1);

  /** Room for `terms` terms (and as many ranked real words). */
  reserveTerms(terms: number): void {
    this.termToken = grown(this.termToken, terms, ints);
    this.termWeight = grown(this.termWeight, terms, floats);
    this.termFrom = grown(this.termFrom, terms, ints);
    this.termTo = grown(this.termTo, terms, ints);
    this.termMost = grown(this.termMost, terms, floats);
    this.termBest = grown(this.termBest, terms, floats);
    this.termsHit = grown(this.termsHit, terms, ints);
    this.order = grown(this.order, terms, ints);
    this.left = grown(this.left, terms, floats);
    this.termRank = grown(this.termRank, terms, ints);
    this.rankStart = grown(this.rankStart, terms + 1, ints);
  }

  /** Lists the intents found by the rank of the word that found them (`ranks` ranks), each rank in the order found. */
  sortByRank(ranks: number): void {
    const { rankStart, intentRank, hitIntents, byRank } = this;
    rankStart.fill(0, 0, ranks);
    for (let i = 0; i < this.hitIntentCount; i++) rankStart[intentRank[hitIntents[i]!]!]!++;
    // Each rank's end, then filled from its end down (the ends become the starts): the list is walked backwards.
    for (let k = 1; k < ranks; k++) rankStart[k]! += rankStart[k - 1]!;
    rankStart[ranks] = this.hitIntentCount;
    for (let i = this.hitIntentCount; i-- > 0; ) byRank[--rankStart[intentRank[hitIntents[i]!]!]!] = hitIntents[i]!;
  }

  /** Appends a candidate. */
  pushCandidate(stem: number, sim: number, kind: number, word: number): void {
    const at = this.candidates++;
    if (at >= this.candidateStem.length) {
      this.candidateStem = grown(this.candidateStem, at + 1, ints);
      this.candidateSim = grown(this.candidateSim, at + 1, floats);
      this.candidateKind = grown(this.candidateKind, at + 1, ints);
      this.candidateWord = grown(this.candidateWord, at + 1, ints);
    }
    this.candidateStem[at] = stem;
    this.candidateSim[at] = sim;
    this.candidateKind[at] = kind;
    this.candidateWord[at] = word;
  }

  /** Room for `count` hits. */
  reserveHits(count: number): void {
    this.hitTerm = grown(this.hitTerm, count, ints);
    this.hitCandidate = grown(this.hitCandidate, count, ints);
    this.hitPrevious = grown(this.hitPrevious, count, ints);
    this.weakCandidate = grown(this.weakCandidate, this.candidates, ints);
    this.weakTerm = grown(this.weakTerm, this.candidates, ints);
    this.stemsHit = grown(this.stemsHit, this.candidates, ints);
  }

  /** Starts a message. */
  reset(): void {
    this.candidates = 0;
    this.hitInputCount = 0;
    this.hitIntentCount = 0;
    this.weakCount = 0;
    this.scored = 0;
    this.bestCount = 0;
    this.bestChildrenCount = 0;
  }

  /** Leaves the per-input and per-intent marks as the message found them (inputHit and intentTerm: collectHits sets the rest when it marks). */
  clearMarks(): void {
    const { hitInputs, inputHit, hitIntents, intentTerm } = this;
    for (let i = 0; i < this.hitInputCount; i++) inputHit[hitInputs[i]!] = -1;
    // Every intent a real word found is listed, once.
    for (let i = 0; i < this.hitIntentCount; i++) intentTerm[hitIntents[i]!] = -1;
  }
}
