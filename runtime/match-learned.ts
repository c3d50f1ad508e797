// The learned stage: a linear model trained at build time (compiler/learn/) scores the message's
// hashed features (runtime/learned-features.ts), one score per intent and one for "none of
// these". Only the classes the message's features carry weights for are summed; every other
// class keeps its bias. The winner answers when it is an intent and leads the runner-up by the
// bundle's `learnedThreshold` (a margin chosen by cross-validation at build time).
//
// Cost: one binary search per distinct feature of the message plus its weights — independent of
// how many phrasings an intent has. Scratch buffers live in LearnedIndex: scoring allocates only
// the stems of the message's words (and their list).

import type { BundleLearned } from "./bundle-types.js";
import { readU32 } from "./fuzzy.js";
import { FeatureCounts, featureWeight, featureWords, MAX_FEATURES, normalizeBlocks } from "./learned-features.js";
import type { Token } from "./normalize.js";

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

function readU16(bytes: Uint8Array): Uint16Array {
  const out = new Uint16Array(bytes.length >>> 1);
  for (let i = 0; i < out.length; i++) out[i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
  return out;
}

/** The bundle's learned section as typed arrays, with the scratch of one message. */
export class LearnedIndex {
  readonly hashes: Uint32Array;
  readonly idf: Uint8Array;
  readonly offsets: Uint32Array;
  readonly classes: Uint16Array;
  readonly weights: Int8Array;
  readonly scale: Float64Array;
  readonly bias: Float64Array;
  readonly intents: Int32Array;
  /** Classes by descending bias (then ascending class): the best untouched classes without a scan. */
  private readonly byBias: Int32Array;
  private readonly counts = new FeatureCounts();
  /** Per known feature of the message last weighed: its feature index, hash and normalized value. */
  readonly found = new Int32Array(MAX_FEATURES);
  readonly foundHash = new Uint32Array(MAX_FEATURES);
  readonly values = new Float64Array(MAX_FEATURES);
  private readonly sums: Float64Array;
  private readonly touched: Uint8Array;
  private readonly touchedList: Int32Array;
  readonly result: LearnedScores = { topClass: -1, topIntent: -1, topScore: 0, runnerUpClass: -1, runnerUpIntent: -1, runnerUpScore: 0, margin: 0, accepted: false, known: 0 };

  constructor(
    section: BundleLearned,
    private readonly threshold: number,
  ) {
    this.hashes = readU32(section.hashes);
    this.idf = section.idf;
    this.offsets = readU32(section.offsets);
    this.classes = readU16(section.classes);
    this.weights = new Int8Array(section.weights.buffer, section.weights.byteOffset, section.weights.length);
    this.scale = Float64Array.from(section.scale);
    this.bias = Float64Array.from(section.bias);
    const classCount = section.bias.length;
    this.intents = Int32Array.from({ length: classCount }, (_, k) => (k < section.intents.length ? section.intents[k]! : -1));
    this.byBias = Int32Array.from({ length: classCount }, (_, k) => k).sort((a, b) => this.bias[b]! - this.bias[a]! || a - b);
    this.sums = new Float64Array(classCount);
    this.touched = new Uint8Array(classCount);
    this.touchedList = new Int32Array(classCount);
  }

  /** Index of a feature hash, or −1. */
  private featureOf(hash: number): number {
    let lo = 0;
    let hi = this.hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.hashes[mid]! < hash) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.hashes.length && this.hashes[lo] === hash ? lo : -1;
  }

  /** Counts the message's features and weighs those the model knows (found, values); returns how many. */
  weigh(tokens: readonly Token[], words: readonly string[]): number {
    const { counts, found, foundHash, values } = this;
    counts.count(tokens, words);
    let n = 0;
    for (let i = 0; i < counts.size; i++) {
      const f = this.featureOf(counts.hashes[i]!);
      if (f < 0) continue;
      found[n] = f;
      foundHash[n] = counts.hashes[i]!;
      values[n++] = featureWeight(counts.counts[i]!, this.idf[f]!);
    }
    normalizeBlocks(foundHash, values, 0, n);
    return n;
  }

  score(tokens: readonly Token[]): LearnedScores {
    const n = this.weigh(tokens, featureWords(tokens));
    const { found, values, offsets, classes, weights, sums, touched, touchedList } = this;
    let touchedCount = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      const end = offsets[found[i]! + 1]!;
      for (let p = offsets[found[i]!]!; p < end; p++) {
        const c = classes[p]!;
        if (touched[c] === 0) {
          touched[c] = 1;
          touchedList[touchedCount++] = c;
          sums[c] = 0;
        }
        sums[c]! += weights[p]! * v;
      }
    }
    // The best two classes, ties to the lower class.
    let top = -1;
    let topScore = -Infinity;
    let second = -1;
    let secondScore = -Infinity;
    const consider = (c: number, s: number) => {
      if (s > topScore || (s === topScore && c < top)) {
        second = top;
        secondScore = topScore;
        top = c;
        topScore = s;
      } else if (s > secondScore || (s === secondScore && c < second)) {
        second = c;
        secondScore = s;
      }
    };
    for (let k = 0; k < touchedCount; k++) {
      const c = touchedList[k]!;
      consider(c, this.bias[c]! + this.scale[c]! * sums[c]!);
    }
    // The two best classes no feature touched: their scores are their biases.
    for (let k = 0, taken = 0; k < this.byBias.length && taken < 2; k++) {
      const c = this.byBias[k]!;
      if (touched[c] !== 0) continue;
      consider(c, this.bias[c]!);
      taken++;
    }
    for (let k = 0; k < touchedCount; k++) touched[touchedList[k]!] = 0;
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
