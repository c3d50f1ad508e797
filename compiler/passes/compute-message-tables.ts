// Compute pass: the tables the runtime would otherwise derive on the first message it answers,
// so that first message costs what every other does (issue #15): the action words that may start a
// clause (runtime/conversation/clauses.ts). Deterministic (words sorted with compareStrings).

import type { BundleMessageTables, BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { compareStrings } from "../order.js";
import { stringTableOf } from "../../runtime/bundle/encode.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";
import { emptyMoves, framesOf } from "../../runtime/bundle/automaton-frames.js";
import type { Lexicon } from "./compute-lexicon.js";
import type { VocabTable } from "./compute-vocab.js";

type Parts = Pick<BundlePayload, "exact" | "contextExact" | "automaton"> & { lexicon: Pick<Lexicon, "words" | "tags">; vocab: Pick<VocabTable, "phrases"> };

/** Words that start an exact input (any context) or a template path of the NPC. */
function actionWords({ exact, contextExact, automaton, lexicon, vocab }: Parts): string[] {
  const words = new Set<string>();
  for (const table of [exact, ...contextExact]) for (const key of stringsOf(table.keys)) words.add(key.split(" ", 1)[0]!);
  // The start key and every key reachable from it without a word (optional nodes, rule calls and
  // ends) start a path.
  const frames = framesOf(automaton);
  const starts = new Set<number>([0]);
  for (const key of starts) for (const next of emptyMoves(frames, automaton, key)) starts.add(next);
  const tags = new Set<number>();
  for (const key of starts) for (const [edgeTags] of automaton[frames.state[key]!]!.vocab) for (const tag of edgeTags) tags.add(tag);
  lexicon.tags.forEach((wordTags, word) => {
    if (wordTags.some((tag) => tags.has(tag))) words.add(lexicon.words[word]!);
  });
  for (const [tag, phrase] of vocab.phrases) if (tags.has(tag)) words.add(phrase[0]!);
  words.delete("");
  return [...words].sort(compareStrings);
}

export function computeMessageTables(parts: Parts): BundleMessageTables {
  return { actionWords: stringTableOf(actionWords(parts)) };
}
