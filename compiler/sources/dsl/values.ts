// Turning literal argument expressions into IR values: tool arguments, texts, names.
import { nearMiss, type DiagnosticBag } from "../../diagnostics.js";
import type { LocatedText, SourceLocation } from "../../ir/types.js";
import type { Expr, StringNode } from "./ast.js";
import { tagReferences } from "../../ir/walk.js";
import { DSL_CODES } from "./codes.js";
import type { LineMap } from "../location.js";
import { setOwn } from "../../own-property.js";

/** Which slot references a tool argument may use. */
export interface SlotScope {
  /** Slots every pattern of the rule captures. */
  bound: ReadonlySet<string>;
  /** Slots some patterns of the rule capture but not all: using one is always a mistake. */
  partial?: ReadonlySet<string>;
  /** The rule's patterns, quoted, for messages. */
  patterns: string;
  /** In a chain step after the first: the index (in the intent's tools) of the previous step, which `:prev_result` refers to. */
  previousStep?: number;
}

export const PREV_RESULT = "prev_result";

/**
 * What `:prev_result` lowers to: a reference to an earlier tool's result, which the application
 * running the chain substitutes. It is deliberately not a `<||tag||>`: the runtime renders tags
 * when it answers, long before the previous step has run.
 */
export const resultOf = (toolIndex: number): { $result_of: number } => ({ $result_of: toolIndex });

export const slotPlaceholder = (name: string): string => `<||${name}||>`;

export function describeExpr(expr: Expr): string {
  switch (expr.kind) {
    case "call":
      return `a call to ${expr.name}`;
    case "nil":
      return "nil";
    case "array":
      return "an array";
    default:
      return `a ${expr.kind}`;
  }
}

/** The location of character `index` of a decoded string literal in its source. */
export function locInString(lines: LineMap, node: StringNode, index: number, length: number): SourceLocation {
  const start = sourceOffsetInString(node, index);
  const end = length > 0 ? sourceOffsetInString(node, index + length - 1) + 1 : start;
  return lines.at(start, end);
}

/** Source offset of character `index` of a string literal's value; past the end: its closing quote. */
function sourceOffsetInString(node: StringNode, index: number): number {
  if (index >= node.value.length) return (node.loc.endOffset ?? node.loc.offset + 1) - 1;
  return node.offsets?.[index] ?? node.loc.offset + 1 + index;
}

/** Lowers expressions to tool-argument values, reporting slot references the rule does not capture. */
export class ArgumentLowering {
  constructor(
    private readonly lines: LineMap,
    private readonly bag: DiagnosticBag,
  ) {}

  value(expr: Expr, scope: SlotScope): unknown {
    switch (expr.kind) {
      case "string":
        this.checkPlaceholders(expr, scope);
        return expr.value;
      case "symbol":
        return this.slotReference(expr.name, expr.loc, scope);
      case "number":
      case "boolean":
        return expr.value;
      case "nil":
        return null;
      case "array":
        return expr.items.map((item) => this.value(item, scope));
      case "hash": {
        const object: Record<string, unknown> = {};
        for (const pair of expr.pairs) {
          const key = keyName(pair.key);
          if (key === undefined) this.bag.error(DSL_CODES.badArgument, `a hash key must be a symbol or a string, not ${describeExpr(pair.key)}`, pair.key.loc);
          else setOwn(object, key, this.value(pair.value, scope));
        }
        return object;
      }
      case "regex":
      case "call":
        this.bag.error(DSL_CODES.badArgument, `${describeExpr(expr)} cannot be a tool argument: use a string, symbol (slot), number, boolean, array or hash`, expr.loc);
        return null;
    }
  }

  /**
   * A `:name` argument: the slot's placeholder when the pattern captures it; an error fixed to the
   * captured slot it most likely misspells; else the constant string "name", with a warning.
   */
  private slotReference(name: string, loc: SourceLocation, scope: SlotScope): unknown {
    if (name === PREV_RESULT && scope.previousStep !== undefined && !scope.bound.has(name)) return resultOf(scope.previousStep);
    if (scope.bound.has(name)) return slotPlaceholder(name);
    const slot = misspeltSlot(name, scope);
    const endOffset = loc.endOffset ?? loc.offset + name.length + 1;
    const meantAsSlot = name === PREV_RESULT || scope.partial?.has(name) === true;
    if (slot === undefined && !meantAsSlot) {
      // A symbol naming no slot is a constant (`step :filter, criterion: :empty` in the DSL's chain example).
      this.bag.report({
        code: DSL_CODES.constantSymbol,
        severity: "warning",
        message: `:${name} is not captured by ${scope.patterns}${describeBound(scope)}, so it is passed as the constant "${name}"; write "${name}" to say so`,
        loc,
        fix: [{ file: loc.file, offset: loc.offset, endOffset, text: JSON.stringify(name) }],
      });
      return name;
    }
    this.bag.report({
      code: DSL_CODES.unboundSlot,
      severity: "error",
      message: `:${name} is not captured by ${scope.patterns}${describeBound(scope)}${slot !== undefined ? `; did you mean :${slot}?` : ""}`,
      loc,
      ...(slot !== undefined ? { fix: [{ file: loc.file, offset: loc.offset, endOffset, text: `:${slot}` }] } : {}),
    });
    // lowered as its fix would have it, so later passes do not report the same mistake again
    return slot !== undefined ? slotPlaceholder(slot) : name;
  }

  /**
   * In outputs and thinking a `<||name||>` may be a word list or a system value, which the
   * references pass judges with the whole NPC in view; here only a near-miss of a captured slot
   * (`<||tagret||>` beside `:target`) is an error, fixed to the slot.
   */
  checkMisspeltPlaceholders(node: StringNode, scope: SlotScope): void {
    for (const ref of tagReferences(node.value)) {
      const slot = misspeltSlot(ref.name, scope);
      if (slot === undefined) continue;
      const loc = locInString(this.lines, node, ref.index, ref.length);
      this.bag.report({
        code: DSL_CODES.unboundSlot,
        severity: "error",
        message: `<||${ref.name}||> is not captured by ${scope.patterns}${describeBound(scope)}; did you mean <||${slot}||>?`,
        loc,
        ...(node.offsets === undefined ? { fix: [{ file: loc.file, offset: loc.offset, endOffset: loc.endOffset ?? loc.offset, text: slotPlaceholder(slot) }] } : {}),
      });
    }
  }

  /** `<||name||>` inside a command or tool string must name a captured slot. */
  checkPlaceholders(node: StringNode, scope: SlotScope): void {
    for (const { name, index, length } of tagReferences(node.value)) {
      if (scope.bound.has(name)) continue;
      this.bag.error(
        DSL_CODES.unboundSlot,
        `<||${name}||> is not captured by ${scope.patterns}${describeBound(scope)}, so the command would run with it unfilled`,
        locInString(this.lines, node, index, length),
      );
    }
  }
}

/** The captured slot `name` is most likely a misspelling of (edit distance ≤ 2), if any. */
function misspeltSlot(name: string, scope: SlotScope): string | undefined {
  return scope.bound.has(name) ? undefined : nearMiss(name, [...scope.bound]);
}

function describeBound(scope: SlotScope): string {
  return scope.bound.size === 0 ? " (it captures no slot)" : ` (captured: ${[...scope.bound].map((name) => `:${name}`).join(", ")})`;
}

export function keyName(expr: Expr): string | undefined {
  return expr.kind === "symbol" ? expr.name : expr.kind === "string" ? expr.value : undefined;
}

/** A name given as a symbol or a string (`action :list`, `category "files"`). */
export function nameOf(expr: Expr | undefined): string | undefined {
  return expr === undefined ? undefined : keyName(expr);
}

/** String arguments (arrays of strings flattened); anything else is reported. */
export function stringsOf(args: Expr[], method: string, bag: DiagnosticBag): StringNode[] {
  const strings: StringNode[] = [];
  for (const arg of args) {
    if (arg.kind === "string") strings.push(arg);
    else if (arg.kind === "array") strings.push(...stringsOf(arg.items, method, bag));
    else bag.error(DSL_CODES.badArgument, `${method} takes strings, not ${describeExpr(arg)}`, arg.loc);
  }
  return strings;
}

export const locatedText = (node: StringNode): LocatedText => ({ value: node.value, loc: node.loc });
