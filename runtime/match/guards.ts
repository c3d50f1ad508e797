// Safety guards applied to every answer that carries an intent, after it is rendered:
//   - a permission that is missing or unknown is `ask`;
//   - a destructive intent reached by a guess (probabilistic match) is `ask`;
//   - a negated request ("don't delete x", "do not remove y", "never …") never comes back as a
//     runnable destructive call: its permission is `ask` and the response says `negated: true`.
//   - a guess (learned or lexical) never reaches a destructive intent from a message with nothing
//     to refer to: only a pronoun or a bare verb ("delete it", "remove that", "wipe" in a fresh
//     session): see lacksReferent.
// Negation is detected on the message's words, wherever they sit: a false alarm only makes the
// NPC ask first, while a missed "don't" could delete what the user wanted kept.
// In the shell stage's chunk (render/shell-stage.ts), loaded for bundles with destructive intents
// (runtime/stages.ts): a bundle's permissions are PERMISSIONS (checked at load), so the guards
// change no other answer.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).
import { ASCII, type Token } from "../text/normalize.js";
import { textOf } from "../text/token-text.js";
import { PERMISSIONS, type Permission } from "../bundle/bundle-types.js";
import type { MatchStatus } from "../response.js";

export interface GuardedAnswer {
  status: MatchStatus;
  permission: Permission;
  negated?: boolean;
}

export interface GuardedIntent {
  permission: Permission | undefined;
  destructive: boolean;
}

/**
 * don't / dont, doesn't, can't, won't, shouldn't, mustn't; do not, does not; never, not, no,
 * cannot, avoid — as whole words: not after or before a letter or apostrophe (of `letters`,
 * `apostrophes`: character class contents). A lookbehind, not a consumed `(?:^|[^…])`: the same
 * matches, and V8 compiles less than half the regex code (a fresh process's first test ~60 µs faster).
 */
const negation = (letters: string, apostrophes: string, flags: string) =>
  new RegExp(`(?<![${letters}${apostrophes}])(?:(?:do|does|ca|wo|should|must)n[${apostrophes}]?t|(?:do|does)\\s+not|never|not|no|cannot|avoid)(?![${letters}${apostrophes}])`, flags);
/** Apostrophes as typed: ' ‘ ’ ʼ. Matched in place, not rewritten first: every answer of a destructive entry asks. */
export const NEGATION = negation("\\p{L}", "'\u2018\u2019\u02bc", "u");
/** The same on ASCII text (the usual message), where a Unicode pattern would cost its compilation (up to 1 ms) in a fresh process. */
const ASCII_NEGATION = negation("a-z", "'", "");

/** Whether the message negates what it asks ("don't delete x"). */
export const isNegated = (function isNegated(message: string): boolean {
  const lower = message.toLowerCase();
  return (ASCII.test(lower) ? ASCII_NEGATION : NEGATION).test(lower);
});

/** Applies the guards to `answer` in place. */
export const applyGuards = (function applyGuards(answer: GuardedAnswer, intent: GuardedIntent, message: string): void {
  let permission: Permission = intent.permission !== undefined && PERMISSIONS.includes(intent.permission) ? intent.permission : "ask";
  if (intent.destructive && answer.status === "probabilistic match") permission = "ask";
  if (intent.destructive && isNegated(message)) {
    permission = "ask";
    answer.negated = true;
  }
  answer.permission = permission;
});

/**
 * Whether the request has no object a destructive command could be about: at most one word
 * (the verb) besides words that name nothing by themselves (`nameless`, the bundle's
 * sanitizer.nameless: pronouns, determiners, courtesy) — "delete it", "remove that please".
 * A literal (a file name, a path) is an object.
 */
export const lacksReferent = (function lacksReferent(tokens: readonly Token[], nameless: ReadonlySet<string>): boolean {
  let words = 0;
  for (const token of tokens) {
    if (token.kind !== "word") return false;
    if (!nameless.has(token.norm)) words++;
  }
  return words <= 1;
});

const NEGATED_NOTICE = "This reads as a request not to do something destructive, so nothing will run.";
const NO_REFERENT_NOTICE = "This asks for something destructive without saying what it is about, so nothing will run: name what you mean.";

/**
 * Why a guess of a destructive entry must not stand, or null: a negated request ("don't delete
 * x" resembles "delete x"), or, with no context to refer to, a request naming nothing ("delete
 * it"). Negation is read on the request without its sentiment phrases (`query`): "don't worry,
 * …" is encouragement, not a "don't".
 */
export const refusesGuess = (function refusesGuess(query: readonly Token[], context: number | null, nameless: ReadonlySet<string>): string | null {
  return isNegated(textOf(query)) ? NEGATED_NOTICE : context === null && lacksReferent(query, nameless) ? NO_REFERENT_NOTICE : null;
});
