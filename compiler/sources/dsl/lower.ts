// Lowering a DSL file into an IrFragment: `RuleSet.define "name" do … end` (or `Ruleset.create`),
// declarations (types, synonym, connectives, list, expansion, skip_words) and rules. Declarations
// are read before rules, so a `types`, `list` or `expansion` line may come after the rules that use it.
import type { DiagnosticBag } from "../../diagnostics.js";
import type { IrFragment, SourceLocation, TypeDef } from "../../ir/types.js";
import type { CallNode, Expr } from "./ast.js";
import { DSL_CODES } from "./codes.js";
import { LineMap } from "../location.js";
import { RULE_FORMS, RULE_BODY_METHODS, RuleLowering, reportUnknownMethod, type PatternScope } from "./lower-rule.js";
import { parseDsl } from "./syntax.js";
import { describeExpr, keyName, nameOf, stringsOf } from "./values.js";
import { ExpansionTable } from "./expansions.js";
import { lowerList } from "./lower-list.js";
import { WordTable } from "./words.js";

export interface DslLowerOptions {
  /** Prefix of derived intent ids (`shell.rules#3`); defaults to the file's base name. */
  idPrefix?: string;
}

const RULE_SET_RECEIVERS = ["RuleSet", "Ruleset"];
const RULE_SET_METHODS = ["define", "create"];
const DECLARATIONS = ["types", "synonym", "connectives", "list", "expansion", "skip_words"];
const RULE_SET_BODY_METHODS = [...DECLARATIONS, ...RULE_FORMS];

/** Ruby regex flags the IR can keep: `i` as is, Ruby's `m` (dot matches newline) is JavaScript's `s`. */
const REGEX_FLAGS: Record<string, string> = { i: "i", m: "s" };

/** Parses and lowers one DSL file; every problem is reported into `bag`, nothing throws. */
export function lowerDslFile(file: string, text: string, bag: DiagnosticBag, options: DslLowerOptions = {}): IrFragment {
  const lines = new LineMap(file, text);
  const ast = parseDsl(lines, bag);
  return new FileLowering(lines, bag, options).lower(ast.statements);
}

class FileLowering {
  private readonly fragment: IrFragment = { intents: [], synonyms: [], types: [], wordLists: [], lists: [], connectives: [] };
  private readonly words = new WordTable();
  private readonly expansions: ExpansionTable;
  private nameLoc: SourceLocation | undefined;

  constructor(
    private readonly lines: LineMap,
    private readonly bag: DiagnosticBag,
    private readonly options: DslLowerOptions,
  ) {
    this.expansions = new ExpansionTable(lines, bag);
  }

  lower(topLevel: CallNode[]): IrFragment {
    const statements = this.flattenRuleSets(topLevel);
    for (const statement of statements) {
      if (DECLARATIONS.includes(statement.name) && statement.receiver === undefined) this.declaration(statement);
    }
    const typeNames = new Set(this.fragment.types.map((type) => type.name));
    const listNames = new Set(this.fragment.lists.map((list) => list.name));
    const rules = new RuleLowering({ lines: this.lines, bag: this.bag, typeNames, listNames, expansions: this.expansions.lookup, words: this.words });
    const scope: PatternScope = new Map();
    const idPrefix = this.options.idPrefix ?? baseName(this.lines.file);
    let index = 0;
    let blocklessRule: CallNode | undefined;
    for (const statement of statements) {
      if (statement.receiver === undefined && RULE_FORMS.includes(statement.name)) {
        this.fragment.intents.push(rules.lower(statement, `${idPrefix}#${index++}`, scope));
        blocklessRule = statement.block === undefined ? statement : undefined;
      } else if (!(statement.receiver === undefined && DECLARATIONS.includes(statement.name))) {
        this.reportMisplaced(statement, blocklessRule);
      }
    }
    this.fragment.synonyms = this.words.synonymSets();
    return this.fragment;
  }

  /** The statements of every `RuleSet.define "name" do … end` block, plus bare top-level ones. */
  private flattenRuleSets(statements: CallNode[]): CallNode[] {
    return statements.flatMap((statement) => {
      if (statement.receiver === undefined || !RULE_SET_RECEIVERS.includes(statement.receiver)) return [statement];
      if (!RULE_SET_METHODS.includes(statement.name)) {
        reportUnknownMethod(statement, "a rule file", RULE_SET_RECEIVERS.flatMap((r) => RULE_SET_METHODS.map((m) => `${r}.${m}`)), this.bag);
        return [];
      }
      this.ruleSetName(statement);
      if (statement.block === undefined) {
        this.bag.error(DSL_CODES.badArgument, `${statement.receiver}.${statement.name} needs a block: ${statement.receiver}.${statement.name} "name" do … end`, statement.loc);
        return [];
      }
      return statement.block.statements;
    });
  }

  private ruleSetName(statement: CallNode): void {
    const [nameArg, ...extra] = statement.args;
    const name = nameArg?.kind === "string" || nameArg?.kind === "symbol" ? nameOf(nameArg) : undefined;
    if (name === undefined || extra.length > 0) {
      this.bag.error(DSL_CODES.badArgument, `${statement.receiver}.${statement.name} takes the rule set's name as one string`, nameArg?.loc ?? statement.loc);
      return;
    }
    if (this.fragment.name !== undefined && this.fragment.name !== name) {
      this.bag.warning(DSL_CODES.duplicateSetting, `this file already defines the rule set "${this.fragment.name}"; the NPC keeps that name`, statement.loc, [
        { message: "named here first", loc: this.nameLoc! },
      ]);
      return;
    }
    this.fragment.name = name;
    this.nameLoc = statement.loc;
  }

  /** `blocklessRule`: the rule just before, when it has no block (a forgotten `do` is the likely cause). */
  private reportMisplaced(statement: CallNode, blocklessRule: CallNode | undefined): void {
    if (statement.receiver === undefined && statement.name === "step") {
      this.bag.error(DSL_CODES.stepOutsideChain, "step belongs inside a chain(\"…\") do … end block", statement.loc);
    } else if (statement.receiver === undefined && statement.name === "resolve") {
      this.bag.error(DSL_CODES.resolveOutsideQuery, "resolve belongs inside a query(\"…\") do … end block", statement.loc);
    } else if (statement.receiver === undefined && RULE_BODY_METHODS.includes(statement.name)) {
      const hint = blocklessRule === undefined ? "" : ` (the ${blocklessRule.name} at ${blocklessRule.loc.line}:${blocklessRule.loc.column} has no block: a missing 'do'?)`;
      this.bag.error(DSL_CODES.unknownMethod, `${statement.name} belongs inside a rule block: rule("…") do ${statement.name} … end${hint}`, statement.loc);
    } else if (statement.receiver !== undefined && RULE_SET_RECEIVERS.includes(statement.receiver)) {
      this.bag.error(DSL_CODES.unknownMethod, `${statement.receiver}.${statement.name} cannot be nested inside another rule set`, statement.loc);
    } else {
      reportUnknownMethod(statement, "a rule set", RULE_SET_BODY_METHODS, this.bag);
    }
  }

  private declaration(statement: CallNode): void {
    if (statement.block !== undefined) this.bag.error(DSL_CODES.badArgument, `${statement.name} takes no block`, statement.block.loc);
    if (statement.name === "types") this.types(statement);
    else if (statement.name === "synonym") this.synonym(statement);
    else if (statement.name === "list") this.list(statement);
    else if (statement.name === "expansion") this.expansions.declare(statement);
    else if (statement.name === "skip_words") this.skipWords(statement);
    else this.connectives(statement);
  }

  private list(statement: CallNode): void {
    const list = lowerList(statement, this.bag);
    if (list === undefined) return;
    const previous = this.fragment.lists.find((existing) => existing.name === list.name);
    if (previous !== undefined) {
      this.bag.error(DSL_CODES.badArgument, `list :${list.name} is already defined in this file; add the values there`, list.loc, [{ message: "defined here first", loc: previous.loc }]);
      return;
    }
    this.fragment.lists.push(list);
  }

  /** `skip_words "please", "just"`: words a template match skips anywhere (the NPC's stop words). */
  private skipWords(statement: CallNode): void {
    for (const pair of statement.pairs) this.bag.error(DSL_CODES.badArgument, 'skip_words takes words: skip_words "please", "just"', pair.loc);
    const words: string[] = [];
    for (const node of stringsOf(statement.args, "skip_words", this.bag)) {
      const word = node.value.trim().toLowerCase();
      if (/^\S+$/.test(word)) words.push(word);
      else this.bag.error(DSL_CODES.badArgument, `a skip word is one word, not "${node.value}"`, node.loc);
    }
    if (words.length > 0) this.fragment.wordLists.push({ name: "stop_words", words, loc: statement.loc });
  }

  private types(statement: CallNode): void {
    for (const arg of statement.args) this.bag.error(DSL_CODES.badArgument, "types takes name: /regex/ pairs", arg.loc);
    for (const pair of statement.pairs) {
      const name = keyName(pair.key);
      if (name === undefined) {
        this.bag.error(DSL_CODES.badArgument, `a type name must be a symbol or a string, not ${describeExpr(pair.key)}`, pair.key.loc);
        continue;
      }
      const type = this.typeDef(name, pair.value);
      if (type === undefined) continue;
      const previous = this.fragment.types.find((existing) => existing.name === name);
      if (previous !== undefined) {
        this.bag.error(DSL_CODES.duplicateType, `type ${name} is already defined`, pair.key.loc, [{ message: "defined here first", loc: previous.loc }]);
        continue;
      }
      this.fragment.types.push(type);
    }
  }

  private typeDef(name: string, value: Expr): TypeDef | undefined {
    if (value.kind === "string") return { name, pattern: value.value, flags: "", loc: value.loc };
    if (value.kind !== "regex") {
      this.bag.error(DSL_CODES.badArgument, `type ${name} needs a regex (/…/ or %r{…}), not ${describeExpr(value)}`, value.loc);
      return undefined;
    }
    let flags = "";
    for (const flag of value.flags) {
      const translated = REGEX_FLAGS[flag];
      if (translated === undefined) {
        this.bag.error(DSL_CODES.badRegexFlag, `regex flag '${flag}' is not supported: use i (ignore case) or m (dot matches newline)`, value.loc);
      } else if (!flags.includes(translated)) flags += translated;
    }
    return { name, pattern: value.source, flags, loc: value.loc };
  }

  private synonym(statement: CallNode): void {
    const meansPair = statement.pairs.find((pair) => keyName(pair.key) === "means");
    for (const pair of statement.pairs) {
      if (pair !== meansPair) this.bag.error(DSL_CODES.badSynonym, `synonym takes words and means: "word"; unknown argument ${keyName(pair.key) ?? describeExpr(pair.key)}`, pair.loc);
    }
    const meaning = meansPair?.value.kind === "string" || meansPair?.value.kind === "symbol" ? nameOf(meansPair.value) : undefined;
    if (meaning === undefined) {
      this.bag.error(DSL_CODES.badSynonym, 'synonym needs the word it stands for: synonym "wipe", means: "delete"', meansPair?.value.loc ?? statement.loc);
      return;
    }
    if (!this.isOneWord(meaning, meansPair!.value.loc)) return;
    if (statement.args.length === 0) this.bag.error(DSL_CODES.badSynonym, 'synonym needs at least one word: synonym "wipe", means: "delete"', statement.loc);
    for (const arg of statement.args) {
      const synonym = arg.kind === "string" ? arg.value.trim().toLowerCase().split(/\s+/).join(" ") : "";
      if (synonym.length === 0) this.bag.error(DSL_CODES.badSynonym, `a synonym must be a non-empty string, not ${describeExpr(arg)}`, arg.loc);
      else this.words.addSynonym(synonym, meaning.toLowerCase(), statement.loc);
    }
  }

  /** `means:` names the word a pattern writes, so it is one word (the synonyms may be phrases). */
  private isOneWord(word: string, loc: SourceLocation): boolean {
    if (/^\S+$/.test(word)) return true;
    this.bag.error(DSL_CODES.badSynonym, `means: "${word}" is not one word: it must be a word that rule patterns use`, loc);
    return false;
  }

  private connectives(statement: CallNode): void {
    for (const pair of statement.pairs) this.bag.error(DSL_CODES.badArgument, 'connectives takes arrays of words: connectives ["after", "that"], ["then"]', pair.loc);
    for (const arg of statement.args) {
      const words = arg.kind === "array" ? arg.items : [arg];
      const connective: string[] = [];
      for (const word of words) {
        if (word.kind === "string") connective.push(...word.value.toLowerCase().split(/\s+/).filter((w) => w.length > 0));
        else this.bag.error(DSL_CODES.badArgument, `a connective word must be a string, not ${describeExpr(word)}`, word.loc);
      }
      if (connective.length > 0) this.fragment.connectives.push(connective);
    }
  }
}

function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
}
