// Resolving a message word against the vocabulary, shared by the template and probabilistic
// stages of one message: the vocabulary id of a known word, or its typo corrections (memoized, so
// a misspelt word is looked up once per message).

import type { FuzzyHit } from "./fuzzy.js";
import type { NpcModel } from "./model.js";

export class WordResolver {
  private readonly corrections = new Map<string, FuzzyHit[]>();

  constructor(private readonly model: NpcModel) {}

  /** Vocabulary id of a normalized word, if the NPC knows it. */
  id(norm: string): number | undefined {
    return this.model.wordId.get(norm);
  }

  /** Known words within the edit budget of an unknown word (closest first). */
  corrected(norm: string): FuzzyHit[] {
    let hits = this.corrections.get(norm);
    if (!hits) {
      hits = this.model.fuzzy.lookup(norm);
      this.corrections.set(norm, hits);
    }
    return hits;
  }
}
