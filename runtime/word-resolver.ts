// Resolving a message word against the vocabulary, shared by the stages of one message: the
// vocabulary id of a known word, or its typo corrections (looked up once per message and word).
// A stage where one word decides alone (template vocab nodes) gets the strict edit budget; the
// probabilistic stage, where the rest of the message can outvote a bad guess, the generous one.

import { editBudget, wordEditBudget, type FuzzyHit } from "./fuzzy.js";
import type { NpcModel } from "./model.js";

export class WordResolver {
  private readonly loose = new Map<string, FuzzyHit[]>();
  private readonly strict = new Map<string, FuzzyHit[]>();

  constructor(private readonly model: NpcModel) {}

  /** Vocabulary id of a normalized word, if the NPC knows it. */
  id(norm: string): number | undefined {
    return this.model.wordId.get(norm);
  }

  /** Known words within the generous edit budget of an unknown word (closest first). */
  correctedLoosely(norm: string): FuzzyHit[] {
    let hits = this.loose.get(norm);
    if (!hits) {
      hits = this.model.fuzzy.lookup(norm, editBudget);
      this.loose.set(norm, hits);
    }
    return hits;
  }

  /** Known words within the strict (one word decides) edit budget of an unknown word. */
  corrected(norm: string): FuzzyHit[] {
    let hits = this.strict.get(norm);
    if (!hits) {
      const { words } = this.model.payload.lexicon;
      const budget = wordEditBudget(Array.from(norm).length);
      hits = this.correctedLoosely(norm).filter(
        (hit) => hit.distance <= budget && hit.distance <= wordEditBudget(Array.from(words[hit.word]!).length),
      );
      this.strict.set(norm, hits);
    }
    return hits;
  }
}
