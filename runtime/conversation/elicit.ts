// How a message leans on the context register (runtime/conversation/register.ts), read from its words, and the
// questions the NPC asks when it cannot: a missing slot ("Delete what?"), a pronoun with nothing
// to refer to, an object with no action. The session (session.ts) acts on what these return; the
// texts it re-reads ("delete b.log" for "and b.log too") go through the template matcher again,
// so a filled slot must fit its type exactly as if it had been typed in one message.
import type { OpenTemplate } from "./open-template.js";
import type { NpcModel } from "../bundle/model.js";
import type { Token } from "../text/normalize.js";
import type { ContextRegister } from "./register.js";

/** Words that end an ellipsis ("and b.log too", "the other one as well"). */
const ELLIPSIS_END = [["too"], ["as", "well"], ["also"]];
/** Words that open a correction of the last answer ("no, I meant c.log"). */
const CORRECTION_OPENERS = [["no", "i", "meant"], ["no", "i", "mean"], ["i", "meant"], ["no"]];
/** What "the other one" is said as, after a correction opener or alone ("no, the other one"). */
const OTHER_ONE = [["other", "one"], ["other"]];
/** Words between the opener and the new value that say nothing about it. */
const LEADING = new Set(["and", "the", "also", "then", "instead", "rather", "please"]);

const words = (tokens: readonly Token[]) => tokens.map((t) => (t.kind === "word" ? t.norm : ""));

function startsWith(list: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((w, i) => list[i] === w);
}

/** The text the tokens [from, to) were typed as, in the clause `read` (offsets relative to `base`). */
function spanOf(read: string, tokens: readonly Token[], from: number, to: number, base: number): string {
  return from >= to ? "" : read.slice(tokens[from]!.start - base, tokens[to - 1]!.end - base);
}

/**
 * The new value of an ellipsis ("and b.log too" → "b.log") or a correction ("no, I meant c.log"
 * → "c.log"), with which kind; null for any other message. "no" alone is not a correction here
 * (it answers a confirmation, compiler/serve/host.ts).
 */
export function redoTarget(tokens: readonly Token[], read: string, base: number): { kind: "ellipsis" | "correction"; value: string } | null {
  const list = words(tokens);
  let from = 0;
  let to = tokens.length;
  let kind: "ellipsis" | "correction" | null = null;
  const end = ELLIPSIS_END.find((e) => e.length < to && e.every((w, i) => list[to - e.length + i] === w));
  if (end) {
    kind = "ellipsis";
    to -= end.length;
  } else {
    const opener = CORRECTION_OPENERS.find((o) => o.length < to && startsWith(list, o));
    if (!opener) return null;
    kind = "correction";
    from = opener.length;
  }
  while (from < to && LEADING.has(list[from]!)) from++;
  const value = spanOf(read, tokens, from, to, base);
  return value === "" ? null : { kind, value };
}

/** Whether the message asks for the other candidate of the last answer: "no, the other one", "the other one", "I meant the other". */
export function asksOtherOne(tokens: readonly Token[]): boolean {
  const list = words(tokens);
  const opener = CORRECTION_OPENERS.find((o) => startsWith(list, o));
  let from = opener?.length ?? 0;
  while (from < list.length && LEADING.has(list[from]!)) from++;
  const rest = list.slice(from);
  return OTHER_ONE.some((phrase) => phrase.length === rest.length && startsWith(rest, phrase));
}

/** "Which one do you mean: 1. list files, 2. show disk usage?": the last rejection's suggestions, by number. */
export function whichOfQuestion(examples: readonly string[]): string {
  return `Which one do you mean: ${examples.map((example, i) => `${i + 1}. ${example}`).join(", ")}? Say it.`;
}

/** The other candidate needs words the guess did not have (a template's slots): the NPC asks for the whole request. */
export function wholeRequestQuestion(example: string): string {
  return `Did you mean "${example}"? Say the whole request, with what it should act on.`;
}

/** `text` with the register's last slot replaced by `value`: the last request, redone on a new target. */
export function redoText(register: ContextRegister, value: string): string | null {
  const { last_text: text, last_slot: slot } = register;
  return text === null || slot === null ? null : text.slice(0, slot.start) + value + text.slice(slot.end);
}

/** The request to re-read once a pending slot's answer arrives. */
export function filledText(pendingText: string, answer: string): string {
  return `${pendingText} ${answer}`;
}

/** The request as typed, plus the words the template needs before its missing slot. */
export function pendingText(read: string, open: OpenTemplate): string {
  return [read, ...open.fillers].join(" ");
}

/** "Delete what? (the target)": the message repeated, and the slot it lacks. */
export function slotQuestion(read: string, open: OpenTemplate): string {
  const asked = pendingText(read, open);
  return `${asked.charAt(0).toUpperCase()}${asked.slice(1)} what? (the ${open.slot.replace(/_/g, " ")})`;
}

export function referentQuestion(pronoun: string): string {
  return `What does "${pronoun}" refer to? Nothing has been named yet: say which file, folder or thing you mean.`;
}

export function actionQuestion(object: string): string {
  return `What should I do with ${object}?`;
}

export const WHICH_ONE = "Which one do you mean? Name it.";

/** The first pronoun of a request that asks for nothing else ("delete it", "remove them please"), or null. */
export function barePronoun(model: NpcModel, tokens: readonly Token[], isPronoun: (word: string) => boolean): string | null {
  const pronoun = tokens.find((t) => t.kind === "word" && isPronoun(t.norm));
  if (!pronoun) return null;
  // A request with a literal or two real words besides the verb names its object itself.
  let named = 0;
  for (const t of tokens) if (t.kind !== "word" || !model.nameless.has(t.norm)) named++;
  return named <= 2 ? pronoun.norm : null;
}

/** Pronouns the register binds: `it`, `this`, `that` to last_path; the plural ones to last_result first. */
const SINGULAR = new Set(["it", "this", "that"]);
const PLURAL = new Set(["them", "those", "these"]);

export function isPronoun(word: string): boolean {
  return SINGULAR.has(word) || PLURAL.has(word);
}

/** What a pronoun stands for now, or null (nothing to refer to). */
export function referentOf(register: ContextRegister, pronoun: string): string | null {
  return PLURAL.has(pronoun) ? (register.last_result ?? register.last_path) : register.last_path;
}
