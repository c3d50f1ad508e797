// The Chevrotain grammar of the rule DSL: statements are Ruby-like calls with or without
// parentheses, an optional `do … end` / `{ … }` block, and literal arguments. Newlines are not
// tokens; a call's paren-less arguments and its block must start on the line of the call, which
// is how `action` followed by `output "x"` on the next line stays two statements.
import { CstParser, EMPTY_ALT, EOF, type CstNode, type IParserErrorMessageProvider, type IToken, type TokenType } from "./chevrotain.js";
import {
  ALL_TOKENS,
  Comma,
  Do,
  Dot,
  End,
  Equals,
  False,
  HashRocket,
  Identifier,
  LBracket,
  LCurly,
  LParen,
  Label,
  Nil,
  NumberLiteral,
  RBracket,
  RCurly,
  RParen,
  RegexLiteral,
  Semicolon,
  StrayAtTop,
  StrayInCurlyBody,
  StrayInDoBody,
  StringLiteral,
  SymbolLiteral,
  True,
  WordsLiteral,
  describeTokenType,
} from "./tokens.js";
/** Tokens that may start a paren-less argument (`{` would be a block, so it may not). */
const ARGUMENT_STARTS: ReadonlySet<TokenType> = new Set([
  StringLiteral,
  SymbolLiteral,
  NumberLiteral,
  RegexLiteral,
  WordsLiteral,
  True,
  False,
  Nil,
  LBracket,
  Label,
  Identifier,
]);

const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual }) => `expected ${describeTokenType(expected)} but found ${describeFound(actual)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${describeFound(firstRedundant)}: expected a method call`,
  buildNoViableAltMessage: ({ expectedPathsPerAlt, actual }) =>
    `expected ${describeAlternatives(expectedPathsPerAlt.flat().map((path) => path[0]).filter(isTokenType))} but found ${describeFound(actual[0])}`,
  buildEarlyExitMessage: ({ expectedIterationPaths, actual }) =>
    `expected ${describeAlternatives(expectedIterationPaths.map((path) => path[0]).filter(isTokenType))} but found ${describeFound(actual[0])}`,
};

function isTokenType(type: TokenType | undefined): type is TokenType {
  return type !== undefined;
}

function describeAlternatives(types: TokenType[]): string {
  const names = [...new Set(types.map(describeTokenType))];
  if (names.length <= 1) return names[0] ?? "something else";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

export function describeFound(token: IToken | undefined): string {
  if (token === undefined || token.tokenType === EOF) return "the end of the file";
  return `'${token.image.length > 30 ? `${token.image.slice(0, 30)}…` : token.image}'`;
}

class DslParser extends CstParser {
  constructor() {
    super([...ALL_TOKENS, StrayInDoBody, StrayInCurlyBody, StrayAtTop], { recoveryEnabled: true, errorMessageProvider: messages, maxLookahead: 2 });
    this.performSelfAnalysis();
  }

  readonly program = this.RULE("program", () => {
    this.MANY(() =>
      this.OR([
        { ALT: () => this.SUBRULE(this.statement) },
        { ALT: () => this.CONSUME(Semicolon) },
        { ALT: () => this.CONSUME(StrayAtTop, { LABEL: "stray" }) },
      ]),
    );
  });

  /** The statements of a `do … end` block: a stray `}` is reported and skipped, `end` closes. */
  readonly doBody = this.RULE("doBody", () => {
    this.MANY(() =>
      this.OR([
        { ALT: () => this.SUBRULE(this.statement) },
        { ALT: () => this.CONSUME(Semicolon) },
        { ALT: () => this.CONSUME(StrayInDoBody, { LABEL: "stray" }) },
      ]),
    );
  });

  /** The statements of a `{ … }` block: a stray `end` is reported and skipped, `}` closes. */
  readonly curlyBody = this.RULE("curlyBody", () => {
    this.MANY(() =>
      this.OR([
        { ALT: () => this.SUBRULE(this.statement) },
        { ALT: () => this.CONSUME(Semicolon) },
        { ALT: () => this.CONSUME(StrayInCurlyBody, { LABEL: "stray" }) },
      ]),
    );
  });

  readonly statement = this.RULE("statement", () => {
    this.SUBRULE(this.callHead);
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.parenArguments) },
        { GATE: () => this.argumentFollowsOnSameLine(), ALT: () => this.SUBRULE(this.argumentList) },
        { ALT: EMPTY_ALT() },
      ],
    });
    this.OPTION({ GATE: () => this.nextIsOnSameLine(), DEF: () => this.SUBRULE(this.block) });
  });

  readonly callHead = this.RULE("callHead", () => {
    this.CONSUME(Identifier, { LABEL: "name" });
    this.OPTION(() => {
      this.CONSUME(Dot);
      this.CONSUME2(Identifier, { LABEL: "method" });
    });
  });

  readonly parenArguments = this.RULE("parenArguments", () => {
    this.CONSUME(LParen);
    this.OPTION(() => this.SUBRULE(this.argumentList));
    this.CONSUME(RParen);
  });

  readonly argumentList = this.RULE("argumentList", () => {
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.argument) });
  });

  readonly argument = this.RULE("argument", () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.labelledPair) },
      {
        ALT: () => {
          this.SUBRULE(this.expression, { LABEL: "value" });
          this.OPTION(() => {
            this.OR2([{ ALT: () => this.CONSUME(HashRocket) }, { ALT: () => this.CONSUME(Equals, { LABEL: "equals" }) }]);
            this.SUBRULE2(this.expression, { LABEL: "rocketValue" });
          });
        },
      },
    ]);
  });

  readonly labelledPair = this.RULE("labelledPair", () => {
    this.CONSUME(Label);
    this.SUBRULE(this.expression);
  });

  readonly expression = this.RULE("expression", () => {
    this.OR([
      { ALT: () => this.CONSUME(StringLiteral) },
      { ALT: () => this.CONSUME(SymbolLiteral) },
      { ALT: () => this.CONSUME(NumberLiteral) },
      { ALT: () => this.CONSUME(RegexLiteral) },
      { ALT: () => this.CONSUME(WordsLiteral) },
      { ALT: () => this.CONSUME(True) },
      { ALT: () => this.CONSUME(False) },
      { ALT: () => this.CONSUME(Nil) },
      { ALT: () => this.SUBRULE(this.arrayLiteral) },
      { ALT: () => this.SUBRULE(this.hashLiteral) },
      { ALT: () => this.SUBRULE(this.valueCall) },
    ]);
  });

  /** A call used as a value (`foo`, `Foo.bar(1)`): no paren-less arguments, no block. */
  readonly valueCall = this.RULE("valueCall", () => {
    this.SUBRULE(this.callHead);
    this.OPTION(() => this.SUBRULE(this.parenArguments));
  });

  // Separators are checked by the AST builder, so a missing or doubled ',' is one precise
  // error instead of a recovery cascade (and a trailing ',' is accepted, as in Ruby).
  readonly arrayLiteral = this.RULE("arrayLiteral", () => {
    this.CONSUME(LBracket);
    this.MANY(() =>
      this.OR([
        { ALT: () => this.CONSUME(Comma) },
        { ALT: () => this.SUBRULE(this.expression) },
      ]),
    );
    this.CONSUME(RBracket);
  });

  readonly hashLiteral = this.RULE("hashLiteral", () => {
    this.CONSUME(LCurly);
    this.MANY(() =>
      this.OR([
        { ALT: () => this.CONSUME(Comma) },
        { ALT: () => this.SUBRULE(this.argument) },
      ]),
    );
    this.CONSUME(RCurly);
  });

  readonly block = this.RULE("block", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Do, { LABEL: "open" });
          this.SUBRULE(this.doBody, { LABEL: "body" });
          this.CONSUME(End, { LABEL: "close" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(LCurly, { LABEL: "open" });
          this.SUBRULE(this.curlyBody, { LABEL: "body" });
          this.CONSUME(RCurly, { LABEL: "close" });
        },
      },
    ]);
  });

  private previousToken(): IToken {
    return this.LA(0);
  }

  private nextIsOnSameLine(): boolean {
    const next = this.LA(1);
    return next.tokenType !== EOF && next.startLine === this.previousToken().endLine;
  }

  private argumentFollowsOnSameLine(): boolean {
    return ARGUMENT_STARTS.has(this.LA(1).tokenType) && this.nextIsOnSameLine();
  }
}

const parser = new DslParser();

export interface ParseError {
  message: string;
  token: IToken;
  /** The rules being parsed when the error happened, outermost first. */
  ruleStack: string[];
}

export interface ParseResult {
  cst: CstNode;
  errors: ParseError[];
}

/** Parses tokens into a concrete syntax tree; never throws, errors come back with their token. */
export function parseTokens(tokens: IToken[]): ParseResult {
  parser.input = tokens;
  const cst = parser.program();
  const errors = parser.errors.map((error) => ({ message: error.message, token: error.token, ruleStack: error.context.ruleStack }));
  return { cst, errors };
}
