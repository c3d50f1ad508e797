// The synonym table of a DSL file. Each literal pattern word w is matched through a synthesized
// synonym set tagged `word_<w>` holding w itself plus every `synonym "x", means: "w"` — so a
// pattern word becomes a vocab node exactly like NDF's `<||vocab_x||>` tags, and DSL synonyms feed
// the same synonym table as vocabulary/templates.json.
import type { SourceLocation, SynonymSet } from "../../ir/types.js";
import { compareStrings } from "../../order.js";

export const WORD_TAG_PREFIX = "word_";

export const wordTag = (word: string): string => `${WORD_TAG_PREFIX}${word}`;

interface Entry {
  words: string[];
  loc: SourceLocation;
}

export class WordTable {
  private readonly entries = new Map<string, Entry>();

  private entry(word: string, loc: SourceLocation): Entry {
    let entry = this.entries.get(word);
    if (entry === undefined) {
      entry = { words: [word], loc };
      this.entries.set(word, entry);
    }
    return entry;
  }

  /** Words written in patterns (each gets its own set, even without synonyms). */
  useAll(words: readonly string[], loc: SourceLocation): void {
    for (const word of words) this.entry(word, loc);
  }

  /** `synonym "wipe", means: "delete"`; the set is located at its first synonym statement. */
  addSynonym(synonym: string, meaning: string, loc: SourceLocation): void {
    const entry = this.entries.get(meaning);
    if (entry === undefined) this.entries.set(meaning, { words: [meaning, synonym], loc });
    else if (!entry.words.includes(synonym)) entry.words.push(synonym);
  }

  /** Synonym sets sorted by tag (deterministic whatever the statement order). */
  synonymSets(): SynonymSet[] {
    return [...this.entries.entries()]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([word, entry]) => ({ tag: wordTag(word), words: [...entry.words], loc: entry.loc }));
  }
}
