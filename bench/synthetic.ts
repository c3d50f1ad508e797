// Deterministic synthetic NPCs for the cost curve: N inputs spread over N/5 intents, words drawn
// from a Zipf-like vocabulary with a seeded generator, so every run measures the same dataset.

import type { Intent, NpcIR, SourceLocation } from "../compiler/ir/types.js";
import { mulberry32 } from "../runtime/render/rng.js";

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "po", "qua", "dre", "bin", "tor", "gal", "fen"];

function wordAt(index: number): string {
  let word = "";
  let n = index + SYLLABLES.length;
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
}

export interface SyntheticNpc {
  ir: NpcIR;
  /** Inputs as written, with the intent id they belong to. */
  inputs: { text: string; intent: string }[];
  vocabulary: string[];
}

export function syntheticNpc(inputCount: number, seed = 42): SyntheticNpc {
  const random = mulberry32(seed);
  const vocabularySize = Math.max(200, Math.round(Math.sqrt(inputCount) * 30));
  const vocabulary = Array.from({ length: vocabularySize }, (_, i) => wordAt(i));
  // Zipf-like: P(rank r) ∝ 1 / (r + 1); sampled by inverting a precomputed CDF.
  const cdf: number[] = [];
  let sum = 0;
  for (let r = 0; r < vocabularySize; r++) cdf.push((sum += 1 / (r + 1)));
  const draw = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  const loc = (offset: number): SourceLocation => ({ file: "dataset/dataset_synthetic.json", line: 1, column: 1, offset });
  const intents: Intent[] = [];
  const inputs: SyntheticNpc["inputs"] = [];
  const perIntent = 5;
  for (let i = 0; i * perIntent < inputCount; i++) {
    const id = `synthetic_${i}`;
    const texts = new Set<string>();
    while (texts.size < Math.min(perIntent, inputCount - i * perIntent)) {
      const length = 2 + Math.floor(random() * 5);
      texts.add(Array.from({ length }, draw).join(" "));
    }
    for (const text of texts) inputs.push({ text, intent: id });
    intents.push({
      id,
      kind: "entry",
      loc: loc(i),
      inputs: [...texts].map((value, k) => ({ value, loc: loc(i * 10 + k) })),
      paths: [],
      outputs: [{ value: `answer ${i}`, loc: loc(i) }],
      thinking: [],
      tools: [],
      permission: "yolo",
      permissionExplicit: true,
      extra: {},
      keyLocs: {},
    });
  }
  return {
    ir: {
      config: { name: `synthetic-${inputCount}`, connectives: [], extra: {} },
      intents,
      synonyms: [],
      types: [],
      wordLists: [],
      lists: [],
      sources: [{ path: "dataset/dataset_synthetic.json", sha256: String(inputCount) }],
    },
    inputs,
    vocabulary,
  };
}
