// Compute pass: the sanitizer's phrase table (noise to strip, sentiment to count), stop words, and
// the word lists `<||tag||>` rendering draws from (vocabulary lists, personality blocks).

import type { WordList } from "../ir/types.js";
import type { BundleSanitizer, Segments } from "../../runtime/bundle/bundle-types.js";
import { normalizeWords } from "../../runtime/text/normalize.js";
import { splitSegments } from "../segments.js";
import { compareStrings } from "../order.js";

/** Word list name → sentiment kind index (runtime/bundle/bundle-types.ts SENTIMENT_KINDS). */
const SENTIMENT_LISTS: Record<string, number> = {
  expletives: 0,
  interjection: 1,
  interjections: 1,
  thanking_words: 2,
  encouraging_words: 3,
  discouraging_words: 4,
};
const STOP_WORD_LISTS = new Set(["stop_words", "stopwords"]);

/**
 * English words that name nothing by themselves: pronouns, determiners, particles, modal and light
 * verbs, courtesy. A destructive guess from a message of these and one verb ("delete it", "get rid
 * of that") has nothing to act on (runtime/match/guards.ts lacksReferent). Sorted, as the bundle stores it.
 */
const NAMELESS_WORDS = [
  "it", "its", "this", "that", "these", "those", "them", "they", "one", "ones", "all", "everything", "something", "anything",
  "stuff", "thing", "things", "please", "now", "the", "a", "an", "my", "me", "i", "you", "we", "us", "do", "just", "again",
  "too", "also", "here", "there", "so", "then", "up", "out", "away", "off", "of", "to", "for", "with", "on", "in", "at",
  "from", "and", "get", "rid", "go", "ahead", "can", "could", "would", "will", "should", "let", "lets", "make", "sure",
  "right", "immediately", "quickly",
].sort(compareStrings);

function mergedLists(lists: readonly WordList[]): Map<string, string[]> {
  const merged = new Map<string, string[]>();
  for (const list of lists) merged.set(list.name, [...(merged.get(list.name) ?? []), ...list.words]);
  return merged;
}

/** The sanitizer's tables as lists; the bundle stores its phrases as a table (encode.ts phraseTableOf). */
export interface SanitizerLists extends Omit<BundleSanitizer, "phrases" | "kinds" | "slots"> {
  /** Phrases (normalized words) and their sentiment kind, by kind then text. */
  phrases: [string[], number][];
}

export function computeSanitizer(lists: readonly WordList[]): SanitizerLists {
  const seen = new Set<string>();
  const phrases: [string[], number][] = [];
  const stopWords = new Set<string>();
  for (const [name, words] of [...mergedLists(lists)].sort((a, b) => compareStrings(a[0], b[0]))) {
    const kind = SENTIMENT_LISTS[name];
    for (const word of words) {
      const normalized = normalizeWords(word);
      if (normalized.length === 0) continue;
      if (STOP_WORD_LISTS.has(name) && normalized.length === 1) stopWords.add(normalized[0]!);
      if (kind === undefined) continue;
      const key = `${kind}\u0000${normalized.join(" ")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      phrases.push([normalized, kind]);
    }
  }
  phrases.sort((a, b) => a[1] - b[1] || compareStrings(a[0].join(" "), b[0].join(" ")));
  return { phrases, stopWords: [...stopWords].sort(), nameless: NAMELESS_WORDS };
}

export function computeWordLists(lists: readonly WordList[]): [string, Segments[]][] {
  return [...mergedLists(lists)]
    .sort((a, b) => compareStrings(a[0], b[0]))
    .map(([name, words]) => [name, words.map(splitSegments)]);
}
