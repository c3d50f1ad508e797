// Sentences and clauses of a message (the lex stage, docs/architecture.md), so "delete old.log then list files" is two
// requests answered in order. Boundaries:
//   - a sentence ends at `.`, `!`, `?`, `;` or a line break between two tokens (never inside a
//     literal such as old.log or a quoted text: those are single tokens) when the next sentence
//     starts with an action word (see below), so "say hi; rm x" keeps a shell-like text whole
//     unless the NPC has requests starting with "rm";
//   - a clause ends before a connective ("then", "and then", "after that", "next", the bundle's
//     DSL `connectives`), or before "and" right after a comma, but only when the word after the
//     connective (stop words skipped) is an action word: a word that starts some input or template
//     of the NPC, or an unknown word within typo distance of one ("lst"). So "copy a and b to c"
//     and "echo this then that" stay whole.
// A piece made only of stop words ("please") joins the piece before it.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { NpcModel } from "../bundle/model.js";
import type { Token } from "../text/normalize.js";
import type { WordResolver } from "../text/word-resolver.js";

/** At most this many clauses per message; more and the message is refused (say to split it). */
export const MAX_CLAUSES = 10;

const DEFAULT_CONNECTIVES: readonly string[][] = "and then,and after that,after that,then,next".split(",").map((c) => c.split(" "));

export interface Clause {
  tokens: Token[];
  /** Span in the cleaned message, from the first token's chunk to the last one's. */
  start: number;
  end: number;
}

const connectiveCache = new WeakMap<NpcModel, string[][]>();

const connectives = (function connectives(model: NpcModel): string[][] {
  let list = connectiveCache.get(model);
  if (!list) {
    const all = [...DEFAULT_CONNECTIVES, ...model.payload.config.connectives].filter((c) => c.length > 0);
    const seen = new Set<string>();
    list = all.filter((c) => !seen.has(c.join(" ")) && seen.add(c.join(" "))).sort((a, b) => b.length - a.length);
    connectiveCache.set(model, list);
  }
  return list;
});

const outerStart = (function outerStart(t: Token): number {
  return t.kind === "quoted" ? t.start - 1 : t.start;
});

const outerEnd = (function outerEnd(t: Token): number {
  return t.kind === "quoted" ? t.end + 1 : t.end;
});

/**
 * Whether the text between two consecutive tokens (none for the words of one expanded
 * contraction) has a character `test` accepts: read in place, no slice per pair of words.
 */
const gapHas = (function gapHas(clean: string, prev: Token, next: Token, test: (code: number) => boolean): boolean {
  if (prev.start === next.start) return false;
  for (let i = outerEnd(prev); i < outerStart(next); i++) if (test(clean.charCodeAt(i))) return true;
  return false;
});

/** `.`, `!`, `?`, `;` or a line break. */
const isSentenceEnd = (code: number) => code === 46 || code === 33 || code === 63 || code === 59 || code === 10;
const isComma = (code: number) => code === 44;
/** Anything but whitespace: what String.prototype.trim removes (only gaps inside a connective are read so). */
const isVisible = (code: number) => String.fromCharCode(code).trim() !== "";

const isWord = (function isWord(t: Token | undefined, norm?: string): boolean {
  return t !== undefined && t.kind === "word" && (norm === undefined || t.norm === norm);
});

/** A stop word ("please"): skipped before an action word, and a piece of only these is no clause. */
const isFiller = (function isFiller(model: NpcModel, t: Token | undefined): boolean {
  return isWord(t) && model.stopWords.has(t!.norm);
});

/**
 * The tokens without the stop words that end them ("npm install please" → "npm install"), so a
 * slot never captures a politeness word. Literals and quoted text are never dropped.
 */
export const withoutTrailingFiller = (function withoutTrailingFiller(model: NpcModel, tokens: readonly Token[]): readonly Token[] {
  let end = tokens.length;
  while (end > 1 && isFiller(model, tokens[end - 1])) end--;
  // The usual message ends without one: no copy.
  return end < tokens.length ? tokens.slice(0, end) : tokens;
});

/** Length of the connective starting at `i`, or 0. */
const connectiveAt = (function connectiveAt(model: NpcModel, tokens: readonly Token[], clean: string, i: number): number {
  for (const words of connectives(model)) if (connectiveIs(words, tokens, clean, i)) return words.length;
  if (isWord(tokens[i], "and") && i > 0 && gapHas(clean, tokens[i - 1]!, tokens[i]!, isComma)) return 1;
  return 0;
});

/** Whether the words of a connective are written from `i`, separated by whitespace only. */
const connectiveIs = (function connectiveIs(words: readonly string[], tokens: readonly Token[], clean: string, i: number): boolean {
  for (let k = 0; k < words.length; k++) {
    if (!isWord(tokens[i + k], words[k]) || (k > 0 && gapHas(clean, tokens[i + k - 1]!, tokens[i + k]!, isVisible))) return false;
  }
  return true;
});

function startsWithAction(model: NpcModel, tokens: readonly Token[], from: number, words: WordResolver): boolean {
  let j = from;
  while (j < tokens.length && isFiller(model, tokens[j])) j++;
  const token = tokens[j];
  if (!isWord(token)) return false;
  // A typo of an action word ("lst files") still starts a request, if the word is unknown.
  return words.fits(token!.norm, model.actionWords);
}

/**
 * The pieces' bounds while a message is split, pairs [from, to) (written by index: one array for
 * every call, never shortened; splitClauses runs to its end before it can be called again).
 */
const bounds: number[] = [];

/** Splits the tokens of a message into clauses (at least one when there is any token). */
export const splitClauses = (function splitClauses(model: NpcModel, tokens: Token[], clean: string, words: WordResolver): Clause[] {
  // A piece is a run of consecutive tokens [from, to): bounds first, each piece sliced once at the
  // end (most messages are one piece: one array of its size, not one grown token by token).
  let count = 0;
  let from = 0;
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    if (i > from && gapHas(clean, tokens[i - 1]!, token, isSentenceEnd) && startsWithAction(model, tokens, i, words)) {
      bounds[count++] = from;
      bounds[count++] = i;
      from = i;
    }
    // A connective right after a sentence end ("list files. then show …") is dropped too.
    const connective = i > 0 && token.kind === "word" ? connectiveAt(model, tokens, clean, i) : 0;
    if (connective > 0 && startsWithAction(model, tokens, i + connective, words)) {
      if (i > from) {
        bounds[count++] = from;
        bounds[count++] = i;
      }
      i += connective;
      from = i;
      continue;
    }
    i++;
  }
  if (tokens.length > from) {
    bounds[count++] = from;
    bounds[count++] = tokens.length;
  }
  // One piece runs to the end (any other bound comes with a piece after it); from the start, it is the tokens themselves.
  if (count === 2) return [clauseOf(bounds[0] === 0 ? tokens : tokens.slice(bounds[0]))];
  const filler = (t: Token) => isFiller(model, t);
  const merged: Token[][] = [];
  for (let k = 0; k < count; k += 2) {
    const piece = tokens.slice(bounds[k], bounds[k + 1]);
    const last = merged.at(-1);
    // A piece of only filler words joins its neighbour: the previous piece, or the next one.
    if (last && (piece.every(filler) || last.every(filler))) last.push(...piece);
    else merged.push(piece);
  }
  return merged.map(clauseOf);
});

/** The clause of tokens (at least one): its span from the first token's chunk to the last one's. */
const clauseOf = (function clauseOf(tokens: Token[]): Clause {
  return { tokens, start: outerStart(tokens[0]!), end: outerEnd(tokens[tokens.length - 1]!) };
});
