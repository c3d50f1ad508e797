// Lowering one `rule` / `chain` / `query` call (and its `context` follow-ups) into an Intent.
import { nearMiss, type DiagnosticBag } from "../../diagnostics.js";
import { PERMISSIONS, type Intent, type LocatedText, type Permission, type SourceLocation, type TemplateNode, type TemplatePart, type TemplatePath, type ToolCall } from "../../ir/types.js";
import type { CallNode, StringNode } from "./ast.js";
import { DSL_CODES } from "./codes.js";
import type { LineMap } from "../location.js";
import { gluedListName } from "./slot-types.js";
import { canonicalPattern, expandPhrasings, parsePattern, slotsOf, templateParts, type ExpansionLookup, type PathNode, type PathPart, type PatternItem } from "./pattern.js";
import { ArgumentLowering, describeExpr, locInString, locatedText, nameOf, stringsOf, type SlotScope } from "./values.js";
import { wordTag, type WordTable } from "./words.js";
import { setOwn } from "../../own-property.js";

export type RuleForm = "rule" | "chain" | "query";
export const RULE_FORMS: readonly string[] = ["rule", "chain", "query"];

/** Methods of a rule body; `step` belongs to chains and `resolve` to queries. */
export const RULE_BODY_METHODS = ["action", "step", "resolve", "command", "output", "thinking", "permission", "category", "description", "intent", "slots", "context"];

/** The most exact phrasings one slot-free pattern may expand to; beyond, it is matched as a template. */
export const MAX_PHRASINGS_PER_PATTERN = 64;

/** The tool a `command "…"` becomes, as TERMy's NDF entries write it. */
export const TERMINAL_TOOL = "run_in_terminal";

/** Patterns already used in one scope (the top level, or one `context` block), for duplicate reports. */
export type PatternScope = Map<string, SourceLocation>;

interface LoweredPattern {
  node: StringNode;
  items: PatternItem[];
}

/** Everything the rule lowering needs from the file around it. */
export interface RuleEnvironment {
  lines: LineMap;
  bag: DiagnosticBag;
  /** Type names of this file: a `:slot` with one of these names is typed by it (see slot-types.ts for the others). */
  typeNames: ReadonlySet<string>;
  /** List names of this file: a plain `:slot` with one of these names is a list slot (see slot-types.ts for the others). */
  listNames: ReadonlySet<string>;
  expansions: ExpansionLookup;
  words: WordTable;
}

export class RuleLowering {
  private readonly args: ArgumentLowering;

  constructor(private readonly env: RuleEnvironment) {
    this.args = new ArgumentLowering(env.lines, env.bag);
  }

  lower(call: CallNode, id: string, scope: PatternScope): Intent {
    const form = call.name as RuleForm;
    const patterns = this.patterns(call, scope);
    const slotLists = patterns.map((pattern) => slotsOf(pattern.items));
    const hasSlots = slotLists.some((slots) => slots.length > 0);
    const inputs: LocatedText[] = [];
    const templated: LoweredPattern[] = hasSlots ? patterns : [];
    for (const pattern of hasSlots ? [] : patterns) {
      // a slot-free pattern with too many phrasings for the exact table is matched as a template
      const phrasings = this.phrasings(pattern);
      if (phrasings === undefined) templated.push(pattern);
      else inputs.push(...phrasings);
    }
    const intent: Intent = {
      id,
      kind: templated.length > 0 ? "template" : "entry",
      loc: call.loc,
      inputs,
      paths: templated.map((pattern) => this.template(pattern)),
      outputs: [],
      thinking: [],
      tools: [],
      permission: "ask",
      permissionExplicit: false,
      extra: {},
      keyLocs: {},
    };
    const first = patterns[0];
    if (first !== undefined) intent.keyLocs[hasSlots ? "structure" : "input"] = first.node.loc;
    if (templated[0] !== undefined) intent.keyLocs["structure"] ??= templated[0].node.loc;
    const slotScope = this.slotScope(patterns, slotLists, call);
    // `intent :name` first, so context children derive their ids from the final name
    const statements = call.block?.statements ?? [];
    const ordered = statements.some((s) => s.name === "intent")
      ? [...statements.filter((s) => s.name === "intent"), ...statements.filter((s) => s.name !== "intent")]
      : statements;
    for (const statement of ordered) this.bodyStatement(statement, form, intent, slotScope);
    return intent;
  }

  private patterns(call: CallNode, scope: PatternScope): LoweredPattern[] {
    const { bag } = this.env;
    for (const pair of call.pairs) bag.error(DSL_CODES.badArgument, `${call.name} takes pattern strings only; put settings inside its block`, pair.loc);
    const patterns: LoweredPattern[] = [];
    for (const arg of call.args) {
      if (arg.kind !== "string") {
        bag.error(DSL_CODES.badArgument, `a ${call.name} pattern must be a string, not ${describeExpr(arg)}`, arg.loc);
        continue;
      }
      const parsed = parsePattern(arg.value, this.env.expansions);
      for (const problem of parsed.problems) bag.error(DSL_CODES.badPattern, problem.message, locInString(this.env.lines, arg, problem.offset, problem.length));
      if (parsed.items.length === 0) continue;
      const canonical = canonicalPattern(parsed.items);
      const previous = scope.get(canonical);
      if (previous !== undefined) {
        bag.error(DSL_CODES.duplicatePattern, `the pattern "${canonical}" is already used by another rule; only one of them could ever answer`, arg.loc, [
          { message: "first used here", loc: previous },
        ]);
      } else scope.set(canonical, arg.loc);
      patterns.push({ node: arg, items: parsed.items });
    }
    if (call.args.length === 0) bag.error(DSL_CODES.badArgument, `${call.name} needs a pattern string, e.g. ${call.name}("list files in :path")`, call.loc);
    return patterns;
  }

  /** `slotLists`: the slots of each pattern (slotsOf). */
  private slotScope(patterns: LoweredPattern[], slotLists: string[][], call: CallNode): SlotScope {
    const slotSets = slotLists.length > 1 ? slotLists.map((slots) => new Set(slots)) : [];
    const bound = new Set(slotSets.length === 0 ? slotLists[0] : slotLists[0]!.filter((name) => slotSets.every((set) => set.has(name))));
    // fixed slots (`slots domain: "light"`) render like captured ones, wherever the statement sits
    for (const statement of call.block?.statements ?? []) {
      if (statement.name === "slots") statement.pairs.forEach((pair) => bound.add(nameOf(pair.key) ?? ""));
    }
    const partial = new Set(slotLists.flat().filter((name) => !bound.has(name)));
    const quoted = patterns.map((pattern) => JSON.stringify(pattern.node.value));
    return { bound, partial, patterns: `the pattern${quoted.length > 1 ? "s" : ""} ${quoted.join(", ") || "(none)"}` };
  }

  /** The exact phrasings of a slot-free pattern, or undefined when there are more than the exact table takes. */
  private phrasings(pattern: LoweredPattern): LocatedText[] | undefined {
    const { results, capped } = expandPhrasings(pattern.items, MAX_PHRASINGS_PER_PATTERN);
    if (capped) return undefined;
    for (const words of results) this.env.words.useAll(words.split(" "), pattern.node.loc);
    return results.map((value) => ({ value, loc: pattern.node.loc }));
  }

  /** One template per pattern: its groups stay choices, which the automaton branches on (no cap). */
  private template(pattern: LoweredPattern): TemplatePath {
    const part = (item: PathPart): TemplatePart =>
      item.kind === "choice"
        ? { alternatives: item.alternatives.map((alternative) => alternative.map(part)), loc: locInString(this.env.lines, pattern.node, item.offset, 1), ...(item.rule !== undefined ? { rule: item.rule } : {}) }
        : this.templateNode(item, pattern.node);
    return { nodes: templateParts(pattern.items).map(part), loc: pattern.node.loc };
  }

  private templateNode(node: PathNode, string: StringNode): TemplateNode {
    // a slot spans `:name(…)`, a single word itself, a group of alternatives its opening bracket
    const length = node.kind === "slot" ? node.slot.length : node.words.length === 1 ? node.words[0]!.length : 1;
    const loc = locInString(this.env.lines, string, node.offset, length);
    if (node.kind === "slot") return this.slotNode(node, loc);
    this.env.words.useAll(node.words, loc);
    return { tags: node.words.map(wordTag), type: "vocab", required: node.required, loc };
  }

  private slotNode({ slot, required }: PathNode & { kind: "slot" }, loc: SourceLocation): TemplateNode {
    const { name } = slot;
    if (slot.range) return { tags: [name], type: "range", range: slot.range, required, loc };
    if (slot.suffix !== undefined) {
      // gluing reads list values only: slot-types.ts derives the list with the glued forms
      if (slot.list === undefined && this.env.typeNames.has(name)) this.env.bag.error(DSL_CODES.badPattern, `:${name}[${slot.suffix}] glues a suffix to a typed slot; only a list slot can take one: drop [${slot.suffix}] or make :${name} a list`, loc);
      else return { tags: [name], type: "list", list: gluedListName(slot.list ?? name, slot.suffix), required, loc };
    }
    const list = slot.list ?? (this.env.typeNames.has(name) || !this.env.listNames.has(name) ? undefined : name);
    if (list !== undefined) return { tags: [name], type: "list", list, required, loc };
    return { tags: [name], type: this.env.typeNames.has(name) ? name : "string", required, loc };
  }

  private bodyStatement(statement: CallNode, form: RuleForm, intent: Intent, scope: SlotScope): void {
    const { bag } = this.env;
    switch (statement.name) {
      case "action":
        this.tool(statement, intent, scope);
        return;
      case "step":
        if (form !== "chain") bag.error(DSL_CODES.stepOutsideChain, `step belongs inside a chain("…") do … end block, not a ${form}: use action here, or make this a chain`, statement.loc);
        else this.tool(statement, intent, intent.tools.length > 0 ? { ...scope, previousStep: intent.tools.length - 1 } : scope);
        return;
      case "resolve":
        if (form !== "query") bag.error(DSL_CODES.resolveOutsideQuery, `resolve belongs inside a query("…") do … end block, not a ${form}: use action here, or make this a query`, statement.loc);
        else this.tool(statement, intent, scope);
        return;
      case "command":
        this.command(statement, intent, scope);
        return;
      case "output":
      case "thinking": {
        const strings = stringsOf(statement.args, statement.name, bag);
        for (const string of strings) this.args.checkMisspeltPlaceholders(string, scope);
        (statement.name === "output" ? intent.outputs : intent.thinking).push(...strings.map(locatedText));
        intent.keyLocs[statement.name] ??= statement.loc;
        this.noPairs(statement);
        return;
      }
      case "permission":
        this.permission(statement, intent);
        return;
      case "category":
      case "description":
      case "intent":
        this.setting(statement, intent);
        return;
      case "slots":
        this.fixedSlots(statement, intent);
        return;
      case "context":
        this.context(statement, intent);
        return;
      default:
        this.reportUnknownBodyMethod(statement, form);
    }
  }

  private reportUnknownBodyMethod(statement: CallNode, form: RuleForm): void {
    if (RULE_FORMS.includes(statement.name)) {
      this.env.bag.error(DSL_CODES.unknownMethod, `a ${statement.name} cannot sit directly inside a ${form}: put follow-up rules inside context do … end`, statement.loc);
      return;
    }
    reportUnknownMethod(statement, `a ${form} body`, RULE_BODY_METHODS, this.env.bag);
  }

  private tool(statement: CallNode, intent: Intent, scope: SlotScope): void {
    const [nameArg, ...extra] = statement.args;
    const name = nameOf(nameArg);
    if (name === undefined) {
      this.env.bag.error(DSL_CODES.badArgument, `${statement.name} needs a tool name first, e.g. ${statement.name} :list_files, path: :path`, nameArg?.loc ?? statement.loc);
      return;
    }
    for (const arg of extra) this.env.bag.error(DSL_CODES.badArgument, `${statement.name} takes a name and then key: value arguments; this ${arg.kind} has no key`, arg.loc);
    const args = this.pairsToArguments(statement, scope);
    const tool: ToolCall = { name, arguments: args, raw: { name, arguments: args }, loc: statement.loc };
    // `step :run_in_terminal, command: "…"` is a shell command too: locate it for the TCS checks
    const command = statement.pairs.find((pair) => nameOf(pair.key) === "command")?.value;
    if (command?.kind === "string") tool.commandLoc = command.loc;
    intent.tools.push(tool);
    intent.keyLocs["tools"] ??= statement.loc;
  }

  private command(statement: CallNode, intent: Intent, scope: SlotScope): void {
    const [commandArg, ...extra] = statement.args;
    if (commandArg?.kind !== "string") {
      this.env.bag.error(DSL_CODES.badArgument, `command needs a shell command string, e.g. command "ls -la -- '<||path||>'"`, commandArg?.loc ?? statement.loc);
      return;
    }
    for (const arg of extra) this.env.bag.error(DSL_CODES.badArgument, `command takes one command string and then key: value arguments`, arg.loc);
    this.args.checkPlaceholders(commandArg, scope);
    const args = { command: commandArg.value, ...this.pairsToArguments(statement, scope) };
    intent.tools.push({ name: TERMINAL_TOOL, arguments: args, raw: { name: TERMINAL_TOOL, arguments: args }, loc: statement.loc, commandLoc: commandArg.loc });
    intent.keyLocs["tools"] ??= statement.loc;
  }

  private pairsToArguments(statement: CallNode, scope: SlotScope): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    for (const pair of statement.pairs) {
      const key = nameOf(pair.key);
      if (key === undefined) this.env.bag.error(DSL_CODES.badArgument, `an argument name must be a symbol or a string, not ${describeExpr(pair.key)}`, pair.key.loc);
      else setOwn(args, key, this.args.value(pair.value, scope));
    }
    return args;
  }

  private permission(statement: CallNode, intent: Intent): void {
    const [arg] = statement.args;
    const value = nameOf(arg);
    if (arg === undefined || value === undefined) {
      this.env.bag.error(DSL_CODES.unknownPermission, `permission needs one of ${PERMISSIONS.map((p) => `:${p}`).join(", ")}`, arg?.loc ?? statement.loc);
      return;
    }
    if (!(PERMISSIONS as readonly string[]).includes(value)) {
      const guess = nearMiss(value, PERMISSIONS);
      const hint = guess !== undefined ? ` (did you mean :${guess}?)` : "";
      this.env.bag.error(DSL_CODES.unknownPermission, `unknown permission :${value}${hint}: expected ${PERMISSIONS.map((p) => `:${p}`).join(", ")}`, arg.loc);
      return;
    }
    if (this.alreadySet(statement, intent)) return;
    intent.permission = value as Permission;
    intent.permissionExplicit = true;
  }

  private setting(statement: CallNode, intent: Intent): void {
    const [arg, ...extra] = statement.args;
    const value = nameOf(arg);
    if (arg === undefined || value === undefined || extra.length > 0) {
      this.env.bag.error(DSL_CODES.badArgument, `${statement.name} takes one string`, arg?.loc ?? statement.loc);
      return;
    }
    if (this.alreadySet(statement, intent)) return;
    if (statement.name === "category") intent.category = value;
    else if (statement.name === "description") intent.description = { value, loc: arg.loc };
    else intent.id = value;
  }

  /** `slots domain: "light", …`: values the intent's answer carries whatever the words. */
  private fixedSlots(statement: CallNode, intent: Intent): void {
    for (const arg of statement.args) this.env.bag.error(DSL_CODES.badArgument, 'slots takes name: "value" pairs, e.g. slots domain: "light"', arg.loc);
    const slots = (intent.fixedSlots ??= {});
    for (const pair of statement.pairs) {
      const name = nameOf(pair.key);
      const value = pair.value.kind === "number" ? String(pair.value.value) : nameOf(pair.value);
      if (name === undefined || value === undefined) {
        this.env.bag.error(DSL_CODES.badArgument, 'a fixed slot is name: "value" (a string, symbol or number), e.g. slots domain: "light"', pair.loc);
        continue;
      }
      setOwn(slots, name, value);
    }
    intent.keyLocs["slots"] ??= statement.loc;
  }

  /** A setting given twice: the first one stays, the second is reported. */
  private alreadySet(statement: CallNode, intent: Intent): boolean {
    const previous = intent.keyLocs[statement.name];
    if (previous !== undefined) {
      this.env.bag.warning(DSL_CODES.duplicateSetting, `${statement.name} is already set for this rule; this one is ignored`, statement.loc, [
        { message: "set here first", loc: previous },
      ]);
      return true;
    }
    intent.keyLocs[statement.name] = statement.loc;
    return false;
  }

  private context(statement: CallNode, intent: Intent): void {
    if (statement.block === undefined) {
      this.env.bag.error(DSL_CODES.badArgument, "context needs a block of follow-up rules: context do … end (an empty block clears the context)", statement.loc);
      return;
    }
    if (this.alreadySet(statement, intent)) return;
    const children: Intent[] = [];
    const scope: PatternScope = new Map();
    for (const child of statement.block.statements) {
      if (RULE_FORMS.includes(child.name) && child.receiver === undefined) {
        children.push(this.lower(child, `${intent.id}/context#${children.length}`, scope));
      } else {
        reportUnknownMethod(child, "a context block (it holds follow-up rules)", RULE_FORMS, this.env.bag);
      }
    }
    intent.context = children;
  }

  private noPairs(statement: CallNode): void {
    for (const pair of statement.pairs) this.env.bag.error(DSL_CODES.badArgument, `${statement.name} takes strings, not key: value arguments`, pair.loc);
  }
}

export function reportUnknownMethod(call: CallNode, where: string, known: readonly string[], bag: DiagnosticBag): void {
  const name = call.receiver === undefined ? call.name : `${call.receiver}.${call.name}`;
  const guess = nearMiss(name, known, Math.max(2, Math.floor(name.length / 3)));
  const hint = guess !== undefined ? `did you mean ${guess}? ` : "";
  bag.error(DSL_CODES.unknownMethod, `unknown method ${name} in ${where}: ${hint}expected one of ${known.join(", ")}`, call.loc);
}
