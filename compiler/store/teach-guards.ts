// Refusals of a teaching that need the NPC's bundle: a word that is a typo of a word the NPC
// already knows ("delte means delete"). The runtime already corrects such a word, as a guess, and
// guesses of destructive entries ask first; taught, it would answer as an exact match instead.
// A typo is what the runtime's own typo index finds: a known word within the edit budget (1 or 2
// edits, by length) that the probabilistic stage allows.
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { FuzzyIndex } from "../../runtime/text/fuzzy.js";
import type { TeachGuard } from "./store.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";

/** Edits the typo index allows at most: a word longer than every known word by more cannot be a typo of one. */
const MAX_EDITS = 2;

export function teachingGuard(payload: BundlePayload): TeachGuard {
  const words = stringsOf(payload.lexicon.words);
  const known = new Set(words);
  const longest = words.reduce((max, word) => Math.max(max, word.length), 0);
  const index = new FuzzyIndex(payload.fuzzy, payload.lexicon.words);
  const typoOf = (word: string): string | null => {
    if (known.has(word) || word.length > longest + MAX_EDITS) return null;
    const [closest] = index.lookup(word);
    return closest === undefined ? null : words[closest.word]!;
  };
  return (word: string): string | null => {
    for (const part of word.split(" ")) {
      const typo = typoOf(part);
      if (typo !== null) {
        return `"${part}" looks like a typo of "${typo}", which ${payload.config.npcName} already knows (typos are corrected, not taught)`;
      }
    }
    return null;
  };
}
