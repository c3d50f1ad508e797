// Stage sanitize: finds noise (expletives, interjections) and sentiment phrases (thanking, encouraging,
// discouraging) as whole words or phrases outside quotes. Noise is removed before matching;
// sentiment phrases are counted and left out of the probabilistic stage only. A chunk of its own,
// loaded for bundles with sanitizer phrases (runtime/stages.ts); what it returns is sanitized.ts's.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import { SENTIMENT_KINDS, type SentimentKind } from "../bundle/bundle-types.js";
import { phraseAt, type NpcModel } from "../bundle/model.js";
import type { Phrase } from "../bundle/phrase-table.js";
import type { Token } from "./normalize.js";
import { textOf } from "./token-text.js";
import type { WitnessItem } from "../response.js";
import { emptySentiment, NOISE_KINDS, unsanitized, type Sanitized } from "./sanitized.js";

/**
 * Per model, the words looked up lately and the index of their first phrase (PhraseTable.first;
 * -1: none). A Map hashes a word natively, where `first` hashes it in a loop over its characters:
 * that was a tenth of an exact answer under --jitless. Emptied at MEMO_WORDS words, so it stays
 * small whatever the messages; what a lookup finds never depends on it.
 */
const memos = new WeakMap<NpcModel, Map<string, number>>();
const MEMO_WORDS = 4096;

export const sanitize = (function sanitize(model: NpcModel, tokens: Token[]): Sanitized {
  let memo = memos.get(model);
  if (memo === undefined) memos.set(model, (memo = new Map()));
  else if (memo.size >= MEMO_WORDS) memo.clear();
  // The usual message has no noise and no sentiment phrase: its tokens are kept as they are.
  let first = 0;
  while (first < tokens.length && (tokens[first]!.kind === "quoted" || !longestPhraseAt(model, memo, tokens, first))) first++;
  if (first === tokens.length) return unsanitized(tokens);
  const counts = emptySentiment();
  const kept: Token[] = tokens.slice(0, first);
  const content: Token[] = tokens.slice(0, first);
  const items: WitnessItem[] = [];
  const phrases: string[] = [];
  let i = first;
  while (i < tokens.length) {
    const token = tokens[i]!;
    const phrase = token.kind === "quoted" ? undefined : longestPhraseAt(model, memo, tokens, i);
    if (!phrase) {
      kept.push(token);
      content.push(token);
      i++;
      continue;
    }
    const kind: SentimentKind = SENTIMENT_KINDS[phrase.value]!;
    counts[kind]++;
    const covered = tokens.slice(i, i + phrase.words.length);
    if (phrase.value >= NOISE_KINDS) {
      kept.push(...covered);
      phrases.push(phrase.words.join(" "));
    }
    items.push({ word: textOf(covered), kind: phrase.value < NOISE_KINDS ? "noise" : "word", matched: kind });
    i += phrase.words.length;
  }
  return { kept, content, counts, items, phrases };
});

/** The longest phrase written at `at` (its first word's group is longest first), or undefined. */
const longestPhraseAt = (function longestPhraseAt(model: NpcModel, memo: Map<string, number>, tokens: readonly Token[], at: number): Phrase | undefined {
  const table = model.sanitizerPhrases;
  const word = tokens[at]!.norm;
  let i = memo.get(word);
  if (i === undefined) memo.set(word, (i = table.first(word)));
  for (; i !== -1 && table.startsWith(i, word); i++) {
    const phrase = table.phrase(i);
    if (phraseAt(phrase, tokens, at)) return phrase;
  }
  return undefined;
});
