// The learned stage's concept table (runtime/match/learned-features.ts ConceptTable): for each member
// stem of the NPC's dataset concepts (compiler/passes/compute-concepts.ts: its synonym sets; WordNet
// relatives are the lexical stage's only, see compile.ts), the concept features it brings. Built from the concepts' own
// order (sorted by members), so source order never changes a byte.

import { ConceptTable, conceptFeature, conceptKey } from "../../runtime/match/learned-features.js";
import type { Concept } from "../passes/compute-concepts.js";

/** Every (stem, concept) pair, keyed by the stem's conceptKey; null when there are no concepts. */
export function conceptTable(concepts: readonly Concept[]): ConceptTable | null {
  const pairs: [number, number][] = [];
  concepts.forEach((concept, id) => {
    const feature = conceptFeature(id);
    for (const stem of concept.stems) pairs.push([conceptKey(stem), feature]);
  });
  return pairs.length === 0 ? null : tableOf(pairs);
}

/** The table without the concept features `keep` rejects (those the model has no weight for). */
export function keptConcepts(table: ConceptTable, keep: (feature: number) => boolean): ConceptTable | null {
  const pairs: [number, number][] = [];
  for (let k = 0; k < table.keys.length; k++) {
    for (let p = table.offsets[k]!; p < table.offsets[k + 1]!; p++) if (keep(table.features[p]!)) pairs.push([table.keys[k]!, table.features[p]!]);
  }
  return pairs.length === 0 ? null : tableOf(pairs);
}

function tableOf(pairs: [number, number][]): ConceptTable {
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const keys: number[] = [];
  const offsets: number[] = [];
  const features: number[] = [];
  pairs.forEach(([key, feature], i) => {
    if (i > 0 && pairs[i - 1]![0] === key && pairs[i - 1]![1] === feature) return;
    if (keys.length === 0 || keys[keys.length - 1] !== key) {
      keys.push(key);
      offsets.push(features.length);
    }
    features.push(feature);
  });
  offsets.push(features.length);
  return new ConceptTable(Uint32Array.from(keys), Uint32Array.from(offsets), Uint32Array.from(features));
}
