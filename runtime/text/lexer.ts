// Stage lex (docs/architecture.md, Runtime stages): the message as typed tokens. Words and literals come from the one
// tokenizer (normalize.ts), so build and run time agree; this module names each token's kind and
// recovers the punctuation between them, which marks sentence ends and clause boundaries.
//
// Kinds: `word`; literals `string` (quoted text), `url`, `env` ($HOME), `glob` (*.log; `?` is
// never a glob: a trailing question mark is punctuation), `path`, `flag`, `number`, `file`, plus
// `address` (user@host), `assignment` (KEY=value) and `symbol` (`>`, `>>`, `|`, `&&`, a lone
// quote); `punctuation`. Literals keep their exact text and case. "e.g." and "i.e." are words.

import { tokenize, type Token } from "./normalize.js";

export type LiteralKind = "string" | "url" | "env" | "glob" | "path" | "flag" | "number" | "file" | "address" | "assignment" | "symbol";
export type LexKind = "word" | LiteralKind | "punctuation";

export interface Lexeme {
  kind: LexKind;
  /** Exact text (case kept; a quoted string without its quotes). */
  text: string;
  /** Span in the cleaned message. */
  start: number;
  end: number;
}

export interface Lexed {
  /** The cleaned message (NFKC, controls removed); every span refers to it. */
  clean: string;
  /** Matching tokens (normalized words and literals), as the later stages use them. */
  tokens: Token[];
  /** One lexeme per token chunk and per punctuation character, in order. */
  lexemes: Lexeme[];
  /** A `"` opened and never closed. */
  unbalancedQuote: boolean;
}

const QUOTES = new Set(['"', "'"]);

/** The kind of a matching token. */
export function tokenKind(token: Token): Exclude<LexKind, "punctuation"> {
  if (token.kind === "quoted") return "string";
  if (token.kind === "literal") return token.shape ?? "file";
  return "word";
}

export function lex(message: string): Lexed {
  const { clean, tokens, unbalancedQuote } = tokenize(message);
  const lexemes: Lexeme[] = [];
  let cursor = 0;
  for (const token of tokens) {
    if (token.start < cursor) continue; // second word of an expanded contraction: same chunk
    pushPunctuation(clean, cursor, token.kind === "quoted" ? token.start - 1 : token.start, lexemes);
    lexemes.push({ kind: tokenKind(token), text: token.text, start: token.start, end: token.end });
    cursor = token.kind === "quoted" ? token.end + 1 : token.end;
  }
  pushPunctuation(clean, cursor, clean.length, lexemes);
  return { clean, tokens, lexemes, unbalancedQuote };
}

function pushPunctuation(clean: string, from: number, to: number, out: Lexeme[]): void {
  for (let i = from; i < to; i++) {
    const ch = clean[i]!;
    if (/\s/.test(ch) || QUOTES.has(ch)) continue;
    out.push({ kind: "punctuation", text: ch, start: i, end: i + 1 });
  }
}
