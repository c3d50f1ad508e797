// Compute pass: the vocab tag table. Tags come from the synonym sets and from template nodes; a
// tag used by a template but defined nowhere (TERMy uses 48 such, e.g. vocab_if) matches the word
// its name spells (`vocab_if` → "if") instead of nothing; the lint still reports it.

import type { SynonymSet } from "../ir/types.js";
import { normalizeWords } from "../../runtime/text/normalize.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import { compareStrings } from "../order.js";
import { templateNodes } from "../ir/template-parts.js";

export interface VocabTable {
  /** Tag names, sorted; a tag id is an index here. */
  tags: string[];
  tagId: Map<string, number>;
  /** One-word synonyms: normalized word → tag ids (ascending). */
  wordTags: Map<string, number[]>;
  /** Synonyms of several words: [tag id, normalized words], sorted. */
  phrases: [number, string[]][];
  /** Tags defined by their own name only. */
  implicit: string[];
}

/** The word(s) an undefined tag stands for: `vocab_file_name` → "file name". */
export function impliedWords(tag: string): string {
  return tag.replace(/^vocab_/, "").replace(/_/g, " ");
}

export function computeVocab(synonyms: readonly SynonymSet[], ordered: readonly OrderedIntent[]): VocabTable {
  const words = new Map<string, Set<string>>();
  for (const set of synonyms) {
    const bucket = words.get(set.tag) ?? new Set<string>();
    for (const word of set.words) bucket.add(word);
    words.set(set.tag, bucket);
  }
  const implicit: string[] = [];
  // Every intent's paths, context children's included: the automaton compiles them all.
  for (const { intent } of ordered) {
    for (const path of intent.paths) {
      for (const node of templateNodes(path.nodes)) {
        if (node.type !== "vocab") continue;
        for (const tag of node.tags) {
          if (!words.has(tag)) {
            words.set(tag, new Set([impliedWords(tag)]));
            implicit.push(tag);
          }
        }
      }
    }
  }
  const tags = [...words.keys()].sort();
  const tagId = new Map(tags.map((tag, id) => [tag, id]));
  const wordTags = new Map<string, number[]>();
  const phraseKeys = new Set<string>();
  const phrases: [number, string[]][] = [];
  tags.forEach((tag, id) => {
    for (const synonym of words.get(tag)!) {
      const normalized = normalizeWords(synonym);
      if (normalized.length === 1) {
        const list = wordTags.get(normalized[0]!) ?? [];
        if (!list.includes(id)) list.push(id);
        wordTags.set(normalized[0]!, list);
      } else if (normalized.length > 1) {
        const key = `${id}\u0000${normalized.join(" ")}`;
        if (!phraseKeys.has(key)) {
          phraseKeys.add(key);
          phrases.push([id, normalized]);
        }
      }
    }
  });
  for (const list of wordTags.values()) list.sort((a, b) => a - b);
  phrases.sort((a, b) => a[0] - b[0] || compareStrings(a[1].join(" "), b[1].join(" ")));
  return { tags, tagId, wordTags, phrases, implicit: implicit.sort() };
}
