// The Chevrotain grammar of the rule DSL: statements are Ruby-like calls with or without
// parentheses, an optional `do … end` / `{ … }` block, and literal arguments. Newlines are not
// tokens; a call's paren-less arguments and its block must start on the line of the call, which
// is how `action` followed by `output "x"` on the next line stays two statements.
// Each rule records what it matched into parts its caller made for it (parse-parts.ts): no CST.
// Rules take their parts as an optional argument because chevrotain records the grammar by
// running each rule once without arguments; the default parts of that run are thrown away.
import { EmbeddedActionsParser, EMPTY_ALT, EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from "./chevrotain.js";
import type { ArgumentListParts, ArgumentParts, ArrayParts, BlockParts, BodyParts, ExpressionParts, HashParts, HeadParts, LabelledParts, ParenParts, StatementParts, ValueCallParts } from "./parse-parts.js";
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

const body = (rule: BodyParts["rule"]): BodyParts => ({ rule, statements: [], stray: [] });
const argumentList = (): ArgumentListParts => ({ arguments: [] });

class DslParser extends EmbeddedActionsParser {
  constructor() {
    super([...ALL_TOKENS, StrayInDoBody, StrayInCurlyBody, StrayAtTop], { recoveryEnabled: true, errorMessageProvider: messages, maxLookahead: 2 });
    this.performSelfAnalysis();
  }

  readonly program = this.RULE("program", (parts: BodyParts = body("program")) => {
    this.MANY(() =>
      this.OR([
        { ALT: () => this.statementInto(parts) },
        { ALT: () => this.CONSUME(Semicolon) },
        { ALT: () => parts.stray.push(this.CONSUME(StrayAtTop)) },
      ]),
    );
  });

  /** The statements of a `do … end` block: a stray `}` is reported and skipped, `end` closes. */
  readonly doBody = this.RULE("doBody", (parts: BodyParts = body("doBody")) => {
    this.MANY(() =>
      this.OR([
        { ALT: () => this.statementInto(parts) },
        { ALT: () => this.CONSUME(Semicolon) },
        { ALT: () => parts.stray.push(this.CONSUME(StrayInDoBody)) },
      ]),
    );
  });

  /** The statements of a `{ … }` block: a stray `end` is reported and skipped, `}` closes. */
  readonly curlyBody = this.RULE("curlyBody", (parts: BodyParts = body("curlyBody")) => {
    this.MANY(() =>
      this.OR([
        { ALT: () => this.statementInto(parts) },
        { ALT: () => this.CONSUME(Semicolon) },
        { ALT: () => parts.stray.push(this.CONSUME(StrayInCurlyBody)) },
      ]),
    );
  });

  private statementInto(parts: BodyParts): void {
    const statement: StatementParts = {};
    parts.statements.push(statement);
    this.SUBRULE(this.statement, { ARGS: [statement] });
  }

  readonly statement = this.RULE("statement", (parts: StatementParts = {}) => {
    this.SUBRULE(this.callHead, { ARGS: [(parts.head = {})] });
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { ALT: () => this.SUBRULE(this.parenArguments, { ARGS: [(parts.parens = {})] }) },
        { GATE: () => this.argumentFollowsOnSameLine(), ALT: () => this.SUBRULE(this.argumentList, { ARGS: [(parts.list = argumentList())] }) },
        { ALT: EMPTY_ALT() },
      ],
    });
    this.OPTION({ GATE: () => this.nextIsOnSameLine(), DEF: () => this.SUBRULE(this.block, { ARGS: [(parts.block = {})] }) });
  });

  readonly callHead = this.RULE("callHead", (parts: HeadParts = {}) => {
    parts.name = this.CONSUME(Identifier);
    this.OPTION(() => {
      this.CONSUME(Dot);
      parts.method = this.CONSUME2(Identifier);
    });
  });

  readonly parenArguments = this.RULE("parenArguments", (parts: ParenParts = {}) => {
    this.CONSUME(LParen);
    this.OPTION(() => this.SUBRULE(this.argumentList, { ARGS: [(parts.list = argumentList())] }));
    this.CONSUME(RParen);
  });

  readonly argumentList = this.RULE("argumentList", (parts: ArgumentListParts = argumentList()) => {
    this.AT_LEAST_ONE_SEP({ SEP: Comma, DEF: () => this.argumentInto(parts.arguments) });
  });

  private argumentInto(list: ArgumentParts[]): void {
    const argument: ArgumentParts = {};
    list.push(argument);
    this.SUBRULE(this.argument, { ARGS: [argument] });
  }

  readonly argument = this.RULE("argument", (parts: ArgumentParts = {}) => {
    this.OR([
      { ALT: () => this.SUBRULE(this.labelledPair, { ARGS: [(parts.labelled = {})] }) },
      {
        ALT: () => {
          this.SUBRULE(this.expression, { ARGS: [(parts.value = {})] });
          this.OPTION(() => {
            this.OR2([{ ALT: () => this.CONSUME(HashRocket) }, { ALT: () => (parts.equals = this.CONSUME(Equals)) }]);
            this.SUBRULE2(this.expression, { ARGS: [(parts.rocketValue = {})] });
          });
        },
      },
    ]);
  });

  readonly labelledPair = this.RULE("labelledPair", (parts: LabelledParts = {}) => {
    parts.label = this.CONSUME(Label);
    this.SUBRULE(this.expression, { ARGS: [(parts.expression = {})] });
  });

  readonly expression = this.RULE("expression", (parts: ExpressionParts = {}) => {
    this.OR([
      { ALT: () => (parts.token = this.CONSUME(StringLiteral)) },
      { ALT: () => (parts.token = this.CONSUME(SymbolLiteral)) },
      { ALT: () => (parts.token = this.CONSUME(NumberLiteral)) },
      { ALT: () => (parts.token = this.CONSUME(RegexLiteral)) },
      { ALT: () => (parts.token = this.CONSUME(WordsLiteral)) },
      { ALT: () => (parts.token = this.CONSUME(True)) },
      { ALT: () => (parts.token = this.CONSUME(False)) },
      { ALT: () => (parts.token = this.CONSUME(Nil)) },
      { ALT: () => this.SUBRULE(this.arrayLiteral, { ARGS: [(parts.array = { items: [], commas: [] })] }) },
      { ALT: () => this.SUBRULE(this.hashLiteral, { ARGS: [(parts.hash = { arguments: [], commas: [] })] }) },
      { ALT: () => this.SUBRULE(this.valueCall, { ARGS: [(parts.valueCall = {})] }) },
    ]);
  });

  /** A call used as a value (`foo`, `Foo.bar(1)`): no paren-less arguments, no block. */
  readonly valueCall = this.RULE("valueCall", (parts: ValueCallParts = {}) => {
    this.SUBRULE(this.callHead, { ARGS: [(parts.head = {})] });
    this.OPTION(() => this.SUBRULE(this.parenArguments, { ARGS: [(parts.parens = {})] }));
  });

  // Separators are checked by the AST builder, so a missing or doubled ',' is one precise
  // error instead of a recovery cascade (and a trailing ',' is accepted, as in Ruby).
  readonly arrayLiteral = this.RULE("arrayLiteral", (parts: ArrayParts = { items: [], commas: [] }) => {
    parts.open = this.CONSUME(LBracket);
    this.MANY(() =>
      this.OR([
        { ALT: () => parts.commas.push(this.CONSUME(Comma)) },
        {
          ALT: () => {
            const item: ExpressionParts = {};
            parts.items.push(item);
            this.SUBRULE(this.expression, { ARGS: [item] });
          },
        },
      ]),
    );
    this.CONSUME(RBracket);
  });

  readonly hashLiteral = this.RULE("hashLiteral", (parts: HashParts = { arguments: [], commas: [] }) => {
    parts.open = this.CONSUME(LCurly);
    this.MANY(() =>
      this.OR([
        { ALT: () => parts.commas.push(this.CONSUME(Comma)) },
        { ALT: () => this.argumentInto(parts.arguments) },
      ]),
    );
    this.CONSUME(RCurly);
  });

  readonly block = this.RULE("block", (parts: BlockParts = {}) => {
    this.OR([
      {
        ALT: () => {
          parts.open = this.CONSUME(Do);
          this.SUBRULE(this.doBody, { ARGS: [(parts.body = body("doBody"))] });
          this.CONSUME(End);
        },
      },
      {
        ALT: () => {
          parts.open = this.CONSUME(LCurly);
          this.SUBRULE(this.curlyBody, { ARGS: [(parts.body = body("curlyBody"))] });
          this.CONSUME(RCurly);
        },
      },
    ]);
  });

  private previousToken(): IToken {
    return this.LA(0);
  }

  private nextIsOnSameLine(): boolean {
    const next = this.LA(1);
    return next.tokenType !== EOF && next.startLine === this.previousToken().startLine; // one-line tokens (lexer.ts)
  }

  private argumentFollowsOnSameLine(): boolean {
    return ARGUMENT_STARTS.has(this.LA(1).tokenType) && this.nextIsOnSameLine();
  }
}

/** Built on the first parse: its grammar analysis takes ~80 ms, which a build of NDF files alone never needs. */
let parser: DslParser | undefined;

export interface ParseError {
  message: string;
  token: IToken;
  /** The rules being parsed when the error happened, outermost first. */
  ruleStack: string[];
}

export interface ParseResult {
  program: BodyParts;
  errors: ParseError[];
}

/** Parses tokens into the parts of each rule; never throws, errors come back with their token. */
export function parseTokens(tokens: IToken[]): ParseResult {
  parser ??= new DslParser();
  parser.input = tokens;
  const program = body("program");
  parser.program(program);
  const errors = parser.errors.map((error) => ({ message: error.message, token: error.token, ruleStack: error.context.ruleStack }));
  return { program, errors };
}
