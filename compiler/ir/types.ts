// The intermediate representation every source language (NDF JSON, rule DSL) lowers into.
// Passes read it; nothing here knows which syntax a value came from, only where it was written.

/** A position in a source file. `line` and `column` are 1-based; `offset` is a 0-based UTF-16 index. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  offset: number;
  /** Offset just past the end of the located value, when known. */
  endOffset?: number;
}

export interface Located<T> {
  value: T;
  loc: SourceLocation;
}

export type Permission = "ask" | "yolo" | "auto";
export const PERMISSIONS: readonly Permission[] = ["ask", "yolo", "auto"];

/** A tool call attached to an intent. `raw` keeps the whole object (NDF allows any shape). */
export interface ToolCall {
  name: string;
  /** `arguments` of the tool; `arguments.command` is a shell command when present. */
  arguments: Record<string, unknown>;
  raw: Record<string, unknown>;
  loc: SourceLocation;
  /** Location of `arguments.command`'s string literal (its opening quote), when it is one. */
  commandLoc?: SourceLocation;
  /** Written in OpenAI's shape (`{type: "function", function: {name, arguments}}`), `arguments` as a JSON string or an object; absent for NDF's `{name, arguments}`. */
  shape?: { kind: "openai"; argumentsAsJson: boolean };
}

/**
 * One node of a template path. `tags` are tag names without the `<||` `||>` brackets
 * (`vocab_file`, `path`); several tags are alternatives. `type` is `vocab` or a type name
 * (a key of types.json without brackets, e.g. `path`, `string`).
 */
export interface TemplateNode {
  tags: string[];
  type: string;
  required: boolean;
  loc: SourceLocation;
  /** Type `list`: the name of the value list (`ValueList`) whose spoken forms this slot matches. */
  list?: string;
  /** Type `range`: the numbers this slot accepts (digits or number words). */
  range?: NumberRange;
}

/** A slot of type `range`: an integer in [min, max], optionally written with a glued unit (`50%`). */
export interface NumberRange {
  min: number;
  max: number;
  /** A suffix the number may carry (`%`, `°`); empty for none. */
  unit: string;
}

/** One value of a list: what a user may say, and the canonical value the slot then holds. */
export interface ListValue {
  /** Spoken form, normalized words joined by one space (`living room`). */
  spoken: string;
  /** Canonical value (`living_room`). */
  value: string;
  loc: SourceLocation;
}

/** A named list of values (DSL `list`, NDF `vocabulary/lists.json`). */
export interface ValueList {
  name: string;
  values: ListValue[];
  loc: SourceLocation;
}

/**
 * A group of a template: alternative sequences (a DSL `(a b|c)` group, a permutation's orderings,
 * an optional group with a slot inside). An empty alternative makes the group optional. The
 * automaton branches into the alternatives and joins after them, so groups never multiply paths.
 */
export interface TemplateChoice {
  alternatives: TemplatePart[][];
  loc: SourceLocation;
  /**
   * A use of an expansion rule, by name: its one alternative is the rule's parts (the inlined
   * view that lint, shadowing and sampling read). The automaton lowers each distinct rule once,
   * as a sub-automaton every use calls (uses of one name whose parts differ, such as `[<name>]`
   * making the nodes optional, are distinct rules).
   */
  rule?: string;
}

export type TemplatePart = TemplateNode | TemplateChoice;

/** One template: NDF's `structure` path (plain nodes), or one DSL pattern (nodes and groups). */
export interface TemplatePath {
  nodes: TemplatePart[];
  loc: SourceLocation;
}

/** A piece of text the NPC may say (output, thinking, description). */
export type LocatedText = Located<string>;

export interface Intent {
  /**
   * Stable identifier: the entry's `intent` key when it has one and it is unique, else derived
   * from the file and the entry's position (`dataset_files.json#3`, context children `…/context#0`).
   * Never depends on file enumeration order.
   */
  id: string;
  kind: "entry" | "template";
  loc: SourceLocation;
  /** Exact phrasings (NDF `input`). */
  inputs: LocatedText[];
  /** Template paths (NDF `structure`, DSL patterns with slots). */
  paths: TemplatePath[];
  outputs: LocatedText[];
  thinking: LocatedText[];
  description?: LocatedText;
  tools: ToolCall[];
  /** Effective permission: missing means `ask`. */
  permission: Permission;
  /** Whether the source said the permission explicitly. */
  permissionExplicit: boolean;
  category?: string;
  /**
   * Follow-up entries that become reachable after this one answers. `undefined` keeps the
   * active context, `[]` clears it, a non-empty list replaces it (NDF rules).
   */
  context?: Intent[];
  /** Other keys of the entry (usable as `<||key||>` tags of this entry only). */
  extra: Record<string, unknown>;
  /** Slots the intent sets whatever the words (DSL `slots domain: "light"`, NDF `slots`). */
  fixedSlots?: Record<string, string>;
  /** Where the entry came from, for diagnostics that point at one of its keys. */
  keyLocs: Record<string, SourceLocation>;
}

/** `<||vocab_x||>` → synonyms (vocabulary/templates.json, DSL `synonym`). */
export interface SynonymSet {
  tag: string;
  words: string[];
  loc: SourceLocation;
}

/** A typed entity regex (types.json, DSL `types`). `name` has no brackets. */
export interface TypeDef {
  name: string;
  pattern: string;
  /** Regex flags (DSL literals may carry some; NDF patterns have none). */
  flags: string;
  loc: SourceLocation;
}

/** A named word list (vocabulary.json, or personality blocks such as `completion`). */
export interface WordList {
  name: string;
  words: string[];
  loc: SourceLocation;
}

export interface NpcConfig {
  name: string;
  creator?: string;
  sentenceThreshold?: number;
  wordThreshold?: number;
  synonymContribution?: number;
  suggestions?: number;
  /** Extra clause connectives (DSL `connectives`). */
  connectives: string[][];
  /** Every other config key, kept for `<||key||>` rendering and inspection. */
  extra: Record<string, unknown>;
}

export interface SourceFileRef {
  /** Path relative to the NPC directory, with `/` separators. */
  path: string;
  sha256: string;
}

export interface NpcIR {
  config: NpcConfig;
  intents: Intent[];
  synonyms: SynonymSet[];
  types: TypeDef[];
  wordLists: WordList[];
  /** Value lists for list slots, in source order. */
  lists: ValueList[];
  /** Every file read, sorted by path: the source hash is computed from these. */
  sources: SourceFileRef[];
}

/** What one source file contributes before the loader merges everything into an NpcIR. */
export interface IrFragment {
  /** An NPC name declared by the source (DSL `RuleSet.define "name"`). */
  name?: string;
  intents: Intent[];
  synonyms: SynonymSet[];
  types: TypeDef[];
  wordLists: WordList[];
  lists: ValueList[];
  connectives: string[][];
}
