// Token types of the rule DSL. Strings and regexes use custom matchers: a string or regex that is
// not closed on its line still becomes one token (flagged `unterminated` in its payload) so the
// parser keeps going and the lexer reports one precise diagnostic instead of a cascade.
import { createToken, Lexer, type CustomPatternMatcherReturn, type IToken, type TokenType } from "./chevrotain.js";

/** What a custom matcher learns about a literal while scanning it. */
export interface LiteralPayload {
  unterminated: boolean;
}

function matched(image: string, payload: LiteralPayload): CustomPatternMatcherReturn {
  const result: CustomPatternMatcherReturn = [image];
  result.payload = payload;
  return result;
}

/** `"…"` or `'…'` on one line; an unclosed one runs to the end of the line. */
function matchString(text: string, offset: number): CustomPatternMatcherReturn | null {
  const quote = text[offset];
  if (quote !== '"' && quote !== "'") return null;
  let i = offset + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === "\n" || c === "\r") break;
    if (c === "\\" && i + 1 < text.length && text[i + 1] !== "\n") {
      i += 2;
      continue;
    }
    if (c === quote) return matched(text.slice(offset, i + 1), { unterminated: false });
    i++;
  }
  return matched(text.slice(offset, i), { unterminated: true });
}

/** Scans a regex body from `start` up to `close` (brackets nest when open ≠ close). */
function scanRegexBody(text: string, start: number, open: string, close: string): { end: number; closed: boolean } {
  let depth = 0;
  let inClass = false;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === "\n" || c === "\r") return { end: i, closed: false };
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (open === "/" && c === "[") inClass = true;
    else if (open === "/" && c === "]") inClass = false;
    else if (c === close && !inClass && depth === 0) return { end: i, closed: true };
    else if (open !== close && c === open) depth++;
    else if (open !== close && c === close) depth--;
    i++;
  }
  return { end: Math.min(i, text.length), closed: false };
}

const PERCENT_DELIMITERS: Record<string, string> = { "{": "}", "(": ")", "[": "]", "<": ">", "|": "|", "!": "!" };

function regexWithFlags(text: string, offset: number, bodyStart: number, open: string, close: string): CustomPatternMatcherReturn {
  const { end, closed } = scanRegexBody(text, bodyStart, open, close);
  if (!closed) return matched(text.slice(offset, end), { unterminated: true });
  let flagsEnd = end + 1;
  while (flagsEnd < text.length && /[a-z]/.test(text[flagsEnd]!)) flagsEnd++;
  return matched(text.slice(offset, flagsEnd), { unterminated: false });
}

/**
 * Whether a `/` at `offset` starts a regex: where an expression is expected — at the start of a
 * statement (first token on its line), after `,` `(` `[` `{` `=>` a `key:` label or `do`, or after a
 * method name followed by a space when the `/` itself is not followed by one (`types /x/` versus
 * `a / b`). Everywhere else it is the division operator, which the grammar rejects.
 */
function regexAllowed(text: string, offset: number, tokens: IToken[]): boolean {
  const previous = tokens[tokens.length - 1];
  if (previous === undefined) return true;
  if (text.slice(previous.startOffset + previous.image.length, offset).includes("\n")) return true;
  const type = previous.tokenType;
  if (EXPRESSION_FOLLOWS.has(type)) return true;
  if (type === Identifier) {
    const spaceBefore = /\s/.test(text[offset - 1] ?? "");
    const spaceAfter = /\s/.test(text[offset + 1] ?? "");
    return spaceBefore && !spaceAfter;
  }
  return false;
}

function matchRegex(text: string, offset: number, tokens: IToken[]): CustomPatternMatcherReturn | null {
  const c = text[offset];
  if (c === "%" && text[offset + 1] === "r") {
    const open = text[offset + 2];
    const close = open === undefined ? undefined : PERCENT_DELIMITERS[open];
    if (open === undefined || close === undefined) return null;
    return regexWithFlags(text, offset, offset + 3, open, close);
  }
  if (c === "/" && regexAllowed(text, offset, tokens)) return regexWithFlags(text, offset, offset + 1, "/", "/");
  return null;
}

/** `%w[a b c]`: an array of words (any of the %r delimiters; words cannot contain spaces). */
function matchWords(text: string, offset: number): CustomPatternMatcherReturn | null {
  if (text[offset] !== "%" || text[offset + 1] !== "w") return null;
  const open = text[offset + 2];
  const close = open === undefined ? undefined : PERCENT_DELIMITERS[open];
  if (close === undefined) return null;
  for (let i = offset + 3; i < text.length; i++) {
    if (text[i] === close) return matched(text.slice(offset, i + 1), { unterminated: false });
    if (text[i] === "\n") return matched(text.slice(offset, i), { unterminated: true });
  }
  return matched(text.slice(offset), { unterminated: true });
}

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n\f\v]+|\\\r?\n/, group: Lexer.SKIPPED, line_breaks: true });
export const Comment = createToken({ name: "Comment", pattern: /#[^\n]*/, group: Lexer.SKIPPED });
export const Identifier = createToken({ name: "Identifier", pattern: /[A-Za-z_][A-Za-z0-9_]*[?!]?/ });
/** `key:` in a hash or argument list (never `key::`). */
export const Label = createToken({ name: "Label", pattern: /[A-Za-z_][A-Za-z0-9_]*[?!]?:(?!:)/ });
export const Do = createToken({ name: "Do", pattern: /do/, longer_alt: [Label, Identifier] });
export const End = createToken({ name: "End", pattern: /end/, longer_alt: [Label, Identifier] });
export const True = createToken({ name: "True", pattern: /true/, longer_alt: [Label, Identifier] });
export const False = createToken({ name: "False", pattern: /false/, longer_alt: [Label, Identifier] });
export const Nil = createToken({ name: "Nil", pattern: /nil/, longer_alt: [Label, Identifier] });

export const StringLiteral = createToken({
  name: "StringLiteral",
  pattern: { exec: (text, offset) => matchString(text, offset) },
  line_breaks: false,
  start_chars_hint: ['"', "'"],
});
export const SymbolLiteral = createToken({
  name: "SymbolLiteral",
  pattern: /:(?:[A-Za-z_][A-Za-z0-9_]*[?!=]?|"(?:[^"\\\n]|\\.)*")/,
});
export const RegexLiteral = createToken({
  name: "RegexLiteral",
  pattern: { exec: (text, offset, tokens) => matchRegex(text, offset, tokens) },
  line_breaks: false,
  start_chars_hint: ["/", "%"],
});
export const WordsLiteral = createToken({
  name: "WordsLiteral",
  pattern: { exec: (text, offset) => matchWords(text, offset) },
  line_breaks: false,
  start_chars_hint: ["%"],
});
export const NumberLiteral = createToken({
  name: "NumberLiteral",
  pattern: /-?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?/,
});

export const HashRocket = createToken({ name: "HashRocket", pattern: /=>/, label: "'=>'" });
/** Not part of the DSL: lexed so `"k" = v` is one precise error ("write =>"), not a cascade. */
export const Equals = createToken({ name: "Equals", pattern: /=/, label: "'='" });
export const LParen = createToken({ name: "LParen", pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: "RParen", pattern: /\)/, label: "')'" });
export const LBracket = createToken({ name: "LBracket", pattern: /\[/, label: "'['" });
export const RBracket = createToken({ name: "RBracket", pattern: /]/, label: "']'" });
export const LCurly = createToken({ name: "LCurly", pattern: /{/, label: "'{'" });
export const RCurly = createToken({ name: "RCurly", pattern: /}/, label: "'}'" });
export const Comma = createToken({ name: "Comma", pattern: /,/, label: "','" });
export const Dot = createToken({ name: "Dot", pattern: /\./, label: "'.'" });
export const Semicolon = createToken({ name: "Semicolon", pattern: /;/, label: "';'" });
/** The division operator: lexed so a stray `/` is a parse error at its position, never a regex. */
export const Slash = createToken({ name: "Slash", pattern: /\//, label: "'/'" });

const EXPRESSION_FOLLOWS: ReadonlySet<TokenType> = new Set([
  Comma,
  LParen,
  LBracket,
  LCurly,
  HashRocket,
  Label,
  Do,
  Semicolon,
]);

/** Order matters: comments before everything, keywords before identifiers, labels before both. */
export const ALL_TOKENS: TokenType[] = [
  WhiteSpace,
  Comment,
  RegexLiteral,
  WordsLiteral,
  StringLiteral,
  Label,
  Do,
  End,
  True,
  False,
  Nil,
  Identifier,
  SymbolLiteral,
  NumberLiteral,
  HashRocket,
  Equals,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LCurly,
  RCurly,
  Comma,
  Dot,
  Semicolon,
  Slash,
];

/** Tokens that can never start a statement: the parser consumes them one by one and reports them. */
export const StrayInDoBody = createToken({ name: "StrayInDoBody", pattern: Lexer.NA });
export const StrayInCurlyBody = createToken({ name: "StrayInCurlyBody", pattern: Lexer.NA });
/** At the top level `end` and `}` are stray too. */
export const StrayAtTop = createToken({ name: "StrayAtTop", pattern: Lexer.NA });

for (const type of ALL_TOKENS) {
  if (type === Identifier || type === Semicolon || type.GROUP !== undefined) continue;
  const categories = [StrayAtTop];
  if (type !== End) categories.push(StrayInDoBody);
  if (type !== RCurly) categories.push(StrayInCurlyBody);
  type.CATEGORIES = categories;
}

/** How a token is named in messages: `'end'`, `a string`, `end of file`. */
export function describeTokenType(type: TokenType): string {
  switch (type) {
    case Identifier:
      return "a method name";
    case Label:
      return "a `key:` label";
    case StringLiteral:
      return "a string";
    case SymbolLiteral:
      return "a symbol";
    case RegexLiteral:
      return "a regex";
    case WordsLiteral:
      return "a %w[…] word list";
    case NumberLiteral:
      return "a number";
    case Do:
      return "'do'";
    case End:
      return "'end'";
    case True:
    case False:
    case Nil:
      return `'${type.name.toLowerCase()}'`;
    default:
      return type.LABEL ?? type.name;
  }
}
