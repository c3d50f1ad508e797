// The AST from the parts each grammar rule matched (parse-parts.ts), recovered parts included:
// missing pieces are skipped, and what the grammar accepts but the DSL does not (a stray token, a
// missing comma, `=` for `=>`, a bad escape) is reported here with its location.
import type { IToken } from "./chevrotain.js";
import type { DiagnosticBag } from "../../diagnostics.js";
import type { SourceLocation } from "../../ir/types.js";
import type { ArrayNode, BlockNode, CallNode, Expr, HashNode, Pair, StringNode } from "./ast.js";
import { DSL_CODES } from "./codes.js";
import { decodeNumber, decodeRegex, decodeString, decodeSymbol, type DecodedString } from "./literals.js";
import type { LineMap } from "../location.js";
import type { ArgumentListParts, ArgumentParts, ArrayParts, BlockParts, BodyParts, ExpressionParts, HashParts, HeadParts, StatementParts } from "./parse-parts.js";
import { describeFound } from "./parser.js";
import {
  End,
  Equals,
  False,
  Nil,
  NumberLiteral,
  RCurly,
  RegexLiteral,
  Slash,
  StringLiteral,
  SymbolLiteral,
  True,
  WordsLiteral,
  type LiteralPayload,
} from "./tokens.js";

/**
 * The items in an array of their own size. An array grown by push from [] holds room for 16 or more, and
 * the AST's argument and statement lists, alive for the whole lowering, mostly hold one to four:
 * on a 16k-rule file that room was ~12 MB the garbage collector kept copying.
 */
function exactSize<T>(items: T[]): T[] {
  return items.length === 0 ? items : items.slice();
}

/** Builds the AST from the (possibly recovered) parts: missing pieces are skipped, never dereferenced. */
export class AstBuilder {
  constructor(
    private readonly lines: LineMap,
    private readonly bag: DiagnosticBag,
    private readonly tokens: IToken[],
  ) {}

  /** The token just before `token` (binary search by offset; only stray tokens need it). */
  private tokenBefore(token: IToken): IToken | undefined {
    let low = 0;
    let high = this.tokens.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.tokens[mid]!.startOffset < token.startOffset) low = mid + 1;
      else high = mid;
    }
    return this.tokens[low - 1];
  }

  statementsOf(container: BodyParts): CallNode[] {
    this.reportStray(container.stray, container.rule);
    const statements: CallNode[] = [];
    for (const parts of container.statements) {
      const statement = this.statement(parts);
      if (statement !== undefined) statements.push(statement);
    }
    return exactSize(statements);
  }

  /** One diagnostic per run of stray tokens on a line. */
  private reportStray(stray: IToken[], container: string): void {
    let previous: IToken | undefined;
    for (const token of stray) {
      const continuesRun = previous !== undefined && previous.startLine === token.startLine;
      previous = token;
      if (continuesRun) continue;
      this.bag.error(DSL_CODES.strayToken, this.strayMessage(token, container), this.lines.ofToken(token));
    }
  }

  private strayMessage(token: IToken, container: string): string {
    const found = `unexpected ${describeFound(token)}`;
    if (token.tokenType === End || token.tokenType === RCurly) {
      if (container === "program") return `${found}: there is no open block to close here`;
      const closer = container === "doBody" ? "'end'" : "'}'";
      return `${found}: this block was opened with ${container === "doBody" ? "'do'" : "'{'"}, so it closes with ${closer}`;
    }
    if (token.tokenType === Equals) return `${found}: the rule DSL has no assignment or variables`;
    if (token.tokenType === Slash) {
      return `${found}: the rule DSL has no division, and a regex /…/ may only start where a value is expected (after ',', '(', '[', '=>' or a key:)`;
    }
    const before = this.tokenBefore(token);
    if (before !== undefined && before.startLine === token.startLine) {
      return `${found} after the previous argument: expected ',' between arguments, or a new line before the next statement`;
    }
    return `${found}: expected a method call (rule, output, action, …)`;
  }

  /** Items of an array or hash must be separated by exactly one ',' (a trailing one is fine). */
  private checkSeparators(items: { loc: SourceLocation }[], commas: IToken[], what: string): void {
    const sequence = [
      ...items.map((item) => ({ offset: item.loc.offset, item: true, loc: item.loc })),
      ...commas.map((comma) => ({ offset: comma.startOffset, item: false, loc: this.lines.ofToken(comma) })),
    ].sort((a, b) => a.offset - b.offset);
    let expectItem = true;
    for (const element of sequence) {
      if (element.item && !expectItem) {
        const found = this.lines.text.slice(element.loc.offset, element.loc.endOffset ?? element.loc.offset + 1);
        this.bag.error(DSL_CODES.unexpectedToken, `expected ',' between ${what} but found '${found}'`, element.loc);
      } else if (!element.item && expectItem) {
        this.bag.error(DSL_CODES.unexpectedToken, `unexpected ',': expected one of the ${what} before it`, element.loc);
      }
      expectItem = !element.item;
    }
  }

  private statement(parts: StatementParts): CallNode | undefined {
    const call = this.callHead(parts.head);
    if (call === undefined) return undefined;
    const list = parts.parens !== undefined ? parts.parens.list : parts.list;
    if (list !== undefined) this.fillArguments(call, list);
    if (parts.block !== undefined) {
      const built = this.block(parts.block);
      if (built !== undefined) call.block = built;
    }
    return call;
  }

  private callHead(head: HeadParts | undefined): CallNode | undefined {
    if (head === undefined) return undefined;
    const { name, method } = head;
    if (name === undefined || Number.isNaN(name.startOffset)) return undefined;
    const loc = this.lines.ofToken(name);
    if (method !== undefined) return { kind: "call", receiver: name.image, name: method.image, loc, args: [], pairs: [] };
    return { kind: "call", name: name.image, loc, args: [], pairs: [] };
  }

  private fillArguments(call: { args: Expr[]; pairs: Pair[] }, list: ArgumentListParts): void {
    for (const argument of list.arguments) {
      const pair = this.pairOf(argument);
      if (pair !== undefined) {
        call.pairs.push(pair);
        continue;
      }
      const value = this.expression(argument.value);
      if (value !== undefined) call.args.push(value);
    }
    call.args = exactSize(call.args);
    call.pairs = exactSize(call.pairs);
  }

  /** `key: v` or `k => v`; undefined when the argument is a plain value. */
  private pairOf(argument: ArgumentParts): Pair | undefined {
    const { labelled } = argument;
    if (labelled !== undefined) {
      const { label } = labelled;
      const value = this.expression(labelled.expression);
      if (label === undefined || value === undefined) return undefined;
      const loc = this.lines.ofToken(label);
      return { key: { kind: "symbol", name: label.image.slice(0, -1), loc }, value, loc };
    }
    const { rocketValue, equals } = argument;
    if (rocketValue === undefined) return undefined;
    if (equals !== undefined) {
      this.bag.error(DSL_CODES.unexpectedToken, "expected '=>' but found '=': the DSL has no assignment; write key: value or \"key\" => value", this.lines.ofToken(equals));
    }
    const key = this.expression(argument.value);
    const value = this.expression(rocketValue);
    if (key === undefined || value === undefined) return undefined;
    return { key, value, loc: key.loc };
  }

  private block(parts: BlockParts): BlockNode | undefined {
    const { open, body } = parts;
    if (open === undefined || body === undefined) return undefined;
    return { statements: this.statementsOf(body), loc: this.lines.ofToken(open) };
  }

  private expression(parts: ExpressionParts | undefined): Expr | undefined {
    if (parts === undefined) return undefined;
    const { token, array, hash, valueCall } = parts;
    if (token !== undefined) return Number.isNaN(token.startOffset) ? undefined : this.literal(token);
    if (array !== undefined) return this.array(array);
    if (hash !== undefined) return this.hash(hash);
    if (valueCall === undefined) return undefined;
    const call = this.callHead(valueCall.head);
    const list = valueCall.parens?.list;
    if (call !== undefined && list !== undefined) this.fillArguments(call, list);
    return call;
  }

  private literal(token: IToken): Expr | undefined {
    const loc = this.lines.ofToken(token);
    switch (token.tokenType) {
      case StringLiteral: {
        const decoded = this.reportProblems(decodeString(token.image, token.startOffset));
        return decoded.offsets === undefined ? { kind: "string", value: decoded.value, loc } : { kind: "string", value: decoded.value, offsets: decoded.offsets, loc };
      }
      case SymbolLiteral:
        return { kind: "symbol", name: this.reportProblems(decodeSymbol(token.image, token.startOffset)).value, loc };
      case NumberLiteral:
        return { kind: "number", value: decodeNumber(token.image), loc };
      case RegexLiteral: {
        const unterminated = (token.payload as LiteralPayload | undefined)?.unterminated === true;
        return { kind: "regex", ...decodeRegex(token.image, unterminated), loc };
      }
      case WordsLiteral:
        return this.words(token, loc);
      case True:
      case False:
        return { kind: "boolean", value: token.tokenType === True, loc };
      case Nil:
        return { kind: "nil", loc };
      default:
        return undefined;
    }
  }

  /** `%w[a b]` → an array of strings, each located at its word. */
  private words(token: IToken, loc: SourceLocation): ArrayNode {
    const unterminated = (token.payload as LiteralPayload | undefined)?.unterminated === true;
    const body = token.image.slice(3, unterminated ? undefined : -1);
    const items: StringNode[] = [];
    for (const match of body.matchAll(/\S+/g)) {
      const offset = token.startOffset + 3 + match.index;
      // no quotes around a %w word, so its characters are mapped explicitly
      const offsets = Array.from(match[0], (_, i) => offset + i);
      items.push({ kind: "string", value: match[0], offsets, loc: this.lines.at(offset, offset + match[0].length) });
    }
    return { kind: "array", items, loc };
  }

  private reportProblems(decoded: DecodedString): DecodedString {
    for (const problem of decoded.problems) {
      this.bag.error(DSL_CODES.badEscape, problem.message, this.lines.at(problem.offset, problem.offset + problem.length));
    }
    return decoded;
  }

  private array(parts: ArrayParts): ArrayNode {
    const { open } = parts;
    const items = parts.items.flatMap((item) => this.expression(item) ?? []);
    this.checkSeparators(items, parts.commas, "array items");
    return { kind: "array", items, loc: open === undefined ? this.lines.end() : this.lines.ofToken(open) };
  }

  private hash(parts: HashParts): HashNode {
    const { open } = parts;
    const pairs: Pair[] = [];
    const items: { loc: SourceLocation }[] = [];
    for (const argument of parts.arguments) {
      const pair = this.pairOf(argument);
      if (pair !== undefined) {
        pairs.push(pair);
        items.push(pair);
        continue;
      }
      const value = this.expression(argument.value);
      if (value === undefined) continue;
      items.push(value);
      this.bag.error(DSL_CODES.badArgument, "a hash entry needs a key: write `key: value` or `\"key\" => value`", value.loc);
    }
    this.checkSeparators(items, parts.commas, "hash entries");
    return { kind: "hash", pairs, loc: open === undefined ? this.lines.end() : this.lines.ofToken(open) };
  }
}
