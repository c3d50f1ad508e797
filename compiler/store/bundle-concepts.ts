// The concepts of a compiled NPC (its vocab tags and their words), for refusing a teaching whose
// word already means something else in the bundle. A word of the NPC's inputs that is no synonym
// is its own concept: teaching it another meaning would change answers the dataset already gives.
import type { BundlePayload } from "../../runtime/bundle-types.js";
import type { ConceptLookup, KnownConcept } from "./store.js";

export function bundleConcepts(payload: BundlePayload): ConceptLookup {
  const { words, tags } = payload.lexicon;
  const tagWords = new Map<number, string[]>();
  words.forEach((word, id) => {
    for (const tag of tags[id]!) tagWords.set(tag, [...(tagWords.get(tag) ?? []), word]);
  });
  for (const [tag, phrase] of payload.vocab.phrases) tagWords.set(tag, [...(tagWords.get(tag) ?? []), phrase.join(" ")]);
  const tagsOf = new Map<string, number[]>();
  for (const [tag, list] of tagWords) for (const word of list) tagsOf.set(word, [...(tagsOf.get(word) ?? []), tag]);
  const inputWords = new Set(words);
  return (word: string): KnownConcept[] => {
    const tagIds = tagsOf.get(word) ?? [];
    if (tagIds.length === 0) return inputWords.has(word) ? [{ concept: `"${word}" itself`, words: [word] }] : [];
    return [...tagIds].sort((a, b) => a - b).map((tag) => ({ concept: payload.vocab.tags[tag]!, words: [...tagWords.get(tag)!].sort() }));
  };
}
