// `list :area, "kitchen", "living room" => "living_room", closed: ["shut", "closed"]`: a named
// list of values for list slots. A plain string is its own value; `"spoken" => "value"` maps a
// spoken form to a canonical value; `value: ["spoken", …]` gives one value several spoken forms.
import type { DiagnosticBag } from "../../diagnostics.js";
import type { ListValue, ValueList } from "../../ir/types.js";
import { normalizeKey } from "../../../runtime/text/normalize.js";
import type { CallNode, Expr, StringNode } from "./ast.js";
import { DSL_CODES } from "./codes.js";
import { describeExpr, nameOf } from "./values.js";

const USAGE = 'list :area, "kitchen", "living room" => "living_room", closed: ["shut", "closed"]';

export function lowerList(statement: CallNode, bag: DiagnosticBag): ValueList | undefined {
  const [nameArg, ...spokenArgs] = statement.args;
  const name = nameArg?.kind === "symbol" || nameArg?.kind === "string" ? nameOf(nameArg) : undefined;
  if (name === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    bag.error(DSL_CODES.badArgument, `list needs a name first (a symbol a slot can use), e.g. ${USAGE}`, nameArg?.loc ?? statement.loc);
    return undefined;
  }
  const values: ListValue[] = [];
  const add = (spoken: Expr, value: string | undefined): void => {
    if (spoken.kind !== "string") {
      bag.error(DSL_CODES.badArgument, `a spoken list value must be a string, not ${describeExpr(spoken)}`, spoken.loc);
      return;
    }
    const words = normalizeKey(spoken.value);
    if (words.length === 0) bag.error(DSL_CODES.badArgument, "a list value needs at least one word", spoken.loc);
    else values.push({ spoken: words, value: value ?? spoken.value.trim(), loc: spoken.loc });
  };
  for (const arg of spokenArgs) {
    for (const item of arg.kind === "array" ? arg.items : [arg]) add(item, undefined);
  }
  for (const pair of statement.pairs) {
    if (pair.key.kind === "string") {
      // "spoken" => "value"
      const value = canonical(pair.value);
      if (value === undefined) bag.error(DSL_CODES.badArgument, `the value of "${pair.key.value}" must be a string, symbol or number, not ${describeExpr(pair.value)}`, pair.value.loc);
      else add(pair.key, value);
    } else if (pair.key.kind === "symbol") {
      // value: ["spoken", …]
      const spokens: Expr[] = pair.value.kind === "array" ? pair.value.items : [pair.value];
      for (const spoken of spokens) add(spoken, pair.key.name);
    } else bag.error(DSL_CODES.badArgument, `a list entry is "spoken" => "value" or value: ["spoken", …], e.g. ${USAGE}`, pair.loc);
  }
  if (values.length === 0) bag.error(DSL_CODES.badArgument, `list :${name} has no values: ${USAGE}`, statement.loc);
  return { name, values, loc: (nameArg as StringNode).loc };
}

function canonical(expr: Expr): string | undefined {
  return expr.kind === "number" ? String(expr.value) : nameOf(expr);
}
