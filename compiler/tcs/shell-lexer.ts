// A quote-aware lexer for POSIX sh / bash command strings, written for one job: knowing where each
// `<||tag||>` placeholder sits (which word, which quoting) so that the compiler can judge a command
// (TCS rules) and tell the runtime how to quote each slot value (shell-template.ts), so that the
// runtime renders values without a shell lexer and without letting them be interpreted.
// It lexes, it does not execute: words keep their parts (literal text, escapes, quotes, expansions)
// with offsets into the command string, and command substitutions are lexed recursively.

import type { QuoteContext } from "../../runtime/bundle/bundle-types.js";

export type { QuoteContext };

interface Span {
  start: number;
  /** Offset just past the end. */
  end: number;
}

export type WordPart =
  | (Span & { kind: "literal" | "escape" | "single" | "ansi-c" | "param" | "arith" })
  | (Span & { kind: "double"; parts: WordPart[] })
  | (Span & { kind: "command"; script: Script; backtick: boolean })
  | (Span & { kind: "process"; script: Script })
  | (Span & { kind: "placeholder"; tag: string });

export interface WordToken extends Span {
  type: "word";
  parts: WordPart[];
}

export interface OperatorToken extends Span {
  type: "operator";
  /** `&&`, `||`, `;`, `;;`, `|`, `&`, `(`, `)`, `\n`, or a redirection (`>`, `>>`, `<`, `<<`, `&>`, …). */
  op: string;
  /** The file descriptor written before a redirection (`2` in `2>`). */
  fd?: string;
}

export interface HeredocToken extends Span {
  type: "heredoc";
  /** A quoted delimiter (`<<'EOF'`) makes the body literal. */
  quoted: boolean;
  delimiter: string;
  /** Expansions of an unquoted body (empty for a quoted one). */
  parts: WordPart[];
}

export type Token = WordToken | OperatorToken | HeredocToken;

export interface Script extends Span {
  tokens: Token[];
}

export interface PlaceholderSite extends Span {
  tag: string;
  context: QuoteContext;
  /** Inside an old-style `…` substitution, whose body the shell unescapes before parsing it. */
  inBackticks: boolean;
  /** The word holding it; absent in heredoc bodies and comments. */
  word?: WordToken;
  /** The script (top level or a substitution's body) whose token holds it. */
  script: Script;
}

export interface ShellLexError {
  message: string;
  offset: number;
}

export interface LexedCommand {
  source: string;
  script: Script;
  placeholders: PlaceholderSite[];
  /** The first error stops lexing: the script then holds what came before it. */
  error?: ShellLexError;
}

const PLACEHOLDER_PATTERN = /<\|\|([\w.-]+)\|\|>/y;

/** Longest first: the first that fits is the operator. */
const OPERATORS = ";;& &>> <<< <<- && || ;; ;& |& &> << >> <> <& >& >| < > | & ; ( )".split(" ");
const HEREDOC_OPERATORS = new Set(["<<", "<<-"]);
/** Characters that end an unquoted word (tested one character at a time). */
const WORD_BREAK = " \t\n;&|()<>";
const DOUBLE_QUOTE_ESCAPABLE = new Set(["$", "`", '"', "\\", "\n"]);
/** What may follow `$` in a parameter expansion: a special parameter or the start of a name. */
const PARAM_START = /[@*#?$!\-0-9A-Za-z_]/;

class LexFailure extends Error {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

interface PendingHeredoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
  tokens: Token[];
  script: Script;
}

/** Lexes `source`; never throws (an unparsable command comes back with `error`). */
export function lexShell(source: string): LexedCommand {
  const lexer = new ShellLexer(source);
  const script: Script = { start: 0, end: source.length, tokens: [] };
  try {
    lexer.lexScriptInto(script, null);
    return { source, script, placeholders: lexer.placeholders };
  } catch (failure) {
    if (!(failure instanceof LexFailure)) throw failure;
    return { source, script, placeholders: lexer.placeholders, error: { message: failure.message, offset: failure.offset } };
  }
}

/** The tag of the first placeholder in `source`, as the lexer reads placeholders, if there is one. */
export function firstPlaceholder(source: string): string | undefined {
  for (let at = source.indexOf("<||"); at !== -1; at = source.indexOf("<||", at + 1)) {
    const found = placeholderAt(source, at);
    if (found) return found.tag;
  }
  return undefined;
}

/** The placeholder starting at `offset`, if one does. */
function placeholderAt(source: string, offset: number): { tag: string; end: number } | undefined {
  PLACEHOLDER_PATTERN.lastIndex = offset;
  const match = PLACEHOLDER_PATTERN.exec(source);
  return match ? { tag: match[1]!, end: offset + match[0].length } : undefined;
}

class ShellLexer {
  readonly placeholders: PlaceholderSite[] = [];
  private pos = 0;
  private backtickDepth = 0;
  /** Closers of the substitutions being lexed, innermost last. */
  private readonly closers: (")" | "`")[] = [];
  private pending: PendingHeredoc[] = [];

  constructor(private readonly src: string) {}

  /** Lexes tokens into `script` until end of input, or the `)` / backtick closing a substitution. */
  lexScriptInto(script: Script, closer: ")" | "`" | null): void {
    const { src } = this;
    let openParens = 0;
    for (;;) {
      this.skipBlanks();
      if (this.pos >= src.length) {
        if (closer) throw new LexFailure(script.start - (closer === ")" ? 2 : 1), closer === ")" ? "unterminated $( … )" : "unterminated backtick substitution");
        this.flushHeredocsAtEnd();
        script.end = src.length;
        return;
      }
      const c = src[this.pos]!;
      if (closer === ")" && c === ")" && openParens === 0) break;
      if (closer === "`" && c === "`") break;
      if (c === "\n") {
        script.tokens.push({ type: "operator", op: "\n", start: this.pos, end: this.pos + 1 });
        this.pos++;
        this.readHeredocBodies();
        continue;
      }
      if (c === "#") {
        this.skipComment(script);
        continue;
      }
      const operator = this.peekOperator();
      if (operator) {
        if (operator.op === "(") openParens++;
        if (operator.op === ")") openParens--;
        script.tokens.push(operator);
        this.pos = operator.end;
        if (HEREDOC_OPERATORS.has(operator.op)) this.expectHeredocDelimiter(script, operator);
        continue;
      }
      script.tokens.push(this.lexWord(script));
    }
    script.end = this.pos;
    if (this.pending.length > 0) throw new LexFailure(this.pos, `here-document <<${this.pending[0]!.delimiter} has no body before the substitution ends`);
  }

  private skipBlanks(): void {
    const { src } = this;
    for (;;) {
      const c = src[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && src[this.pos + 1] === "\n") this.pos += 2;
      else return;
    }
  }

  private skipComment(script: Script): void {
    const end = this.src.indexOf("\n", this.pos);
    const stop = end < 0 ? this.src.length : end;
    this.scanPlaceholders(this.pos, stop, "comment", script);
    this.pos = stop;
  }

  private peekOperator(): OperatorToken | undefined {
    const { src, pos } = this;
    if (placeholderAt(src, pos)) return undefined;
    const c = src[pos]!;
    if ((c === "<" || c === ">") && src[pos + 1] === "(") return undefined; // process substitution
    let fdEnd = pos;
    while (fdEnd < src.length && src[fdEnd]! >= "0" && src[fdEnd]! <= "9") fdEnd++;
    const hasFd = fdEnd > pos && (src[fdEnd] === "<" || src[fdEnd] === ">") && !placeholderAt(src, fdEnd);
    const opStart = hasFd ? fdEnd : pos;
    let op = OPERATORS.find((candidate) => src.startsWith(candidate, opStart));
    if (!op || (hasFd && !op.startsWith("<") && !op.startsWith(">"))) return undefined;
    // `<<||f||>` is `<` then a placeholder: the value is put in before the shell reads the command.
    for (let k = 1; k < op.length; k++) if (placeholderAt(src, opStart + k)) op = op.slice(0, k);
    return { type: "operator", op, start: pos, end: opStart + op.length, ...(hasFd ? { fd: src.slice(pos, fdEnd) } : {}) };
  }

  private expectHeredocDelimiter(script: Script, operator: OperatorToken): void {
    this.skipBlanks();
    const c = this.src[this.pos];
    if (c === undefined || WORD_BREAK.includes(c)) throw new LexFailure(operator.start, `${operator.op} needs a delimiter word`);
    const word = this.lexWord(script);
    script.tokens.push(word);
    const quoted = word.parts.some((part) => part.kind !== "literal");
    this.pending.push({
      delimiter: unquoteStatic(this.src, word.parts),
      quoted,
      stripTabs: operator.op === "<<-",
      tokens: script.tokens,
      script,
    });
  }

  /** After a newline: the bodies of the here-documents opened on the line just ended. */
  private readHeredocBodies(): void {
    const { src } = this;
    const pending = this.pending;
    this.pending = [];
    for (const heredoc of pending) {
      const bodyStart = this.pos;
      let lineStart = this.pos;
      let bodyEnd = -1;
      while (lineStart <= src.length) {
        const newline = src.indexOf("\n", lineStart);
        const lineEnd = newline < 0 ? src.length : newline;
        let line = src.slice(lineStart, lineEnd);
        if (heredoc.stripTabs) line = line.replace(/^\t+/, "");
        if (line === heredoc.delimiter) {
          bodyEnd = lineStart;
          this.pos = newline < 0 ? src.length : newline + 1;
          break;
        }
        if (newline < 0) break;
        lineStart = newline + 1;
      }
      if (bodyEnd < 0) throw new LexFailure(bodyStart, `here-document is not closed by a line "${heredoc.delimiter}"`);
      let parts: WordPart[] = [];
      if (heredoc.quoted) this.scanPlaceholders(bodyStart, bodyEnd, "heredoc-literal", heredoc.script);
      else {
        const afterBody = this.pos;
        this.pos = bodyStart;
        parts = this.lexExpandingText(bodyEnd, null, "heredoc", heredoc.script, undefined);
        this.pos = afterBody;
      }
      heredoc.tokens.push({ type: "heredoc", start: bodyStart, end: bodyEnd, quoted: heredoc.quoted, delimiter: heredoc.delimiter, parts });
    }
  }

  private flushHeredocsAtEnd(): void {
    if (this.pending.length > 0) throw new LexFailure(this.src.length, `here-document <<${this.pending[0]!.delimiter} has no body`);
  }

  private lexWord(script: Script): WordToken {
    const { src } = this;
    const word: WordToken = { type: "word", start: this.pos, end: this.pos, parts: [] };
    const parts = word.parts;
    let literalStart = -1;
    const closeLiteral = (): void => {
      if (literalStart >= 0) parts.push({ kind: "literal", start: literalStart, end: this.pos });
      literalStart = -1;
    };
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      const atWordStart = this.pos === word.start;
      const placeholder = placeholderAt(src, this.pos);
      if (placeholder) {
        closeLiteral();
        this.addPlaceholderPart(parts, placeholder, "unquoted", script, word);
        continue;
      }
      if ((c === "<" || c === ">") && src[this.pos + 1] === "(" && atWordStart) {
        const start = this.pos;
        this.pos += 2;
        const inner = this.lexSubScript(start + 2, ")");
        parts.push({ kind: "process", start, end: this.pos, script: inner });
        continue;
      }
      if (WORD_BREAK.includes(c)) break;
      if (c === "`" && this.closers[this.closers.length - 1] === "`") break;
      if (c === "'") {
        closeLiteral();
        parts.push(this.lexSingle(script, word));
        continue;
      }
      if (c === '"') {
        closeLiteral();
        parts.push(this.lexDouble(script, word));
        continue;
      }
      if (c === "\\") {
        closeLiteral();
        if (src[this.pos + 1] === "\n") this.pos += 2; // line continuation
        else {
          const start = this.pos;
          this.pos = Math.min(src.length, this.pos + 2);
          parts.push({ kind: "escape", start, end: this.pos });
        }
        continue;
      }
      if (c === "$" || c === "`") {
        const expansion = this.lexExpansion(script, word, true);
        if (expansion) {
          closeLiteral();
          parts.push(expansion);
          continue;
        }
      }
      if (literalStart < 0) literalStart = this.pos;
      this.pos++;
    }
    closeLiteral();
    if (this.pos === word.start) throw new LexFailure(this.pos, `unexpected ${JSON.stringify(src[this.pos] ?? "end of input")}`);
    word.end = this.pos;
    return word;
  }

  private lexSingle(script: Script, word: WordToken): WordPart {
    const start = this.pos;
    const close = this.src.indexOf("'", start + 1);
    if (close < 0) throw new LexFailure(start, "unterminated single quote");
    this.scanPlaceholders(start + 1, close, "single", script, word);
    this.pos = close + 1;
    return { kind: "single", start, end: this.pos };
  }

  private lexDouble(script: Script, word: WordToken | undefined): WordPart {
    const start = this.pos;
    this.pos++;
    const parts = this.lexExpandingText(this.src.length, '"', "double", script, word);
    if (this.src[this.pos] !== '"') throw new LexFailure(start, "unterminated double quote");
    this.pos++;
    return { kind: "double", start, end: this.pos, parts };
  }

  /**
   * Text where `$…`, backticks and some backslashes are live: inside double quotes (ends at `"`)
   * or an unquoted here-document body (ends at `limit`, and `"` is an ordinary character there).
   */
  private lexExpandingText(limit: number, closer: '"' | null, context: QuoteContext, script: Script, word: WordToken | undefined): WordPart[] {
    const { src } = this;
    const parts: WordPart[] = [];
    let literalStart = -1;
    const closeLiteral = (): void => {
      if (literalStart >= 0) parts.push({ kind: "literal", start: literalStart, end: this.pos });
      literalStart = -1;
    };
    while (this.pos < limit) {
      const c = src[this.pos]!;
      if (c === closer) break;
      const placeholder = placeholderAt(src, this.pos);
      if (placeholder) {
        closeLiteral();
        this.addPlaceholderPart(parts, placeholder, context, script, word);
        continue;
      }
      if (c === "\\" && DOUBLE_QUOTE_ESCAPABLE.has(src[this.pos + 1] ?? "") && !(closer === null && src[this.pos + 1] === '"')) {
        closeLiteral();
        parts.push({ kind: "escape", start: this.pos, end: this.pos + 2 });
        this.pos += 2;
        continue;
      }
      if (c === "$" || c === "`") {
        const expansion = this.lexExpansion(script, word, false);
        if (expansion) {
          closeLiteral();
          parts.push(expansion);
          continue;
        }
      }
      if (literalStart < 0) literalStart = this.pos;
      this.pos++;
    }
    closeLiteral();
    return parts;
  }

  /** `$…` or a backtick substitution at `pos`; undefined for a `$` that expands nothing. */
  private lexExpansion(script: Script, word: WordToken | undefined, unquoted: boolean): WordPart | undefined {
    const { src } = this;
    const start = this.pos;
    if (src[start] === "`") {
      this.pos++;
      this.backtickDepth++;
      const inner = this.lexSubScript(start + 1, "`");
      this.backtickDepth--;
      return { kind: "command", start, end: this.pos, script: inner, backtick: true };
    }
    const next = src[start + 1];
    if (next === "'" && unquoted) {
      const end = this.findAnsiCEnd(start + 2);
      this.scanPlaceholders(start + 2, end - 1, "ansi-c", script, word);
      this.pos = end;
      return { kind: "ansi-c", start, end };
    }
    if (next === '"' && unquoted) {
      this.pos++;
      const double = this.lexDouble(script, word);
      return { ...double, start };
    }
    if (next === "(" && src[start + 2] === "(") {
      const end = this.findClosing(start + 3, "(", ")", 2, "unterminated $(( … ))");
      this.scanPlaceholders(start + 3, end - 2, "arith", script, word);
      this.pos = end;
      return { kind: "arith", start, end };
    }
    if (next === "(") {
      this.pos += 2;
      const inner = this.lexSubScript(start + 2, ")");
      return { kind: "command", start, end: this.pos, script: inner, backtick: false };
    }
    if (next === "{") {
      const end = this.findClosing(start + 2, "{", "}", 1, "unterminated ${ … }");
      this.scanPlaceholders(start + 2, end - 1, "param", script, word);
      this.pos = end;
      return { kind: "param", start, end };
    }
    if (next !== undefined && PARAM_START.test(next)) {
      let end = start + 2;
      if (/[A-Za-z_]/.test(next)) while (end < src.length && /\w/.test(src[end]!)) end++;
      this.pos = end;
      return { kind: "param", start, end };
    }
    return undefined;
  }

  /** Lexes a `$( … )` / `<( … )` / backtick body; `pos` is just past the opener, and ends just past the closer. */
  private lexSubScript(bodyStart: number, closer: ")" | "`"): Script {
    const savedPending = this.pending;
    this.pending = [];
    const inner: Script = { start: bodyStart, end: bodyStart, tokens: [] };
    this.closers.push(closer);
    this.lexScriptInto(inner, closer);
    this.closers.pop();
    this.pending = savedPending;
    this.pos++; // the closer
    return inner;
  }

  private findAnsiCEnd(from: number): number {
    const { src } = this;
    for (let i = from; i < src.length; i++) {
      if (src[i] === "\\") i++;
      else if (src[i] === "'") return i + 1;
    }
    throw new LexFailure(from - 2, "unterminated $' … ' string");
  }

  /** The offset just past the `depth` closers that balance the openers already consumed. Quotes inside are skipped. */
  private findClosing(from: number, open: string, close: string, depth: number, message: string): number {
    const { src } = this;
    let level = depth;
    for (let i = from; i < src.length; i++) {
      const c = src[i]!;
      if (c === "\\") i++;
      else if (c === "'") {
        const end = src.indexOf("'", i + 1);
        if (end < 0) break;
        i = end;
      } else if (c === '"') {
        let j = i + 1;
        while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
        if (j >= src.length) break;
        i = j;
      } else if (c === open) level++;
      else if (c === close && --level === 0) return i + 1;
    }
    throw new LexFailure(from - (open === "{" ? 2 : 3), message);
  }

  private addPlaceholderPart(parts: WordPart[], placeholder: { tag: string; end: number }, context: QuoteContext, script: Script, word: WordToken | undefined): void {
    const start = this.pos;
    const before = parts[parts.length - 1];
    const afterDollar = before?.kind === "literal" && before.end === start && this.src[start - 1] === "$";
    parts.push({ kind: "placeholder", start, end: placeholder.end, tag: placeholder.tag });
    this.addSite(placeholder.tag, start, placeholder.end, afterDollar ? "dollar" : context, script, word);
    this.pos = placeholder.end;
  }

  private scanPlaceholders(from: number, to: number, context: QuoteContext, script: Script, word?: WordToken): void {
    for (let i = this.src.indexOf("<||", from); i >= 0 && i < to; i = this.src.indexOf("<||", i + 1)) {
      const placeholder = placeholderAt(this.src, i);
      if (placeholder && placeholder.end <= to) this.addSite(placeholder.tag, i, placeholder.end, context, script, word);
    }
  }

  private addSite(tag: string, start: number, end: number, context: QuoteContext, script: Script, word: WordToken | undefined): void {
    this.placeholders.push({ tag, start, end, context, inBackticks: this.backtickDepth > 0, script, ...(word ? { word } : {}) });
  }
}

/** The text a word made only of literal, escaped and quoted characters stands for (no expansion is run). */
export function unquoteStatic(source: string, parts: readonly WordPart[]): string {
  let text = "";
  for (const part of parts) {
    const raw = source.slice(part.start, part.end);
    if (part.kind === "escape") text += raw.slice(1);
    else if (part.kind === "single") text += raw.slice(1, -1);
    else if (part.kind === "double") text += unquoteStatic(source, part.parts);
    else text += raw;
  }
  return text;
}
