// Text → syntax tree: lex, parse with recovery, turn every lexing and parsing error into a
// diagnostic (file:line:col, what was found, what was expected), then build the AST from the
// parts each grammar rule matched (build-ast.ts).
import { EOF, type IToken, type TokenType } from "./chevrotain.js";
import type { DiagnosticBag } from "../../diagnostics.js";
import type { DslFile } from "./ast.js";
import { DSL_CODES } from "./codes.js";
import { lexDsl } from "./lexer.js";
import type { LineMap } from "../location.js";
import { AstBuilder } from "./build-ast.js";
import { parseTokens, type ParseError } from "./parser.js";
import { Do, End, LBracket, LCurly, LParen, RBracket, RCurly, RParen, describeTokenType } from "./tokens.js";

/** Deeper nesting than any rule file needs; the recursive parser must not meet a stack limit. */
export const MAX_NESTING = 64;

export function parseDsl(lines: LineMap, bag: DiagnosticBag): DslFile {
  const tokens = lexDsl(lines, bag);
  const tooDeep = firstTooDeep(tokens);
  if (tooDeep !== undefined) {
    bag.error(DSL_CODES.nestingTooDeep, `blocks, arrays and hashes nest more than ${MAX_NESTING} levels deep here; the file is not parsed further`, lines.ofToken(tooDeep));
    return { statements: [] };
  }
  const { program, errors } = parseTokens(tokens);
  reportParseErrors(errors, tokens, lines, bag);
  const builder = new AstBuilder(lines, bag, tokens);
  return { statements: builder.statementsOf(program) };
}

/** Each opening token and the token that closes it. */
const CLOSER_OF = new Map<TokenType, TokenType>([
  [Do, End],
  [LCurly, RCurly],
  [LParen, RParen],
  [LBracket, RBracket],
]);

const CLOSING = new Set(CLOSER_OF.values());

function reportParseErrors(errors: ParseError[], tokens: IToken[], lines: LineMap, bag: DiagnosticBag): void {
  const seen = new Set<string>();
  for (const error of errors) {
    const atEnd = error.token.tokenType === EOF || Number.isNaN(error.token.startOffset);
    // at the end of the file only the first error says something (the innermost unclosed opener)
    const key = atEnd ? "eof" : `${error.token.startOffset}|${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!atEnd) {
      bag.error(DSL_CODES.unexpectedToken, withOpener(error, tokens, lines), lines.ofToken(error.token));
      continue;
    }
    const opener = innermostUnclosed(tokens);
    if (opener === undefined) {
      bag.error(DSL_CODES.unexpectedToken, error.message, lines.end());
      continue;
    }
    const closer = describeTokenType(CLOSER_OF.get(opener.tokenType)!);
    bag.error(
      DSL_CODES.unclosedBlock,
      `'${opener.image}' is never closed: expected ${closer} before the end of the file`,
      lines.ofToken(opener),
    );
  }
}

/** "expected ')' but found X" also says where the '(' it would close was opened. */
function withOpener(error: ParseError, tokens: IToken[], lines: LineMap): string {
  const before = tokens.filter((token) => token.startOffset < error.token.startOffset);
  const opener = innermostUnclosed(before);
  if (opener === undefined) return error.message;
  const closer = describeTokenType(CLOSER_OF.get(opener.tokenType)!);
  if (!error.message.startsWith(`expected ${closer} `)) return error.message;
  const { line, column } = lines.at(opener.startOffset);
  return `${error.message} ('${opener.image}' opened at ${line}:${column} is still open)`;
}

/** The first opener that goes deeper than MAX_NESTING, if any. */
function firstTooDeep(tokens: IToken[]): IToken | undefined {
  let depth = 0;
  for (const token of tokens) {
    if (CLOSER_OF.has(token.tokenType)) {
      if (++depth > MAX_NESTING) return token;
    } else if (CLOSING.has(token.tokenType)) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/**
 * The innermost opener (`do`, `{`, `(`, `[`) left open at the end of the file. A closer that does
 * not fit the innermost opener closes nothing: in `{ output "hi"` … `end` the `end` belongs to an
 * outer `do`, and the `{` it skipped is the one never closed (issue 19: counting it as closed
 * pointed at the end of the file instead of the line the block was opened on).
 */
function innermostUnclosed(tokens: IToken[]): IToken | undefined {
  const open: IToken[] = [];
  for (const token of tokens) {
    if (CLOSER_OF.has(token.tokenType)) open.push(token);
    else if (open.length > 0 && CLOSER_OF.get(open[open.length - 1]!.tokenType) === token.tokenType) open.pop();
  }
  return open[open.length - 1];
}
