// The probabilistic stage's index: the bundle's matching tables in the shape match-probabilistic.ts
// walks, built once at load. Apart from the matcher so that model.ts, which builds it, and the
// matcher, which reads the model, do not import each other.

import type { BundlePayload } from "../bundle/bundle-types.js";
import { ProbabilisticScratch } from "./probabilistic-scratch.js";
import type { StringTable } from "../bundle/string-table.js";

/** The bundle's matching tables in the shape the matcher walks, plus its scratch buffers. */
export class MatchIndex {
  /** Stem → id. */
  readonly stemId: StringTable;
  readonly conceptMembers: number[][];
  /** Per stem: how many lexicon words have it. */
  readonly stemForms: Uint16Array;
  readonly scratch: ProbabilisticScratch;

  constructor(
    readonly tables: BundlePayload["matching"],
    intentCount: number,
  ) {
    this.stemId = tables.stems;
    this.conceptMembers = Array.from(tables.conceptWeight, () => []);
    this.stemForms = new Uint16Array(tables.stems.length);
    const { wordStem } = tables;
    // (indexed: a typed array's `of` allocates a result per step in the cold interpreter)
    for (let w = 0; w < wordStem.length; w++) this.stemForms[wordStem[w]!]!++;
    const { starts, items } = tables.concepts;
    for (let s = 0; s + 1 < starts.length; s++) for (let k = starts[s]!; k < starts[s + 1]!; k++) this.conceptMembers[items[k]!]!.push(s);
    this.scratch = new ProbabilisticScratch(intentCount, tables.stems.length, tables.inputStems.starts.length - 1);
  }
}
