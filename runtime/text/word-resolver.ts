// Resolving a message word against the vocabulary, shared by the stages of one message: the
// vocabulary id of a known word, or its typo corrections (looked up once per message and word).
// A stage where one word decides alone (template vocab nodes) gets the strict edit budget; the
// probabilistic stage, where the rest of the message can outvote a bad guess, the generous one.

import { characters, wordEditBudget, type FuzzyHit } from "./fuzzy.js";
import type { NpcModel } from "../bundle/model.js";
import type { Token } from "./normalize.js";
import { round4, type WitnessItem } from "../response.js";

/** Words a message's cache scans before it takes a Map: a message has a handful of unknown words, and Map.clear allocates a new table. */
const SCANNED_WORDS = 16;

/** Values by word for one message: its first SCANNED_WORDS words scanned, the rest (a long message) in a Map. */
class WordCache<V> {
  private readonly words: string[] = [];
  private readonly values: V[] = [];
  private count = 0;
  private more: Map<string, V> | null = null;

  get(word: string): V | undefined {
    for (let i = 0; i < this.count; i++) if (this.words[i] === word) return this.values[i];
    return this.more?.get(word);
  }

  set(word: string, value: V): void {
    if (this.count < SCANNED_WORDS) {
      this.words[this.count] = word;
      this.values[this.count++] = value;
    } else (this.more ??= new Map()).set(word, value);
  }

  clear(): void {
    this.count = 0;
    if (this.more !== null && this.more.size > 0) this.more.clear();
  }
}

export class WordResolver {
  /** Corrections looked up so far in this message. */
  private readonly loose = new WordCache<FuzzyHit[]>();
  private readonly strict = new WordCache<FuzzyHit[]>();

  constructor(private readonly model: NpcModel) {}

  /** Empties the corrections, so a session's resolver serves its next message as a new one would. */
  begin(): this {
    this.loose.clear();
    this.strict.clear();
    return this;
  }

  /** Vocabulary id of a normalized word, if the NPC knows it. */
  id(norm: string): number | undefined {
    return this.model.wordId.get(norm);
  }

  /** The vocabulary word of an id. */
  word(id: number): string {
    return this.model.payload.lexicon.words.at(id);
  }

  /** Known words within the generous edit budget of an unknown word (closest first). */
  correctedLoosely(norm: string): FuzzyHit[] {
    let hits = this.loose.get(norm);
    if (!hits) {
      hits = this.model.fuzzy.lookup(norm);
      this.loose.set(norm, hits);
    }
    return hits;
  }

  /**
   * The message with each word the NPC does not know replaced by its single closest strict
   * correction ("deloete a file" → "delete a file"), and the least similarity (1 − edits/length)
   * of a correction; null when no word needed one, or a word has none from `wordThreshold`, or
   * two equally close ones. Literals and quoted text are never corrected.
   */
  correctedKey(tokens: readonly Token[]): { key: string; items: WitnessItem[]; similarity: number } | null {
    const { words } = this.model.payload.lexicon;
    let similarity = 1;
    const items: WitnessItem[] = [];
    const norms: string[] = [];
    for (const token of tokens) {
      let norm = token.norm;
      if (token.kind === "word" && this.id(norm) === undefined) {
        const [best, second] = this.corrected(norm);
        if (!best || (second && second.distance === best.distance)) return null;
        norm = words.at(best.word);
        similarity = Math.min(similarity, best.similarity);
        if (similarity < this.model.payload.config.wordThreshold) return null;
      }
      norms.push(norm);
      items.push({ word: token.text, kind: norm === token.norm ? "word" : "fuzzy", matched: norm });
    }
    return similarity < 1 ? { key: norms.join(" "), items, similarity: round4(similarity) } : null;
  }

  /** Whether the word is in `set`, or, if the NPC does not know it, one of its strict corrections is. */
  fits(norm: string, set: { has(word: string): boolean }): boolean {
    if (set.has(norm)) return true;
    if (this.id(norm) !== undefined) return false;
    const { words } = this.model.payload.lexicon;
    return this.corrected(norm).some((hit) => set.has(words.at(hit.word)));
  }

  /** Known words within the strict (one word decides) edit budget of an unknown word; none for a list or number word. */
  corrected(norm: string): FuzzyHit[] {
    let hits = this.strict.get(norm);
    if (!hits && this.model.valueWords.has(norm)) this.strict.set(norm, (hits = []));
    if (!hits) {
      const { words } = this.model.payload.lexicon;
      const budget = wordEditBudget(characters(norm));
      hits = this.correctedLoosely(norm).filter((hit) => hit.distance <= budget && hit.distance <= wordEditBudget(characters(words.at(hit.word))));
      this.strict.set(norm, hits);
    }
    return hits;
  }
}
