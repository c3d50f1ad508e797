// One-vs-rest linear SVM with the squared hinge loss (L2-loss), trained by dual coordinate
// descent (Hsieh et al. 2008, "A Dual Coordinate Descent Method for Large-scale Linear SVM",
// liblinear's solver). The bias is a constant feature of value 1.
//
// All classes are trained together, sample by sample: the weights are laid out feature-major
// (one row of classes per feature), so a sample's scores for all the classes it is still active
// for come from one pass over its features. Shrinking, stronger than liblinear's: a (sample,
// class) pair found outside the margin with a zero dual variable leaves that sample's active list
// until the last epoch, which visits every pair again. After the first epoch about 5 % of the
// pairs are left on Banking77, so the middle epochs cost a fraction of the first. Each class is
// still its own binary problem; only the visiting is shared. Deterministic: one fixed
// permutation per epoch (a linear congruential sequence) and a fixed number of epochs.
//
// Speed (Banking77, 12,329 samples × 78 classes, 113 features a sample): a full visit is bound by
// reading the weight rows, so rows are stored most used feature first (the rows most samples
// read stay in cache) and all classes are scored four at a time in registers. Neither changes
// a result: each score still sums its features in the sample's order.

/** Training samples as compressed sparse rows: sample i's features are offsets[i] .. offsets[i + 1]. */
export interface SparseSamples {
  offsets: Int32Array;
  features: Int32Array;
  values: Float64Array;
  /** Per sample: its class. */
  labels: Int32Array;
  /** Number of distinct features (the bias is feature `dims` of a weight vector). */
  dims: number;
}

export interface SvmOptions {
  /** Penalty of a violated margin (liblinear's C). */
  C: number;
  /** Passes over the samples. */
  epochs: number;
}

interface RowLayout {
  /** Per feature: its weight row, the most used features first (ties by feature). */
  rowOf: Int32Array;
  /** The samples' features as rows (rowOf of each). */
  features: Int32Array;
}

/** Each sample set's layout, found once: the model and every fold train over the same samples. */
const layouts = new WeakMap<SparseSamples, RowLayout>();

function rowLayout(samples: SparseSamples): RowLayout {
  const known = layouts.get(samples);
  if (known) return known;
  const uses = new Int32Array(samples.dims);
  for (const f of samples.features) uses[f]!++;
  const byUse = Int32Array.from({ length: samples.dims }, (_, f) => f).sort((a, b) => uses[b]! - uses[a]! || a - b);
  const rowOf = new Int32Array(samples.dims);
  byUse.forEach((f, r) => (rowOf[f] = r));
  const layout = { rowOf, features: samples.features.map((f) => rowOf[f]!) };
  layouts.set(samples, layout);
  return layout;
}

/** What a trained model is made of: typed arrays only, so a worker thread can hand one over (compiler/learn/train.ts). */
export interface ModelParts {
  dims: number;
  classCount: number;
  /** Per feature: its row of `weights`. */
  rowOf: Int32Array;
  /** Feature-major: weights[rowOf[f] · classCount + c]. */
  weights: Float32Array;
  bias: Float64Array;
}

/** A trained model: one weight vector per class. */
export class OneVsRestModel {
  constructor(readonly parts: ModelParts) {}

  /** Class c's weight vector into `out` (dims + 1): the features in feature order, then the bias. */
  classWeights(c: number, out: Float64Array): Float64Array {
    const { dims, classCount, rowOf, weights, bias } = this.parts;
    for (let f = 0; f < dims; f++) out[f] = weights[rowOf[f]! * classCount + c]!;
    out[dims] = bias[c]!;
    return out;
  }

  /**
   * The weights int8-quantized per class, unpruned: rows[f · K + c] ≈ weight / scale[c], |q| ≤ 127
   * (scale 0 when all of a class's weights are 0), with each class's bias. Two passes over the
   * feature-major weights, not one strided pass per class.
   */
  int8(): { rows: Int8Array; scale: Float64Array; bias: Float64Array } {
    const { dims, classCount: K, rowOf, weights, bias } = this.parts;
    const max = new Float64Array(K);
    for (let f = 0; f < dims; f++) {
      const row = rowOf[f]! * K;
      for (let c = 0; c < K; c++) max[c] = Math.max(max[c]!, Math.abs(weights[row + c]!));
    }
    const scale = max.map((m) => m / 127);
    const rows = new Int8Array(dims * K);
    for (let f = 0; f < dims; f++) {
      const row = rowOf[f]! * K;
      for (let c = 0; c < K; c++) rows[f * K + c] = scale[c]! > 0 ? Math.round(weights[row + c]! / scale[c]!) : 0;
    }
    return { rows, scale, bias: Float64Array.from(bias) };
  }
}

/** Trains every class against the rest over the samples in `rows` (ascending sample indices). */
export function trainOneVsRest(samples: SparseSamples, rows: Int32Array, classCount: number, options: SvmOptions): OneVsRestModel {
  const { offsets, values, labels, dims } = samples;
  const K = classCount;
  const n = rows.length;
  const { rowOf, features } = rowLayout(samples);
  const weights = new Float32Array(dims * K);
  const bias = new Float64Array(K);
  const alpha = new Float64Array(n * K);
  const diagonal = 1 / (2 * options.C);
  // Q_ii: ‖x_i‖² + 1 (the bias feature) + the L2-loss diagonal.
  const q = Float64Array.from(rows, (i) => {
    let sum = 1 + diagonal;
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) sum += values[k]! * values[k]!;
    return sum;
  });
  // Per sample: the classes it is still active for, the first activeCount[s] of its row.
  const active = new Uint16Array(n * K);
  const activeCount = new Int32Array(n);
  const activateAll = (): void => {
    activeCount.fill(K);
    for (let s = 0; s < n; s++) for (let c = 0; c < K; c++) active[s * K + c] = c;
  };
  activateAll();
  const scores = new Float64Array(K);
  const changed = new Int32Array(K);
  const delta = new Float64Array(K);
  const order = Int32Array.from({ length: n }, (_, s) => s);
  let seed = 0x9e3779b9;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let s = n - 1; s > 0; s--) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      const j = seed % (s + 1);
      const t = order[s]!;
      order[s] = order[j]!;
      order[j] = t;
    }
    // The last epoch visits every pair again: one that left may have come back inside the margin.
    if (epoch > 0 && epoch + 1 === options.epochs) activateAll();
    for (let o = 0; o < n; o++) {
      const r = order[o]!;
      let m = activeCount[r]!;
      if (m === 0) continue;
      const i = rows[r]!;
      const base = r * K;
      const start = offsets[i]!;
      const end = offsets[i + 1]!;
      if (m === K) scoreAll(features, values, start, end, weights, bias, K, scores);
      else {
        for (let j = 0; j < m; j++) {
          const c = active[base + j]!;
          let sum = bias[c]!;
          for (let k = start; k < end; k++) sum += weights[features[k]! * K + c]! * values[k]!;
          scores[j] = sum;
        }
      }
      let changes = 0;
      const label = labels[i]!;
      for (let j = 0; j < m; j++) {
        const c = active[base + j]!;
        const y = c === label ? 1 : -1;
        const a = alpha[base + c]!;
        const g = y * scores[j]! - 1 + a * diagonal;
        if (a === 0 && g > 0) {
          // Outside the margin with nothing to undo: the pair leaves the sample's active list.
          m--;
          active[base + j] = active[base + m]!;
          active[base + m] = c;
          scores[j] = scores[m]!;
          j--;
          continue;
        }
        if (Math.abs(g) > 1e-12) {
          const next = Math.max(a - g / q[r]!, 0);
          alpha[base + c] = next;
          changed[changes] = c;
          delta[changes++] = (next - a) * y;
        }
      }
      activeCount[r] = m;
      if (changes === 0) continue;
      for (let k = start; k < end; k++) {
        const row = features[k]! * K;
        const v = values[k]!;
        for (let t = 0; t < changes; t++) weights[row + changed[t]!]! += delta[t]! * v;
      }
      for (let t = 0; t < changes; t++) bias[changed[t]!]! += delta[t]!;
    }
  }
  return new OneVsRestModel({ dims, classCount: K, rowOf, weights, bias });
}

/**
 * scores[c] = bias[c] + Σ weights[row · K + c] · value over features start..end, for every class;
 * four classes at a time in locals, each still summed in feature order.
 */
function scoreAll(features: Int32Array, values: Float64Array, start: number, end: number, weights: Float32Array, bias: Float64Array, K: number, scores: Float64Array): void {
  let c = 0;
  for (; c + 4 <= K; c += 4) {
    let s0 = bias[c]!;
    let s1 = bias[c + 1]!;
    let s2 = bias[c + 2]!;
    let s3 = bias[c + 3]!;
    for (let k = start; k < end; k++) {
      const row = features[k]! * K + c;
      const v = values[k]!;
      s0 += weights[row]! * v;
      s1 += weights[row + 1]! * v;
      s2 += weights[row + 2]! * v;
      s3 += weights[row + 3]! * v;
    }
    scores[c] = s0;
    scores[c + 1] = s1;
    scores[c + 2] = s2;
    scores[c + 3] = s3;
  }
  for (; c < K; c++) {
    let sum = bias[c]!;
    for (let k = start; k < end; k++) sum += weights[features[k]! * K + c]! * values[k]!;
    scores[c] = sum;
  }
}
