// The learned stage: a linear model trained at build time (compiler/learn/) scores the message's
// hashed features (runtime/match/learned-features.ts), one score per intent and one for "none of
// these": a class's bias plus its weights for the message's features. The winner answers when
// it is an intent and leads the runner-up by the bundle's `learnedThreshold` (a margin chosen by
// cross-validation at build time).
//
// Cost: one directory probe per feature occurrence of the message (the directory is built at load;
// features the model does not know stop there), the weights of its known features, and one pass
// over the classes — independent of how many phrasings an intent has. Each token's features are
// read once per model (learned-readings.ts); scratch buffers live in LearnedIndex: scoring a
// message of words seen before allocates nothing.

import type { BundleLearned } from "../bundle/bundle-types.js";
import { addFeatureWeights, ConceptTable, featureWeight, MAX_FEATURES, normalizeBlocks, packedWeight, pairFeature } from "./learned-features.js";
import { type Reading, Readings } from "./learned-readings.js";
import type { Token } from "../text/normalize.js";
import { round4, type Witness } from "../response.js";
import { Spellings, type KnownWords } from "./learned-spelling.js";

/** The outcome of one message; the same object is refilled by the next message. */
export interface LearnedScores {
  /** Best class, and its intent (−1: "none of these"). */
  topClass: number;
  topIntent: number;
  topScore: number;
  runnerUpClass: number;
  runnerUpIntent: number;
  runnerUpScore: number;
  /** topScore − runnerUpScore. */
  margin: number;
  /** Whether the winner is an intent whose margin reaches the threshold. */
  accepted: boolean;
  /** Distinct features of the message the model knows. */
  known: number;
}

/**
 * Where each run of `sorted` (ascending u32s) sharing its top `bits` bits starts, and one more:
 * the values whose top bits are b are at starts[b] .. starts[b + 1] − 1. Here, not in sorted.ts,
 * so that the core does not carry it.
 */
export function bucketStarts(sorted: Uint32Array, bits: number): Uint32Array {
  const shift = 32 - bits;
  const starts = new Uint32Array((1 << bits) + 1);
  let at = 0;
  for (let b = 0; b < 1 << bits; b++) {
    starts[b] = at;
    while (at < sorted.length && sorted[at]! >>> shift === b) at++;
  }
  starts[1 << bits] = sorted.length;
  return starts;
}

/** The bundle's learned section as typed arrays, with the scratch of one message. */
export class LearnedIndex {
  readonly hashes: Uint32Array;
  readonly idf: Uint8Array;
  readonly offsets: Uint32Array;
  /** Per weight: its class << 8 | its int8 value (one array: the scoring loop reads one stream). */
  readonly weights: Int32Array;
  readonly scale: Float64Array;
  readonly bias: Float64Array;
  readonly intents: Int32Array;
  /** The concepts of the message's words (null when the model has no concept feature). */
  readonly concepts: ConceptTable | null;
  /**
   * Where a hash's feature is: the features whose hashes start with the top bits b (hash >>>
   * dirShift) are directory[b] .. directory[b + 1] − 1 of the ascending `hashes`, about four a
   * bucket. Directory, hashes and places are a quarter of the open-addressed table this replaced
   * (Banking77: 156 + 62 KB against 786 KB), so a message's probes miss the cache less.
   */
  private readonly directory: Uint32Array;
  private readonly dirShift: number;
  /** Per feature: 1 + its place in `found` while a message is weighed, else 0. */
  private readonly placeOf: Uint16Array;
  /** Per known feature of the message last weighed, in the order first seen: its feature index, hash, count, then normalized value. */
  readonly found = new Int32Array(MAX_FEATURES);
  readonly foundHash = new Uint32Array(MAX_FEATURES);
  private readonly foundCount = new Uint16Array(MAX_FEATURES);
  readonly values = new Float64Array(MAX_FEATURES);
  private known = 0;
  /** How each token of the message being weighed reads (this.readings), by its place. */
  private readonly tokenReadings: Reading[] = [];
  private readonly readings: Readings;
  private readonly sums: Float64Array;
  readonly result: LearnedScores = { topClass: -1, topIntent: -1, topScore: 0, runnerUpClass: -1, runnerUpIntent: -1, runnerUpScore: 0, margin: 0, accepted: false, known: 0 };

  constructor(
    section: BundleLearned,
    private readonly threshold: number,
  ) {
    this.hashes = section.hashes;
    this.idf = section.idf;
    this.offsets = section.offsets;
    const { classes, weights } = section;
    // A loop, not Int32Array.from's callback per weight: Banking77's 285,670 weights pack in 2 ms instead of 25.
    this.weights = new Int32Array(weights.length);
    for (let p = 0; p < weights.length; p++) this.weights[p] = packedWeight(classes[p]!, weights[p]!);
    this.scale = Float64Array.from(section.scale);
    this.bias = Float64Array.from(section.bias);
    const classCount = section.bias.length;
    this.intents = Int32Array.from({ length: classCount }, (_, k) => (k < section.intents.length ? section.intents[k]! : -1));
    this.sums = new Float64Array(classCount);
    const { conceptKeys, conceptOffsets, conceptFeatures } = section;
    this.concepts = conceptKeys.length === 0 ? null : new ConceptTable(conceptKeys, conceptOffsets, conceptFeatures);
    const features = this.hashes.length;
    this.placeOf = new Uint16Array(features);
    let bits = 1;
    while (bits < 24 && 4 << bits < features) bits++;
    this.dirShift = 32 - bits;
    this.directory = bucketStarts(this.hashes, bits);
    this.readings = new Readings(this.find, this.concepts);
  }

  /** The index of the feature hashed `hash`, or −1 when the model has none (bound once: Readings calls it). */
  private readonly find = (hash: number): number => {
    const { hashes, directory } = this;
    const bucket = hash >>> this.dirShift;
    const end = directory[bucket + 1]!;
    let feature = directory[bucket]!;
    while (feature < end && hashes[feature]! < hash) feature++;
    return feature === end || hashes[feature] !== hash ? -1 : feature;
  };

  /** Counts one occurrence of a known feature in the message being weighed. */
  private count(feature: number): void {
    const p = this.placeOf[feature]!;
    if (p !== 0) {
      if (this.foundCount[p - 1]! < 0xffff) this.foundCount[p - 1]!++;
    } else if (this.known < MAX_FEATURES) {
      this.found[this.known] = feature;
      this.foundHash[this.known] = this.hashes[feature]!;
      this.foundCount[this.known] = 1;
      this.placeOf[feature] = ++this.known;
    }
  }

  /**
   * Counts the message's features the model knows, in forEachFeature's order (the order their
   * weights are summed in), and weighs them (found, values); returns how many.
   */
  weigh(tokens: readonly Token[]): number {
    this.known = 0;
    const read = this.tokenReadings;
    for (let t = 0; t < tokens.length; t++) read[t] = this.readings.of(tokens[t]!);
    for (let t = 0; t < tokens.length; t++) {
      const { words, state } = read[t]!;
      for (let k = 0; k < words.length; k++) this.count(words[k]!);
      if (t + 1 < tokens.length) {
        const pair = this.find(pairFeature(state, read[t + 1]!.form));
        if (pair >= 0) this.count(pair);
      }
    }
    for (let t = 0; t < tokens.length; t++) {
      const { chars } = read[t]!;
      for (let k = 0; k < chars.length; k++) this.count(chars[k]!);
    }
    const { found, values, known: n } = this;
    for (let i = 0; i < n; i++) {
      this.placeOf[found[i]!] = 0;
      values[i] = featureWeight(this.foundCount[i]!, this.idf[found[i]!]!);
    }
    normalizeBlocks(this.foundHash, values, 0, n);
    return n;
  }

  /**
   * The tokens last scored, as scoring reads them (each one's text and whether it is a word): the
   * session scores a message split into clauses whole (readsAsOne), and when it reads it whole its
   * answer scores the same tokens again (12 % of Banking77's test messages); that call reuses the
   * result. Scores depend on nothing else, so the reuse gives the same answer.
   */
  private readonly lastNorms: string[] = [];
  private readonly lastIsWord: boolean[] = [];
  private lastLength = -1;

  private sameAsLast(tokens: readonly Token[]): boolean {
    if (tokens.length !== this.lastLength) return false;
    for (let i = 0; i < tokens.length; i++) if (tokens[i]!.norm !== this.lastNorms[i] || (tokens[i]!.kind === "word") !== this.lastIsWord[i]) return false;
    return true;
  }

  private remember(tokens: readonly Token[]): void {
    for (let i = 0; i < tokens.length; i++) {
      this.lastNorms[i] = tokens[i]!.norm;
      this.lastIsWord[i] = tokens[i]!.kind === "word";
    }
    this.lastLength = tokens.length;
  }

  /** The note of a learned answer's witness: the winner's score and margin (explain.ts shows it too). */
  winnerNote(id: string, { topScore, margin }: LearnedScores): string {
    return `${id} ${round4(topScore)}, margin ${round4(margin)}`;
  }

  /** The witness of a learned answer when not explaining: the winner's note, no features. */
  winnerWitness(id: string, scores: LearnedScores): Witness {
    return { stage: "learned", items: [], note: this.winnerNote(id, scores) };
  }

  /**
   * The winner as the session's answer: its confidence is the margin's share of margin +
   * threshold, and its runner-up is what "no, the other one" answers. Here rather than in the
   * session so that the core does not carry it (this chunk loads only with a learned stage).
   */
  winnerMatch({ topIntent, margin, runnerUpIntent }: LearnedScores): { status: "probabilistic match"; intent: number; confidence: number; slots: Record<string, string>; runnerUp: number } {
    return { status: "probabilistic match", intent: topIntent, confidence: round4(margin / (margin + this.threshold)), slots: {}, runnerUp: runnerUpIntent };
  }

  private readonly spellings = new Spellings();

  /** The scores of the message with its unknown words corrected first (learned-spelling.ts), as the session reads it. */
  scoreAsSpelled(tokens: Token[], words: KnownWords, threshold: number): LearnedScores {
    return this.score(this.spellings.corrected(tokens, words, threshold));
  }

  score(tokens: readonly Token[]): LearnedScores {
    if (this.sameAsLast(tokens)) return this.result;
    this.remember(tokens);
    const n = this.weigh(tokens);
    const { found, values, offsets, weights, sums, bias, scale } = this;
    sums.fill(0);
    for (let i = 0; i < n; i++) addFeatureWeights(sums, offsets, weights, found[i]!, values[i]!);
    // The best two classes, ties to the lower class.
    let top = -1;
    let topScore = -Infinity;
    let second = -1;
    let secondScore = -Infinity;
    for (let c = 0; c < sums.length; c++) {
      const s = bias[c]! + scale[c]! * sums[c]!;
      if (s > topScore) {
        second = top;
        secondScore = topScore;
        top = c;
        topScore = s;
      } else if (s > secondScore) {
        second = c;
        secondScore = s;
      }
    }
    const r = this.result;
    r.topClass = top;
    r.topIntent = this.intents[top]!;
    r.topScore = topScore;
    r.runnerUpClass = second;
    r.runnerUpIntent = second < 0 ? -1 : this.intents[second]!;
    r.runnerUpScore = second < 0 ? topScore : secondScore;
    r.margin = topScore - r.runnerUpScore;
    r.accepted = r.topIntent >= 0 && n > 0 && r.margin >= this.threshold;
    r.known = n;
    return r;
  }
}
