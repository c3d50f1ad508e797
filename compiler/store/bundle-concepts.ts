// The concepts of a compiled NPC (its vocab tags and their words), for refusing a teaching whose
// word already means something else in the bundle. A word of the NPC's inputs that is no synonym
// is its own concept: teaching it another meaning would change answers the dataset already gives.
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import type { ConceptLookup, KnownConcept } from "./store.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";

export function bundleConcepts(payload: BundlePayload): ConceptLookup {
  const { tags } = payload.lexicon;
  const words = stringsOf(payload.lexicon.words);
  const tagWords = new Map<number, string[]>();
  const tagsOf = new Map<string, number[]>();
  const add = (tag: number, word: string) => {
    pushTo(tagWords, tag, word);
    pushTo(tagsOf, word, tag);
  };
  words.forEach((word, id) => {
    for (let k = tags.starts[id]!; k < tags.starts[id + 1]!; k++) add(tags.items[k]!, word);
  });
  const { phrases, phraseTags } = payload.vocab;
  phraseTags.forEach((tag, i) => add(tag, phrases.at(i)));
  for (const list of tagWords.values()) list.sort();
  for (const list of tagsOf.values()) list.sort((a, b) => a - b);
  const inputWords = new Set(words);
  return (word: string): KnownConcept[] => {
    const tagIds = tagsOf.get(word) ?? [];
    if (tagIds.length === 0) return inputWords.has(word) ? [{ concept: `"${word}" itself`, words: [word] }] : [];
    return tagIds.map((tag) => ({ concept: payload.vocab.tags[tag]!, words: [...tagWords.get(tag)!] }));
  };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
