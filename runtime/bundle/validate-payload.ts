// Shape validation of a decoded bundle payload: a bundle with a valid hash can still have been
// written by a buggy or hostile tool, and the runtime indexes arrays with these numbers.
// Returns the first problem as "path: what is wrong", or null.
//
// The shape is data (PAYLOAD below), walked by one interpreter (check): a leaf is a number, an
// object's fields a plain object, the other nodes tagged tuples, and the few irregular checks
// functions. An index is checked against the length of the array it points into (its bound, read
// before the walk), and a list that runs in parallel with another must have its length. A
// section's values are checked in one typed loop (firstAtLeast), not one call per value: at 100k
// inputs the sections hold millions of numbers. Tools are objects (a response's tool calls are),
// and the automaton's sections are rows (its edges, and the type programs' instructions, are checked
// as they are read, by the template chunk: automaton-store.ts, template-store.ts).
// An intent's record is checked apart, when it is first read (validateIntentRecord, called by
// intent-records.ts): a load checks the intents' heads only.
//
// The walk has a budget: it may visit at most as many values as the caller allows (decodeBundle
// allows the payload's byte count, which bounds the values of a plain msgpack value). A tree that
// shares a child under many parents, or a cycle, runs out of budget instead of taking forever.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import { PERMISSIONS, QUOTE_CONTEXTS, SENTIMENT_KINDS } from "./bundle-types.js";
import { StringTable } from "./string-table.js";

class ShapeError extends Error {}

/**
 * The keys from the payload down to the value being checked: pushed and popped as the walk goes,
 * spelled out ("intents[3].tools[0]") only for an error message, so a value costs no path object.
 */
const at: (string | number)[] = [];

function fail(what: string): never {
  let path = "";
  for (const key of at) path += typeof key === "number" ? `[${key}]` : path ? `.${key}` : key;
  throw new ShapeError(`${path || "payload"}: ${what}`);
}

function failAt(key: string | number, what: string): never {
  at.push(key);
  return fail(what);
}

/** Values the walk may still visit (set by problemOf). */
let budgetLeft = 0;

/** Counts `count` values about to be visited. */
function spend(count: number): void {
  budgetLeft -= count;
  if (budgetLeft < 0) fail("more values than the payload's bytes can hold (shared or cyclic references)");
}

// Leaves: a shape that is one of these numbers.
const STR = 0;
const NUM = 1;
const BOOL = 2;
const STRINGS = 3;
const LEAF_WHAT = ["expected a string", "expected a finite number", "expected a boolean"];

// Tagged nodes: [tag, …].
const LIST = 0;
const OPTIONAL = 1;
const TUPLE = 2;
const INDEX = 3;
const SECTION = 4;
const ROWS = 5;
const OBJECT = 6;
const STARTS = 7;

type Kind = typeof Uint8Array | typeof Uint16Array | typeof Uint32Array | typeof Float64Array;
/** An index below the length of the array at path `bound` plus `extra`, or below the number `bound`. */
type Index = readonly [typeof INDEX, string | number, number];
/** A check the table cannot say: it reads the value and throws ShapeError (fail) at the first problem. */
type Custom = (value: unknown) => void;
interface Fields {
  readonly [field: string]: Shape;
}
type Shape =
  | number
  | Custom
  | Fields
  | Index
  | readonly [typeof LIST, Shape]
  | readonly [typeof OPTIONAL, Shape]
  | readonly [typeof TUPLE, ...Shape[]]
  /** A typed-array section of `kind`, as long as the array at `sameAs`, its values indices (when given). */
  | readonly [typeof SECTION, Kind, string?, Index?]
  /** BundleRows (starts, items of `kind`): one row per value of the array at `rowsOf` when given, items indices (when given). */
  | readonly [typeof ROWS, string?, Index?, Kind?]
  /** An object's fields, then `after` on the whole. */
  | readonly [typeof OBJECT, Fields, (o: Record<string, unknown>) => void]
  /** Where rows start, a Uint32Array section: one per value of the array at `rowsOf` and one more, from 0 up to the length of the array at `itemsOf` plus `extra`. */
  | readonly [typeof STARTS, string | undefined, string, number];

/** Lengths of the arrays that indices point into, by path; filled before each walk. */
let bounds: Record<string, number> = {};
const IDS = "intents.ids";
const LABELS = "intents.labels";
const INPUTS = "inputs.intent";
const STEMS = "matching.stems";
const WORDS = "lexicon.words";
const TAGS = "vocab.tags";
const PHRASES = "sanitizer.phrases";
const VOCAB_PHRASES = "vocab.phrases";
const LIST_NAMES = "wordLists.names";
const VARIANT_STARTS = "wordLists.starts";
const SEGMENTS = "wordLists.segments";
const HASHES = "fuzzy.hashes";
const BOUNDS = [IDS, LABELS, "types", "lists", "ranges", TAGS, WORDS, STEMS, "matching.conceptWeight", INPUTS, PHRASES, VOCAB_PHRASES, LIST_NAMES, VARIANT_STARTS, SEGMENTS, HASHES];

const limitOf = ([, bound, extra]: Index): number => (typeof bound === "number" ? bound : bounds[bound]! + extra);

const isIndex = (value: unknown, limit: number) => typeof value === "number" && Number.isInteger(value) && value >= 0 && value < limit;

/** A plain object, as the decoder makes them (not an array, section or string table). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function record(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) fail("expected an object");
  return value;
}

/** An array whose items the caller is about to visit (they are spent from the budget). */
function array(value: unknown): unknown[] {
  if (!Array.isArray(value)) fail("expected an array");
  spend(value.length);
  return value;
}

// These loops run over millions of values at 100k inputs, cold: the length is read once (in the
// interpreter, a property read per step costs more than the comparison).

/** The first position of `values` holding `limit` or more, or -1. */
function firstAtLeast(values: Uint8Array | Uint32Array, limit: number): number {
  for (let i = 0, n = values.length; i < n; i++) if (values[i]! >= limit) return i;
  return -1;
}

/**
 * The first position of `values` that is not a finite number (its exponent all ones: NaN or
 * ±Infinity), or -1. Read as u16s (sections are little-endian: a float's last holds its exponent),
 * as a cold load's interpreter boxes every float it reads (TERMy's weights: 100 KB of garbage).
 */
function firstNotFinite(values: Float64Array): number {
  const halves = new Uint16Array(values.buffer, values.byteOffset, 4 * values.length);
  for (let i = 3, n = halves.length; i < n; i += 4) if ((halves[i]! & 0x7ff0) === 0x7ff0) return i >> 2;
  return -1;
}

/** The first position where `values` goes down, or -1. */
function firstDescent(values: Uint32Array): number {
  for (let i = 1, n = values.length; i < n; i++) if (values[i - 1]! > values[i]!) return i;
  return -1;
}

/** Checks the value at key `key` of the value being checked. */
function checkAt(shape: Shape, value: unknown, key: string | number): void {
  at.push(key);
  check(shape, value);
  at.pop();
}

/** Whether `value` is the leaf `kind` (not STRINGS). */
function isLeaf(kind: number, value: unknown): boolean {
  return kind === STR ? typeof value === "string" : kind === NUM ? typeof value === "number" && Number.isFinite(value) : typeof value === "boolean";
}

function check(shape: Shape, value: unknown): void {
  if (typeof shape === "number") {
    if (shape === STRINGS) return strings(value);
    if (!isLeaf(shape, value)) fail(LEAF_WHAT[shape]!);
  } else if (typeof shape === "function") shape(value);
  else if (!Array.isArray(shape)) fields(shape as Fields, value);
  else {
    const node = shape as Exclude<Shape, number | Custom | Fields>;
    switch (node[0]) {
      case LIST: {
        const items = array(value);
        const item = node[1];
        // Leaves, most of what lists hold, are tested inline.
        if (typeof item === "number" && item !== STRINGS) {
          for (let i = 0; i < items.length; i++) if (!isLeaf(item, items[i])) failAt(i, LEAF_WHAT[item]!);
        } else for (let i = 0; i < items.length; i++) checkAt(item, items[i], i);
        return;
      }
      case OPTIONAL:
        if (value !== null) check(node[1], value);
        return;
      case TUPLE: {
        const entries = array(value);
        if (entries.length !== node.length - 1) fail(`expected ${node.length - 1} entries`);
        for (let i = 1; i < node.length; i++) checkAt(node[i]!, entries[i - 1], i - 1);
        return;
      }
      case INDEX: {
        const limit = limitOf(node);
        if (!isIndex(value, limit)) fail(`expected an index below ${limit}`);
        return;
      }
      case SECTION:
        section(value, node[1], node[2], node[3]);
        return;
      case ROWS: {
        const o = record(value);
        spend(2);
        at.push("items");
        const items = section(o.items, node[3] ?? Uint32Array, undefined, node[2]).length;
        at[at.length - 1] = "starts";
        rowStarts(o.starts, node[1], items);
        at.pop();
        return;
      }
      case STARTS:
        return rowStarts(value, node[1], bounds[node[2]]! + node[3]);
      case OBJECT:
        return node[2](fields(node[1], value));
    }
  }
}

/** Where rows start (BundleRows.starts): one per value of the array at `rowsOf` (when given) and one more, ascending from 0 to `items`. */
function rowStarts(value: unknown, rowsOf: string | undefined, items: number): void {
  const starts = section(value, Uint32Array) as Uint32Array;
  if (rowsOf !== undefined && starts.length !== bounds[rowsOf]! + 1) fail(`not one per ${rowsOf} and one more`);
  if (starts[0] !== 0 || starts[starts.length - 1] !== items) fail("not from 0 to the number of items");
  const descent = firstDescent(starts);
  if (descent !== -1) fail(`not ascending at ${descent}`);
}

/** Checks an object's fields; returns the object. */
function fields(shape: Fields, value: unknown): Record<string, unknown> {
  const o = record(value);
  spend(Object.keys(shape).length);
  for (const name in shape) checkAt(shape[name]!, o[name], name);
  return o;
}

/** A section of `kind`, as long as the array at `sameAs` (when given), its values below `index`'s limit (when given); returns it. */
function section(value: unknown, kind: Kind, sameAs?: string, index?: Index): ArrayLike<number> {
  if (!(value instanceof kind)) fail(`expected a ${kind.name} section`);
  if (sameAs !== undefined && value.length !== bounds[sameAs]) fail(`length differs from ${sameAs}`);
  if (index !== undefined) {
    const limit = limitOf(index);
    const bad = firstAtLeast(value as Uint8Array | Uint32Array, limit);
    if (bad !== -1) failAt(bad, `expected an index below ${limit}`);
  } else if (kind === Float64Array) {
    const bad = firstNotFinite(value as Float64Array);
    if (bad !== -1) failAt(bad, LEAF_WHAT[NUM]!);
  }
  return value;
}

/** A string table (string-table.ts): its offsets and bytes checked by its own typed pass. */
function strings(value: unknown): void {
  if (!(value instanceof StringTable)) fail("expected a string table");
  const problem = value.problem();
  if (problem !== null) fail(problem);
}

const TEXT: Shape = [LIST, STR];
const VARIANTS: Shape = [LIST, TEXT];
const INTENT: Index = [INDEX, IDS, 0];
const TAG: Index = [INDEX, TAGS, 0];
const INPUT: Index = [INDEX, INPUTS, 0];
const STEM: Index = [INDEX, STEMS, 0];
const WORD: Index = [INDEX, WORDS, 0];
const U32: Shape = [SECTION, Uint32Array];
/** Per intent, an index into its labels; the number of labels: none. */
const LABEL: Shape = [SECTION, Uint32Array, IDS, [INDEX, LABELS, 1]];

const QUOTE_CONTEXT: Custom = (v) => void ((QUOTE_CONTEXTS as readonly unknown[]).includes(v) || fail("expected a quote context"));
/** A shell template: segments alternate text and tags, one place per tag. */
const SHELL: Shape = [
  OBJECT,
  { segments: TEXT, places: [LIST, { context: QUOTE_CONTEXT, inBackticks: BOOL }], unsafe: [OPTIONAL, { tag: STR, reason: STR }] },
  (o: Record<string, unknown>) => void ((o.segments as unknown[]).length === 2 * (o.places as unknown[]).length + 1 || fail("segments and places do not fit")),
];

/** Nesting of arrays and objects in a tool beyond which a bundle is refused. */
const MAX_TOOL_DEPTH = 64;
let toolDepth = 0;

/** A tool value: an array of text, or one of {a: list}, {o: entries}, {sh: shell}, {j: value}, {v: scalar}. */
const toolTree = (function toolTree(value: unknown): void {
  if (Array.isArray(value)) return check(TEXT, value);
  const o = record(value);
  spend(1);
  oneKey(o);
  if (Object.hasOwn(o, "o")) return toolObject(o);
  if (Object.hasOwn(o, "sh")) return checkAt(SHELL, o.sh, "sh");
  if (Object.hasOwn(o, "v")) {
    if (o.v !== null && typeof o.v !== "number" && typeof o.v !== "boolean") failAt("v", "expected a scalar");
    return;
  }
  const key = Object.hasOwn(o, "a") ? "a" : Object.hasOwn(o, "j") ? "j" : fail("unknown tool value");
  if (++toolDepth > MAX_TOOL_DEPTH) failAt(key, "tool nesting too deep");
  checkAt(key === "a" ? TOOL_LIST : toolTree, o[key], key);
  toolDepth--;
});

/** One key: no compiler writes two, and a renderer must never meet a key the check skipped. */
function oneKey(o: Record<string, unknown>): void {
  let keys = 0;
  for (const key in o) if (++keys > 1) fail(`a tool value has one key (o, sh, v, a or j), this one has ${key} too`);
}

/** An object of a tool tree: its entries, [key, value]. */
const toolObject = (function toolObject(value: unknown): void {
  if (!isRecord(value) || !Object.hasOwn(value, "o")) fail("expected a tool object ({o: [[key, value], …]}): a tool call is an object (name, arguments, …)");
  oneKey(value);
  if (++toolDepth > MAX_TOOL_DEPTH) failAt("o", "tool nesting too deep");
  checkAt(TOOL_ENTRIES, value.o, "o");
  toolDepth--;
});
const TOOL_LIST: Shape = [LIST, toolTree];
const TOOL_ENTRIES: Shape = [LIST, [TUPLE, STR, toolTree]];

const EXACT_TABLE: Fields = { keys: STRINGS, targets: [SECTION, Uint32Array, undefined, INTENT] };
const sameKeysAndTargets = (t: Record<string, unknown>) => {
  if ((t.keys as StringTable).length !== (t.targets as Uint32Array).length) fail("keys and targets differ in length");
};

const BYTES: Shape = [SECTION, Uint8Array];
// How the arrays fit together is checked with the learned stage's chunk (validate-learned.ts), and
// the concept table's structure where it is read (ConceptTable, in that chunk too).
const LEARNED: Fields = { intents: [LIST, INTENT], hashes: U32, idf: BYTES, offsets: U32, classes: [SECTION, Uint16Array], weights: BYTES, scale: [LIST, NUM], bias: [LIST, NUM], conceptKeys: U32, conceptOffsets: U32, conceptFeatures: U32 };

/** An intent's record (IntentRecord), checked when it is first read (intent-records.ts). */
const RECORD: Fields = {
  outputs: VARIANTS,
  thinking: VARIANTS,
  description: [OPTIONAL, TEXT],
  tools: [LIST, toolObject],
  context: [OPTIONAL, [LIST, INTENT]],
  extra: [LIST, [TUPLE, STR, VARIANTS]],
  slots: [LIST, [TUPLE, STR, STR]],
};

/**
 * A phrase table (BundlePhrases, phrase-table.ts) at `path` with `values` beside it: its slots
 * index its phrases (plus one; 0 is free), and a lookup masks the hash and probes until a free
 * slot, so they must be a power of two with one free.
 */
function phrasesOf(path: string, values: Fields): Shape {
  return [
    OBJECT,
    { phrases: STRINGS, slots: [SECTION, Uint32Array, undefined, [INDEX, path, 1]], ...values },
    (o: Record<string, unknown>) => {
      const slots = o.slots as Uint32Array;
      if (slots.length & (slots.length - 1) || !slots.includes(0)) failAt("slots", "expected a power of two of them, one free");
    },
  ];
}

const PAYLOAD: Fields = {
  name: STR,
  compilerVersion: STR,
  sourceHash: STR,
  counts: (value: unknown) => {
    const entries = Object.entries(record(value));
    spend(entries.length);
    for (const [name, n] of entries) checkAt(NUM, n, name);
  },
  config: {
    npcName: STR,
    creator: [OPTIONAL, STR],
    sentenceThreshold: NUM,
    wordThreshold: NUM,
    margin: NUM,
    synonymContribution: NUM,
    suggestions: NUM,
    maxMessageChars: NUM,
    connectives: [LIST, TEXT],
    learnedThreshold: NUM,
    learnedNote: STR,
  },
  intents: {
    ids: STRINGS,
    permission: [SECTION, Uint8Array, IDS, [INDEX, PERMISSIONS.length, 0]],
    destructive: [SECTION, Uint8Array, IDS, [INDEX, 2, 0]],
    // the number of intents: no parent
    parent: [SECTION, Uint32Array, IDS, [INDEX, IDS, 1]],
    labels: STRINGS,
    category: LABEL,
    example: LABEL,
    records: [ROWS, IDS, undefined, Uint8Array],
  },
  exact: [OBJECT, EXACT_TABLE, sameKeysAndTargets],
  contextExact: [LIST, [OBJECT, { ...EXACT_TABLE, parent: INTENT }, sameKeysAndTargets]],
  inputs: { intent: [SECTION, Uint32Array, undefined, INTENT] },
  lexicon: { words: STRINGS, tags: [ROWS, WORDS, TAG] },
  matching: {
    stems: STRINGS,
    wordStem: [SECTION, Uint32Array, WORDS, STEM],
    weight: [SECTION, Float64Array, STEMS],
    postings: [ROWS, STEMS, INPUT],
    concepts: [ROWS, STEMS, [INDEX, "matching.conceptWeight", 0]],
    inputStems: [ROWS, INPUTS, STEM],
    inputWords: [ROWS, INPUTS, WORD],
    inputWeight: [SECTION, Float64Array, INPUTS],
    conceptWeight: [SECTION, Float64Array],
    unknownWeight: NUM,
    firstDescription: [INDEX, INPUTS, 1],
  },
  vocab: phrasesOf(VOCAB_PHRASES, { tags: TEXT, phraseTags: [SECTION, Uint32Array, VOCAB_PHRASES, TAG] }),
  fuzzy: [
    OBJECT,
    // a bucket's hashes out of place (not of its top bits) are not found: the lookup searches only its bucket
    { hashes: U32, words: [SECTION, Uint32Array, HASHES, WORD], buckets: [STARTS, undefined, HASHES, 0] },
    (f: Record<string, unknown>) => {
      const buckets = (f.buckets as Uint32Array).length - 1;
      if (buckets < 2 || (buckets & (buckets - 1)) !== 0) failAt("buckets", "not 2^k + 1 entries (k >= 1)");
    },
  ],
  learned: [OPTIONAL, LEARNED],
  // their programs are checked where they are read (bundle/template-store.ts, in the template chunk)
  types: [LIST, { name: STR, unusable: [OPTIONAL, STR], classes: [ROWS], ops: U32 }],
  automaton: { names: TEXT, edges: [ROWS], vocabTags: [ROWS, undefined, TAG] },
  // a phrase's value index is checked where the trie is built (runtime/bundle/model.ts)
  lists: [LIST, { name: STR, phrases: [LIST, [TUPLE, TEXT, NUM]], values: TEXT }],
  ranges: [LIST, { min: NUM, max: NUM, unit: STR }],
  numberWords: [LIST, [TUPLE, STR, NUM]],
  sanitizer: phrasesOf(PHRASES, { kinds: [SECTION, Uint8Array, PHRASES, [INDEX, SENTIMENT_KINDS.length, 0]], stopWords: TEXT, nameless: TEXT }),
  wordLists: { names: STRINGS, variants: [STARTS, LIST_NAMES, VARIANT_STARTS, -1], starts: [STARTS, undefined, SEGMENTS, 0], segments: STRINGS },
  messageTables: { actionWords: STRINGS },
};

/** Reads the lengths of the BOUNDS arrays, then walks the payload. */
function validate(payload: unknown): void {
  bounds = {};
  for (const path of BOUNDS) {
    let value: unknown = payload;
    for (const key of path.split(".")) {
      value = record(value)[key];
      at.push(key);
    }
    if (!Array.isArray(value) && !(value instanceof Float64Array) && !(value instanceof Uint32Array) && !(value instanceof StringTable)) fail("expected an array");
    bounds[path] = (value as ArrayLike<unknown>).length;
    at.length = 0;
  }
  check(PAYLOAD, payload);
}

/** Runs `walk` on `value` within a budget of `budget` values: the first problem, or null. */
function problemOf(budget: number, walk: (value: unknown) => void, value: unknown): string | null {
  at.length = 0;
  toolDepth = 0;
  budgetLeft = budget;
  try {
    walk(value);
    return null;
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    return `unreadable value (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The first shape problem of an intent's record (a bundle of `intents` intents), within `budget` values, or null. */
export const validateIntentRecord = (function validateIntentRecord(value: unknown, budget: number, intents: number): string | null {
  bounds = { [IDS]: intents };
  return problemOf(budget, (v) => check(RECORD, v), value);
});

/**
 * The first shape problem of `payload`, or null when it is a well-formed StoredPayload. The walk
 * visits at most `budget` values: the payload's byte count for a decoded plain msgpack value.
 */
export function validatePayload(payload: unknown, budget: number): string | null {
  return problemOf(budget, validate, payload);
}
