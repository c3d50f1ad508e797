// The ONE normalization of ndfc: the compiler builds table keys and vocabulary with it, the
// runtime normalizes messages with it, so a phrase written in a dataset and the same phrase typed
// by a user always meet. Tokens keep their literal text (case included) for slot capture.
// The functions written `const f = (function f(…) {…});` (here and in every runtime module on a
// message's path) are the top-level ones a fresh process compiled lazily during its first 100
// messages (V8's --log-function-events): V8 compiles a parenthesized function when its module
// loads (a "PIFE" hint), so the first message and each stage's first use do not (issue 15;
// rolldown's minifier keeps the parentheses). Class methods cannot take the hint and stay lazy.

export type TokenKind = "word" | "literal" | "quoted";

/** What a literal token looks like (the lex stage, docs/architecture.md), for typed slots and later stages. */
export type LiteralShape = "url" | "env" | "number" | "flag" | "glob" | "path" | "address" | "file" | "assignment" | "symbol";

export interface Token {
  /** Text as typed (case kept, surrounding sentence punctuation removed, quotes removed). */
  text: string;
  /** Normalized form: lowercased; contractions expanded (one token per expanded word). */
  norm: string;
  kind: TokenKind;
  /**
   * For literal tokens: their shape; null for words and quoted text. Always present, so every
   * token has one hidden class and the stages' property reads stay monomorphic.
   */
  shape: LiteralShape | null;
  /** Span of `text` in the cleaned message (see `cleaned`). Expanded words share a span. */
  start: number;
  end: number;
}

export interface Tokenized {
  /** The message after NFKC, control-character removal and quote unification. */
  clean: string;
  tokens: Token[];
  /** A `"` or `'` that opens a quote nobody closes (the quote is then read as punctuation). */
  unbalancedQuote: boolean;
  /** Whether `clean` is lowercase ASCII words one space apart: then it is the tokens' key (keyOf). */
  cleanIsKey: boolean;
}

/** Punctuation a word sheds at its start and its end (single UTF-16 units, looked up with `includes`). */
const LEADING_PUNCT = "([{\"'«“‘¿¡<";
const TRAILING_PUNCT = ")]}\"'»”’,;:!?…>";
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/g;
// C0/C1 controls except tab/newline/CR, which become plain whitespace later.
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Unicode property regexes cost up to a millisecond each to compile on their first use: a fresh
// process's first messages pay that. ASCII text (the usual message) is read by char code, or by
// ASCII twins of these patterns that match the same ASCII strings (test/runtime/ascii-paths.test.ts).
const ALNUM = /[\p{L}\p{N}]/u;
/** A chunk of shell symbols (`>`, `>>`, `|`, `&&`) or a lone quote: in a terminal assistant these carry the meaning ("' and \"" vs "> and >>"), so they are kept. */
const SYMBOL = /^(?:[<>|&]+|["'`])$/;
/** A token without any of these characters cannot have a literal shape (a cheap first test). */
const LITERAL_HINT = /[/\\~$*@.=\d-]/;
// Character-class tests on the path of every message: a regex runs natively, where a JS loop
// over the char codes took ten times as long under --jitless.
export const ASCII = /^[\0-\x7f]*$/;
const PRINTABLE_ASCII = /^[ -~]*$/;
export const LOWER_ASCII = /^[a-z]*$/;
const SPACE = /\s/;
/** Lowercase ASCII words one space apart: the usual message, which is its own tokens' key. */
const LOWER_WORDS = /^[a-z]+(?: [a-z]+)*$/;

/**
 * Literal-looking text: kept intact (inner dots, slashes, dashes) and matched by types, not words.
 * First match names the shape. A Unicode pattern's third element is its ASCII twin, for ASCII text.
 */
export const LITERAL_SHAPES: readonly (readonly [LiteralShape, RegExp, RegExp?])[] = [
  ["url", /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i],
  ["env", /^\$/],
  ["number", /^[+-]?\d+(?:[.,]\d+)*%?$/], // also versions and IP addresses
  ["flag", /^--?[\p{L}\p{N}]/u, /^--?[A-Za-z\d]/],
  ["glob", /\*/],
  ["path", /[/\\]|^~|^\.{1,2}$/],
  ["address", /@/], // e-mail addresses, user@host
  ["file", /[\p{L}\p{N}_-]\.[\p{L}\p{N}_]/u, /[\w-]\.\w/], // file names
  ["number", /^[+-]?\d/], // with a unit: 10mb, 3x
  ["assignment", /=/],
];

// Stems before "n't" that are not words themselves: can't → "ca", won't → "wo". Both tables are
// looked up by a word of the message, so they have no prototype: `x'__proto__` or
// `constructorn't` must find nothing, not Object.prototype's properties (TypeScript types the
// `__proto__: null` entry as a property, hence the null in the table's type).
type WordTable = Readonly<Record<string, string | null | undefined>>;
const NOT_SUFFIX: WordTable = { __proto__: null, ca: "can", wo: "will", sha: "shall", ai: "is" };
const SHORT_SUFFIXES: WordTable = { __proto__: null, re: "are", ve: "have", ll: "will", m: "am", d: "would" };
/** Words whose "'s" is "is", each between spaces (a word has no space: found with `includes`). */
const IS_BEFORE_S = " it that what where who how there here he she when why ";

/** NFKC, controls dropped, typographic quotes made ASCII. Lengths change, so spans refer to this text. */
function cleaned(message: string): string {
  return message
    .normalize("NFKC")
    .replace(CONTROL_CHARS, "")
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"');
}

/**
 * The two words of an English contraction (`what's` → what, is; `don't` → do, not; `we'll` → we,
 * will), or null for any other word (no array for the usual word, which stays whole).
 */
const contraction = (function contraction(word: string): [string, string] | null {
  const apostrophe = word.indexOf("'");
  if (apostrophe <= 0 || apostrophe === word.length - 1) return null;
  if (word.endsWith("n't")) {
    const stem = word.slice(0, -3);
    return stem ? [NOT_SUFFIX[stem] ?? stem, "not"] : null;
  }
  const stem = word.slice(0, apostrophe);
  const suffix = word.slice(apostrophe + 1);
  if (suffix === "s") {
    if (stem === "let") return ["let", "us"];
    return IS_BEFORE_S.includes(` ${stem} `) ? [stem, "is"] : null;
  }
  const expanded = SHORT_SUFFIXES[suffix];
  return expanded ? [stem, expanded] : null;
});

/** The shape of a token's text, or null for a word. */
export const literalShape = (function literalShape(text: string): LiteralShape | null {
  if (!LITERAL_HINT.test(text)) return null;
  const ascii = ASCII.test(text);
  for (const [shape, pattern, asciiTwin] of LITERAL_SHAPES) if ((ascii && asciiTwin ? asciiTwin : pattern).test(text)) return shape;
  return null;
});

/** ALNUM.test(text): by its ASCII twin while the text is ASCII. */
export const hasLetterOrDigit = (function hasLetterOrDigit(text: string): boolean {
  return (ASCII.test(text) ? /[a-z\d]/i : ALNUM).test(text);
});

/**
 * Token objects reused from one message to the next (the session's tokenize): a message then
 * allocates its list and its strings, not an object per token. A pool's tokens hold only until
 * its next message: nothing may keep one past the message it was made for (answers keep strings).
 */
export class TokenPool {
  /** Every token made so far; the current message's are the first `count` (never shortened: `length = 0` frees an array's store). */
  readonly tokens: Token[] = [];
  /** Tokens of the current message (tokenize starts one at 0). */
  count = 0;

  /** The next token of the message, set to these fields (every token is made by the one literal here: one hidden class). */
  take(text: string, norm: string, kind: TokenKind, shape: LiteralShape | null, start: number, end: number): void {
    const k = this.count++;
    const token = this.tokens[k];
    if (token === undefined) this.tokens[k] = { text, norm, kind, shape, start, end };
    else {
      token.text = text;
      token.norm = norm;
      token.kind = kind;
      token.shape = shape;
      token.start = start;
      token.end = end;
    }
  }

}

/**
 * Splits a message into tokens. Quoted text ("…" or '…') becomes one token with its inner text.
 * With a pool, the tokens are the pool's (see TokenPool), else they are new (a pool of their own).
 */
export const tokenize = (function tokenize(message: string, pool = new TokenPool()): Tokenized {
  // Lowercase words one space apart (most messages) are split at the spaces: each is a word
  // token as it is, so no character needs a test of its own (that was most of tokenize under --jitless).
  const words = LOWER_WORDS.test(message);
  // In printable ASCII (nothing to clean) the only whitespace is " ": chunks are found with indexOf.
  const plain = words || PRINTABLE_ASCII.test(message);
  const clean = plain ? message : cleaned(message);
  pool.count = 0;
  let unbalancedQuote = false;
  // Where a quote's search for its closing one failed: a later quote of the same kind searches a
  // part of that text and fails too, so it is not searched again (linear on "'a 'a 'a …").
  let unclosedDouble = Infinity;
  let unclosedSingle = Infinity;
  let i = 0;
  while (i < clean.length) {
    if (words) {
      const end = chunkEnd(clean, i, true);
      const word = clean.slice(i, end);
      pool.take(word, word, "word", null, i, end);
      i = end + 1;
      continue;
    }
    if (plain ? clean[i] === " " : SPACE.test(clean[i]!)) {
      i++;
      continue;
    }
    const ch = clean[i]!;
    if (ch === '"' || ch === "'") {
      const unclosedFrom = ch === '"' ? unclosedDouble : unclosedSingle;
      const close = i > unclosedFrom ? -1 : findClosingQuote(clean, i);
      if (close < 0 && i < unclosedFrom) {
        if (ch === '"') unclosedDouble = i;
        else unclosedSingle = i;
      }
      if (close > 0) {
        const inner = clean.slice(i + 1, close);
        const collapsed = inner.trim().replace(/\s+/g, " ");
        if (collapsed.length > 0) pool.take(inner, collapsed.toLowerCase(), "quoted", null, i + 1, close);
        i = close + 1;
        continue;
      }
      // An apostrophe may stand alone ("students' books"); a ' opening a word never closed is a
      // quote. A " followed by a space or the end opens nothing: it is the symbol itself.
      const next = clean[i + 1] ?? " ";
      if (ch === '"' ? !SPACE.test(next) : hasLetterOrDigit(next)) unbalancedQuote = true;
    }
    const end = chunkEnd(clean, i, plain);
    pushChunk(clean, i, end, pool);
    i = end;
  }
  // The message's tokens, in an array of their number.
  return { clean, tokens: pool.tokens.slice(0, pool.count), unbalancedQuote, cleanIsKey: words };
});

/** Where the chunk starting at `from` ends: at the next whitespace (in `plain` text, the next space) or the end. */
const chunkEnd = (function chunkEnd(text: string, from: number, plain: boolean): number {
  if (plain) {
    const space = text.indexOf(" ", from);
    return space < 0 ? text.length : space;
  }
  let end = from;
  while (end < text.length && !SPACE.test(text[end]!)) end++;
  return end;
});

/** A quote closes at the same quote char followed by whitespace, punctuation or the end. */
function findClosingQuote(text: string, open: number): number {
  const quote = text[open]!;
  for (let j = open + 1; j < text.length; j++) {
    if (text[j] !== quote) continue;
    const next = text[j + 1];
    if (next === undefined || /[\s.,;:!?)\]}]/.test(next)) return j;
  }
  return -1;
}

const pushChunk = (function pushChunk(clean: string, from: number, to: number, tokens: TokenPool): void {
  // The usual chunk, a lowercase ASCII word, is its own token: no punctuation, shape or contraction to look for.
  const chunk = clean.slice(from, to);
  if (LOWER_ASCII.test(chunk)) return tokens.take(chunk, chunk, "word", null, from, to);
  let start = from;
  let end = to;
  while (start < end && LEADING_PUNCT.includes(clean[start]!)) start++;
  while (end > start && TRAILING_PUNCT.includes(clean[end - 1]!)) end--;
  // A sentence's final dot goes, a literal's inner dots and a bare ".." stay.
  let dots = end;
  while (dots > start && clean[dots - 1] === ".") dots--;
  if (dots < end && dots > start && hasLetterOrDigit(clean[dots - 1]!)) end = dots;
  if (start >= end) return pushSymbol(clean, from, to, tokens);
  let text = clean.slice(start, end);
  // toLowerCase: Unicode-aware and locale-independent.
  let norm = text.toLowerCase();
  // Latin abbreviations are read as words (with their final dot), never as file names.
  const abbreviation = norm === "e.g" || norm === "i.e";
  if (abbreviation && clean[end] === ".") {
    text = clean.slice(start, ++end);
    norm += ".";
  }
  const shape = abbreviation ? null : literalShape(text);
  // Pure punctuation ("?", "--", "..."): dropped unless it looks like a literal.
  if (!shape && !hasLetterOrDigit(text)) return pushSymbol(clean, from, to, tokens);
  if (shape) {
    tokens.take(text, norm, "literal", shape, start, end);
    return;
  }
  const words = contraction(norm);
  for (let k = 0; k < (words ? 2 : 1); k++) tokens.take(text, words ? words[k]! : norm, "word", null, start, end);
});

/** Punctuation-only chunks are dropped, except shell symbols (SYMBOL), kept whole as literals. */
function pushSymbol(clean: string, from: number, to: number, tokens: TokenPool): void {
  const text = clean.slice(from, to);
  if (SYMBOL.test(text)) tokens.take(text, text, "literal", "symbol", from, to);
}

/**
 * The key of tokens in the exact tables: their norms joined by single spaces. Given the clean
 * message they come from, a message that already reads as its key (lowercase words one space
 * apart, the usual case) gives a slice of it: one string, none built word by word and flattened.
 */
export const keyOf = (function keyOf(tokens: readonly Token[], clean?: string): string {
  if (clean !== undefined && tokens.length > 0 && readsAsKey(tokens, clean)) return clean.slice(tokens[0]!.start, tokens[tokens.length - 1]!.end);
  // A loop, not map + join: no array per call, and no "wrong map" deopt when an empty message's
  // array (small integers) and a real one's (strings) meet at the same join.
  let key = "";
  for (let i = 0; i < tokens.length; i++) key = i === 0 ? tokens[i]!.norm : `${key} ${tokens[i]!.norm}`;
  return key;
});

/** Whether `clean` spells the tokens' norms one space apart from the first token's start to the last one's end. */
const readsAsKey = (function readsAsKey(tokens: readonly Token[], clean: string): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const { norm, start, end } = tokens[i]!;
    if (norm.length !== end - start || !clean.startsWith(norm, start)) return false;
    if (i > 0 && (start !== tokens[i - 1]!.end + 1 || clean.charCodeAt(start - 1) !== 32)) return false;
  }
  return true;
});

/** The normalized key of a text: its token norms joined by single spaces. */
export function normalizeKey(text: string): string {
  return keyOf(tokenize(text).tokens);
}

/** Normalized words of a text (what the vocabulary and the IDF table are made of). */
export function normalizeWords(text: string): string[] {
  return tokenize(text).tokens.map((t) => t.norm);
}
