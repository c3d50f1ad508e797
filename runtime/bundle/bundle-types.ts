// The payload of a `.npc` bundle: everything the runtime needs, computed at build time.
// Plain arrays and objects (deterministic key order), typed arrays for the big numeric tables,
// which the bundle stores as sections (runtime/bundle/sections.ts) and the runtime reads as views,
// and StringTables for the big sorted string lists (runtime/bundle/string-table.ts: two sections,
// strings decoded on first read).

import type { StringTable } from "./string-table.js";

/** An intent's permission: what a client must do before running its tools. */
export type Permission = "ask" | "yolo" | "auto";

/** A text split at build time: even indices are literal text, odd indices `<||tag||>` names. */
export type Segments = string[];

/** How the shell will read the characters at a position of a command. */
export type QuoteContext =
  | "unquoted"
  | "single" //         '…'     nothing is interpreted
  | "double" //         "…"     $, `, \ are interpreted
  | "ansi-c" //         $'…'    backslash escapes are interpreted
  | "param" //          ${…}    operand of a parameter expansion
  | "arith" //          $((…))  evaluated as arithmetic
  | "heredoc" //        body of <<EOF: expanded like double quotes, ends at a delimiter line
  | "heredoc-literal" // body of <<'EOF': literal, ends at a delimiter line
  | "comment" //        # … ends at a newline
  | "dollar"; //        right after a bare $, where the value becomes an expansion ($(…), ${…}, $name)

export const QUOTE_CONTEXTS: readonly QuoteContext[] = ["unquoted", "single", "double", "ansi-c", "param", "arith", "heredoc", "heredoc-literal", "comment", "dollar"];

/** Where a placeholder of a shell command sits, as the shell reads the command. */
export interface ShellPlace {
  context: QuoteContext;
  /** Inside an old-style `…` substitution, whose body the shell unescapes before parsing it. */
  inBackticks: boolean;
}

/**
 * A tool's `arguments.command`, lexed at build time (compiler/tcs/shell-template.ts) so that the
 * runtime quotes each value for where it lands without a shell lexer of its own.
 */
export interface ShellTemplate {
  /** Even: literal text; odd: tag names (only the placeholders the shell lexer saw). */
  segments: Segments;
  /** Per tag of `segments`, in order: where it sits. */
  places: ShellPlace[];
  /** A command that cannot be lexed refuses every value: the first tag and why, or null. */
  unsafe: { tag: string; reason: string } | null;
}

/** A tool object with its strings pre-split: strings are Segments, other values are wrapped. */
export type ToolTree =
  | Segments
  | { a: ToolTree[] }
  | { o: [string, ToolTree][] }
  | { v: number | boolean | null }
  | { sh: ShellTemplate }
  /** OpenAI-shaped `arguments` written as a JSON string: rendered as a tree, then serialized. */
  | { j: ToolTree };

export interface BundleIntent {
  id: string;
  category: string | null;
  outputs: Segments[];
  thinking: Segments[];
  description: Segments | null;
  /** Each tool's whole object (name, arguments, …). */
  tools: ToolTree[];
  permission: Permission;
  /** A tool command runs a destructive program (rm, dd, kill, …): never `yolo` from a guess. */
  destructive: boolean;
  /** Index of the intent whose context lists this one (it answers only while that one is active), or null. */
  parent: number | null;
  /** null keeps the active context, [] clears it, otherwise the intent indices of its children. */
  context: number[] | null;
  /** Custom keys of the entry (`<||key||>` tags of this entry), each a list of variants. */
  extra: [string, Segments[]][];
  /** The first input, shown in related suggestions. */
  example: string | null;
  /** Fixed slots ([name, value]) the answer carries whatever the words, sorted by name. */
  slots: [string, string][];
}

/**
 * What the matchers read of every intent, and what a rejection's suggestions show of each (its
 * category and example), read from the stored sections; the rest of an intent is its record (intent-records.ts).
 */
type IntentHead = "id" | "permission" | "destructive" | "parent" | "category" | "example";

/** An intent's record: what is read only when it answers or is inspected. */
export type IntentRecord = Omit<BundleIntent, IntentHead>;

/**
 * The intents as a bundle stores them (format 6.0): their heads as a string table (format 10.0:
 * in intent order, read by index) and sections (format 11.0: their labels too), checked at load, and each intent's record as
 * plain msgpack bytes of its own, decoded and checked when first read (runtime/bundle/intent-records.ts).
 */
export interface BundleIntents {
  ids: StringTable;
  /** Per intent: its permission, as an index into PERMISSIONS. */
  permission: Uint8Array;
  /** Per intent: 1 when a tool command runs a destructive program, else 0. */
  destructive: Uint8Array;
  /** Per intent: the intent whose context lists it, or the number of intents (none). */
  parent: Uint32Array;
  /**
   * Format 11.0: the intents' categories and examples, each string once (a suggestion shows both
   * without decoding the suggested intent's record); per intent, the index of its category and of
   * its example in it, or its length (none).
   */
  labels: StringTable;
  category: Uint32Array;
  example: Uint32Array;
  /** Per intent: its IntentRecord's plain msgpack bytes. */
  records: BundleRows<Uint8Array>;
}

/** An IntentRecord's fields, in the order a bundle stores them. */
export const RECORD_FIELDS = ["outputs", "thinking", "description", "tools", "context", "extra", "slots"] as const satisfies readonly (keyof IntentRecord)[];

export const PERMISSIONS: readonly Permission[] = ["ask", "yolo", "auto"];

export interface BundleConfig {
  npcName: string;
  creator: string | null;
  /** Probabilistic matches below this score are rejected. */
  sentenceThreshold: number;
  /** A typo correction (or synonym) counts only when its similarity to the word reaches this. */
  wordThreshold: number;
  /** A probabilistic winner must beat the best other intent by this much, or the stage abstains. */
  margin: number;
  /** Weight of a synonym hit relative to the word itself. */
  synonymContribution: number;
  /** Maximum number of related suggestions on a rejection. */
  suggestions: number;
  /** Characters of a message considered for matching; the rest is ignored (and said so). */
  maxMessageChars: number;
  /** Clause connectives (DSL `connectives`), normalized words, for splitting composite prompts. */
  connectives: string[][];
  /**
   * The learned stage answers when its winner leads the runner-up by this much (score units of
   * the linear model), chosen at build time by cross-validation or set by `learned_threshold`.
   */
  learnedThreshold: number;
  /** Whether the compiler shipped the learned stage and why (its cross-validation figure), for `ndfc inspect`. */
  learnedNote: string;
}

/** Normalized input → intent index, keys sorted. */
export interface BundleExactTable {
  keys: StringTable;
  /** Per key: its intent (a section). */
  targets: Uint32Array;
}

/** The exact table of a parent's context children, reachable while that parent is active. */
export interface BundleContextTable extends BundleExactTable {
  parent: number;
}

export interface BundleLexicon {
  /** Every normalized word of inputs and synonyms, sorted. */
  words: StringTable;
  /** Per word: ids of the vocab tags it is a one-word synonym of. */
  tags: BundleRows;
}

export interface BundleInputs {
  /** Per input id: the intent it belongs to (a section). */
  intent: Uint32Array;
}

/** Lists of ids (or bytes) in two sections: row i is items[starts[i]] up to (without) items[starts[i + 1]]. */
export interface BundleRows<Items extends Uint32Array | Uint8Array = Uint32Array> {
  /** One per row, and one more: where each row starts in `items` (ascending, from 0 to items.length). */
  starts: Uint32Array;
  items: Items;
}

/** The probabilistic stage's index (runtime/match/match-probabilistic.ts): everything is keyed by stem. */
export interface BundleMatching {
  /** Porter stems (runtime/text/stem.ts) of input words, synonyms, concept members and function words, sorted. */
  stems: StringTable;
  /** Per lexicon word: its stem id. */
  wordStem: Uint32Array;
  /** Per stem: its weight, IDF over intents (function words scaled almost to nothing); 0 if no input uses it. */
  weight: Float64Array;
  /** Per stem: the inputs using it, ascending (the inverted index). */
  postings: BundleRows;
  /** Per input: its distinct stem ids, ascending. */
  inputStems: BundleRows;
  /** Per input: its distinct lexicon word ids, ascending (a description has none). */
  inputWords: BundleRows;
  /** Per input: the sum of its stems' weights. */
  inputWeight: Float64Array;
  /** Per stem: the concepts (synonym sets) it belongs to, ascending. */
  concepts: BundleRows;
  /** Per concept: what a match through it counts, relative to the word itself (0..1). */
  conceptWeight: Float64Array;
  /** Weight of a message word the NPC has never seen (it counts against a match). */
  unknownWeight: number;
  /** Input ids from here on are entries' descriptions (description, tool explanation and goal, category): weaker evidence, never a match alone. */
  firstDescription: number;
}

/**
 * The learned stage (runtime/match/match-learned.ts): a one-vs-rest linear model over hashed features
 * (runtime/match/learned-features.ts), trained at build time. Class k < intents.length stands for
 * intents[k]; the last class is "none of these" (generic English). Weights are int8 with a scale
 * per class, pruned of zeros, grouped by feature (compressed sparse rows). The arrays are sections (format.ts).
 */
export interface BundleLearned {
  /** Per class but the last: the intent it answers. */
  intents: number[];
  /** Feature hashes, ascending and distinct. */
  hashes: Uint32Array;
  /** Per feature: its IDF in 1/16 steps (u8). */
  idf: Uint8Array;
  /** Per feature, and one more: where its weights start in `classes` / `weights` (ascending). */
  offsets: Uint32Array;
  /** Per weight: its class. */
  classes: Uint16Array;
  /** Per weight: its value in units of its class's scale (int8, stored as its byte). */
  weights: Uint8Array;
  /** Per class: what one weight unit is worth. */
  scale: number[];
  /** Per class: its score when no feature of the message has a weight for it. */
  bias: number[];
  /** Concept lookup (runtime/match/learned-features.ts ConceptTable): member stems' conceptKey, ascending and distinct. */
  conceptKeys: Uint32Array;
  /** Per key, and one more: where its concept features start in `conceptFeatures` (ascending). */
  conceptOffsets: Uint32Array;
  /** Per key: the features of its concepts. */
  conceptFeatures: Uint32Array;
}

/**
 * Phrases found by their first word (runtime/bundle/phrase-table.ts): the sanitizer's (format 12.0)
 * and the vocab's (format 13.0), each with a section of values in phrase order beside these.
 */
export interface BundlePhrases {
  /** Phrases (normalized words joined by one space), grouped by first word, longest first within a group (then as the compiler gave them). */
  phrases: StringTable;
  /**
   * Open addressing over the groups, a power of two of slots: a group's first phrase index plus
   * one sits at the first free slot (0) from hashString (runtime/text/fuzzy.ts) of its first word
   * masked by the slot count less one, on (wrapping); there is always a free one.
   */
  slots: Uint32Array;
}

/** Format 13.0: the synonyms of several words are a phrase table, not msgpack lists walked into a Map at load. */
export interface BundleVocab extends BundlePhrases {
  /** Vocab tag names (without brackets), sorted; a tag id is an index here. */
  tags: string[];
  /** Per phrase: the vocab tag it is a synonym of (the compiler gives them by tag, then text). */
  phraseTags: Uint32Array;
}

/** Symmetric-delete neighbourhoods: (hash of a deletion variant, word id), sorted (two sections). */
export interface BundleFuzzy {
  hashes: Uint32Array;
  words: Uint32Array;
  /**
   * Format 14.0: where each bucket of hashes starts, by the hashes' top bits (a power of two of
   * buckets, at least 2, and one more entry: the number of hashes), so a lookup searches the few
   * hashes of one bucket, not all of them (runtime/text/fuzzy.ts; written by
   * compiler/passes/compute-fuzzy-index.ts).
   */
  buckets: Uint32Array;
}

/**
 * A type regex compiled to a Pike VM program (linear time on any input).
 * `classes`: per class [negated, namedSets bitmask, lo0, hi0, lo1, hi1, …].
 * `ops`: triples [opcode, a, b] (see runtime/text/regex-vm.ts).
 */
export interface BundleTypeProgram {
  name: string;
  /** Why the type cannot be used (its nodes never match), or null. */
  unusable: string | null;
  classes: number[][];
  ops: number[];
}

/**
 * A type program as a bundle stores it (format 10.0): its classes as rows and its opcode triples
 * as a section, not msgpack lists (TERMy's types were two thirds of its msgpack values).
 */
export interface StoredTypeProgram extends Omit<BundleTypeProgram, "classes" | "ops"> {
  classes: BundleRows;
  ops: Uint32Array;
}

export interface BundleState {
  /** Vocab edges: [tag ids (alternatives), child state]. */
  vocab: [number[], number][];
  /** Typed-slot edges: [type id, slot name, child state]. */
  typed: [number, string, number][];
  /** Free-string slot edges: [slot name, child state]. */
  strings: [string, number][];
  /** List-slot edges: [list id, slot name, child state]. */
  lists: [number, string, number][];
  /** Number-slot edges: [range id, slot name, child state]. */
  ranges: [number, string, number][];
  /** Children reachable without consuming a word (optional nodes). */
  skip: number[];
  /** Template paths ending here: [intent index, path index within the intent], in source order. */
  accept: [number, number][];
  /**
   * Calls of expansion rules (read without consuming a word): [the rule's start state, the state
   * to continue at once the rule has matched]. A rule's states are its own (automaton-frames.ts).
   */
  calls: [number, number][];
  /** A rule's end: the start state of the rule that ends here (the thread returns to its caller). */
  returns: number[];
}

/** The automaton as a bundle stores it (runtime/bundle/automaton-store.ts), read into BundleState[] at load. */
export interface StoredAutomaton {
  /** Slot names of the typed, string, list and number edges, sorted; an edge holds an index here. */
  names: string[];
  /** Per state, one row per edge kind (EDGE_KINDS), each its edges' numbers (EDGE_WIDTHS) one after the other. */
  edges: BundleRows;
  /** Per vocab edge, in the order the states and rows hold them: its alternative tags. */
  vocabTags: BundleRows;
}

/**
 * A value list: its spoken forms (normalized words) with the index of their canonical value. The
 * runtime builds a trie over the words at load, so a 5,000-value list is one automaton edge and
 * one walk of the words at a position.
 */
export interface BundleList {
  name: string;
  phrases: [string[], number][];
  values: string[];
}

/** What a number slot accepts: an integer in [min, max], with an optional glued unit (`50%`). */
export interface BundleRange {
  min: number;
  max: number;
  unit: string;
}

export type SentimentKind = "expletives" | "interjections" | "thanking" | "encouraging" | "discouraging";
export const SENTIMENT_KINDS: readonly SentimentKind[] = [
  "expletives",
  "interjections",
  "thanking",
  "encouraging",
  "discouraging",
];

/**
 * Format 12.0: the phrases as one table (runtime/bundle/phrase-table.ts), found through a hash
 * table of their first words, not msgpack lists turned into a Map at load. Expletives and
 * interjections are stripped, the other kinds counted; within a group, phrases go by kind, then text.
 */
export interface BundleSanitizer extends BundlePhrases {
  /** Per phrase: its sentiment kind (an index into SENTIMENT_KINDS). */
  kinds: Uint8Array;
  stopWords: string[];
  /** Words that name nothing by themselves (pronouns, determiners, courtesy), sorted: runtime/match/guards.ts lacksReferent. */
  nameless: string[];
}

/**
 * Format 13.0: the word lists (name → variants, each Segments) as tables read by index
 * (runtime/bundle/word-lists.ts), not msgpack lists of strings decoded into arrays at load.
 */
export interface BundleWordLists {
  /** List names, sorted (a list is found by binary search); a list's id is its index here. */
  names: StringTable;
  /** Per list, and one more: where its variants start (ascending, from 0 to the number of variants). */
  variants: Uint32Array;
  /** Per variant, and one more: where its segments start in `segments` (ascending, from 0 to their number). */
  starts: Uint32Array;
  /** Every variant's segments, one after the other, in list and variant order. */
  segments: StringTable;
}

/**
 * Tables the compiler derives so the runtime need not on its first message
 * (compiler/passes/compute-message-tables.ts).
 */
export interface BundleMessageTables {
  /** Words that start an exact input (any context) or a template path, sorted: runtime/conversation/clauses.ts. */
  actionWords: StringTable;
}

export interface BundleCounts {
  intents: number;
  inputs: number;
  /** Templates in the automaton (a DSL pattern with its groups is one; an NDF structure path is one). */
  templatePaths: number;
  automatonStates: number;
  vocabularyWords: number;
  vocabTags: number;
  types: number;
  wordLists: number;
}

/** A payload as the bundle stores it: its intents, automaton and types in their stored form. */
export type StoredPayload = Omit<BundlePayload, "intents" | "automaton" | "types"> & { intents: BundleIntents; automaton: StoredAutomaton; types: StoredTypeProgram[] };

export interface BundlePayload {
  name: string;
  compilerVersion: string;
  sourceHash: string;
  /** Paths of the source files, relative to the NPC (sorted): what `ndfc build` checks before replacing a bundle. Not read by the runtime. */
  sources?: string[];
  counts: BundleCounts;
  config: BundleConfig;
  intents: BundleIntent[];
  exact: BundleExactTable;
  contextExact: BundleContextTable[];
  lexicon: BundleLexicon;
  inputs: BundleInputs;
  matching: BundleMatching;
  vocab: BundleVocab;
  fuzzy: BundleFuzzy;
  /** null when the NPC has too few phrasings to learn from, or its config says `"matcher": "lexical"`. */
  learned: BundleLearned | null;
  types: BundleTypeProgram[];
  automaton: BundleState[];
  lists: BundleList[];
  ranges: BundleRange[];
  /** Number words ("twenty" → 20, "hundred" → 100 as a multiplier) for number slots; empty without ranges. */
  numberWords: [string, number][];
  sanitizer: BundleSanitizer;
  messageTables: BundleMessageTables;
  /** Vocabulary lists and personality blocks (completion, unknown, related, …) for rendering. */
  wordLists: BundleWordLists;
}
