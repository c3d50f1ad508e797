// Whether a learned stage's arrays fit together (the loader has checked their kinds: validate-payload.ts).
// Apart from the core's validator, in a chunk of its own that learnedIndexFor (model.ts) loads
// with the learned stage's code: a host answering with lexical bundles never loads either.

import type { BundleLearned } from "./bundle-types.js";

/**
 * The first problem as "learned.field: what is wrong", or null: one IDF per feature, hashes
 * ascending, offsets ascending to the weights' end, classes in range.
 */
export function learnedProblem({ hashes, idf, offsets, classes, weights, scale, bias, intents }: BundleLearned): string | null {
  const features = hashes.length;
  const classCount = bias.length;
  if (scale.length !== classCount) return "scale: not one per class";
  if (intents.length !== classCount - 1) return "intents: not one per class but the last";
  if (idf.length !== features) return "idf: not one per feature";
  for (let i = 1; i < features; i++) if (hashes[i - 1]! >= hashes[i]!) return `hashes: not ascending at ${i}`;
  if (offsets.length !== features + 1) return "offsets: not one per feature, and one more";
  if (classes.length !== weights.length) return "classes: not one u16 per weight";
  if (offsets[0] !== 0 || offsets[features] !== weights.length) return "offsets: not from 0 to the number of weights";
  for (let i = 1; i <= features; i++) if (offsets[i - 1]! > offsets[i]!) return `offsets: not ascending at ${i}`;
  for (let p = 0; p < weights.length; p++) if (classes[p]! >= classCount) return `classes: weight ${p}'s class is not below ${classCount}`;
  return null;
}
