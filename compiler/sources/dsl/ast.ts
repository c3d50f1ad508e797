// The syntax tree of a DSL file: generic Ruby-like calls and literals. Meaning (which method does
// what, where it may appear) is decided by the lowering, so the parser stays a pure syntax check.
import type { SourceLocation } from "../../ir/types.js";

export interface StringNode {
  kind: "string";
  value: string;
  loc: SourceLocation;
  /** Source offset of each character of `value`, only when escapes make it differ from loc.offset + 1 + i. */
  offsets?: number[];
}
export interface SymbolNode {
  kind: "symbol";
  name: string;
  loc: SourceLocation;
}
export interface NumberNode {
  kind: "number";
  value: number;
  loc: SourceLocation;
}
export interface RegexNode {
  kind: "regex";
  source: string;
  /** Flags as written (Ruby's). */
  flags: string;
  loc: SourceLocation;
}
export interface BooleanNode {
  kind: "boolean";
  value: boolean;
  loc: SourceLocation;
}
export interface NilNode {
  kind: "nil";
  loc: SourceLocation;
}
export interface ArrayNode {
  kind: "array";
  items: Expr[];
  loc: SourceLocation;
}
export interface Pair {
  /** A `key:` label becomes a symbol key. */
  key: Expr;
  value: Expr;
  loc: SourceLocation;
}
export interface HashNode {
  kind: "hash";
  pairs: Pair[];
  loc: SourceLocation;
}
export interface CallNode {
  kind: "call";
  /** `RuleSet` in `RuleSet.define`. */
  receiver?: string;
  name: string;
  /** Location of the method name (of the receiver when there is one). */
  loc: SourceLocation;
  args: Expr[];
  /** `key: value` and `k => v` arguments, in source order. */
  pairs: Pair[];
  block?: BlockNode;
}
export interface BlockNode {
  statements: CallNode[];
  loc: SourceLocation;
}

export type Expr = StringNode | SymbolNode | NumberNode | RegexNode | BooleanNode | NilNode | ArrayNode | HashNode | CallNode;

export interface DslFile {
  statements: CallNode[];
}
