// `expansion :name, "pattern"`: named sub-patterns that rule patterns use as `<name>`. Each is
// parsed once, on first use, and may use other expansions; a cycle is reported where it closes.
import type { DiagnosticBag } from "../../diagnostics.js";
import type { LineMap } from "../location.js";
import type { CallNode, StringNode } from "./ast.js";
import { DSL_CODES } from "./codes.js";
import { parsePattern, type ExpansionLookup, type PatternItem } from "./pattern.js";
import { locInString, nameOf } from "./values.js";
import { LazyDefinitions } from "../template-groups.js";

export class ExpansionTable {
  private readonly sources = new Map<string, StringNode>();
  private readonly definitions: LazyDefinitions<StringNode, PatternItem[]>;

  constructor(
    private readonly lines: LineMap,
    private readonly bag: DiagnosticBag,
  ) {
    this.definitions = new LazyDefinitions(this.sources, (source) => this.parse(source), (name, source) => {
      this.bag.error(DSL_CODES.badPattern, `expansion <${name}> uses itself: an expansion cannot refer back to itself, directly or through others`, source.loc);
    }, []);
  }

  declare(statement: CallNode): void {
    const [nameArg, pattern, ...extra] = statement.args;
    const name = nameArg?.kind === "symbol" || nameArg?.kind === "string" ? nameOf(nameArg) : undefined;
    if (name === undefined || pattern?.kind !== "string" || extra.length > 0 || statement.pairs.length > 0) {
      this.bag.error(DSL_CODES.badArgument, 'expansion takes a name and one pattern string, e.g. expansion :turn_on, "(turn|switch) on"', statement.loc);
      return;
    }
    const previous = this.sources.get(name);
    if (previous !== undefined) {
      this.bag.error(DSL_CODES.duplicateSetting, `expansion <${name}> is already defined; this one is ignored`, statement.loc, [{ message: "defined here first", loc: previous.loc }]);
      return;
    }
    this.sources.set(name, pattern);
  }

  /** The items of `<name>`, or undefined when no expansion has that name (empty when it is cyclic). */
  readonly lookup: ExpansionLookup = (name) => this.definitions.resolve(name);

  private parse(source: StringNode): PatternItem[] {
    const { items, problems } = parsePattern(source.value, this.lookup);
    for (const problem of problems) this.bag.error(DSL_CODES.badPattern, problem.message, locInString(this.lines, source, problem.offset, problem.length));
    return items;
  }
}
