// Lexing a DSL file into tokens, reporting every lexical error as a diagnostic (never throwing).
import { Lexer, type IToken } from "./chevrotain.js";
import type { DiagnosticBag } from "../../diagnostics.js";
import { DSL_CODES } from "./codes.js";
import type { LineMap } from "../location.js";
import { ALL_TOKENS, RegexLiteral, StringLiteral, WordsLiteral, type LiteralPayload } from "./tokens.js";

// Start positions only: no token the parser sees spans a line (strings, regexes and word lists
// end at their line's end; only skipped whitespace holds line breaks), so a token's start line is
// its end line, and three fewer fields on each of a big file's ~200k tokens is memory saved.
// Built on the first file lexed, like the parser: its set-up (~50 ms) is not paid by NDF-only builds.
let dslLexer: InstanceType<typeof Lexer> | undefined;

export function lexDsl(lines: LineMap, bag: DiagnosticBag): IToken[] {
  dslLexer ??= new Lexer(ALL_TOKENS, { positionTracking: "onlyStart", ensureOptimizations: true });
  const result = dslLexer.tokenize(lines.text);
  for (const error of result.errors) {
    const found = lines.text.slice(error.offset, error.offset + error.length);
    bag.error(
      DSL_CODES.unexpectedCharacter,
      `unexpected character${found.length > 1 ? "s" : ""} ${JSON.stringify(found)}: expected a method call, a literal or punctuation of the rule DSL`,
      lines.at(error.offset, error.offset + error.length),
    );
  }
  for (const token of result.tokens) reportUnterminated(token, lines, bag);
  return result.tokens;
}

function reportUnterminated(token: IToken, lines: LineMap, bag: DiagnosticBag): void {
  const payload = token.payload as LiteralPayload | undefined;
  if (payload?.unterminated !== true) return;
  const loc = lines.ofToken(token);
  if (token.tokenType === StringLiteral) {
    const quote = token.image[0];
    bag.error(DSL_CODES.unterminatedString, `unterminated string: expected a closing ${quote} before the end of the line`, loc);
  } else if (token.tokenType === RegexLiteral) {
    bag.error(DSL_CODES.unterminatedRegex, `unterminated regex: expected its closing delimiter before the end of the line`, loc);
  } else if (token.tokenType === WordsLiteral) {
    bag.error(DSL_CODES.unterminatedString, `unterminated %w word list: expected its closing delimiter before the end of the line`, loc);
  }
}
