// Shape validation of a decoded bundle payload: a bundle with a valid hash can still have been
// written by a buggy or hostile tool, and the runtime indexes arrays with these numbers.
// Returns the first problem as "path: what is wrong", or null.
//
// The shape is a table (PAYLOAD below) built from small checks. An index is checked against the
// length of the array it points into (BOUNDS, read before the walk), and a list that runs in
// parallel with another must have its length. Tools are objects (a response's tool calls are),
// and the automaton's sections are rows (its edges are checked as they are read: automaton-store.ts).
// An intent's record is checked apart, when it is first read (validateIntentRecord, called by
// intent-records.ts): a load checks the intents' heads only.
//
// The walk has a budget: it may visit at most as many values as the caller allows (decodeBundle
// allows the payload's byte count, which bounds the values of a plain msgpack value). A tree that
// shares a child under many parents, or a cycle, runs out of budget instead of taking forever.

import { PERMISSIONS, QUOTE_CONTEXTS } from "./bundle-types.js";
import { StringTable } from "./string-table.js";

class ShapeError extends Error {}

/**
 * Where a value sits: a check gets its parent's path and its own key, and spells the path out
 * ("intents[3].tools[0]") only for an error message. A load validates hundreds of thousands of
 * values; building a path for each would cost more than the checks.
 */
type Path = string | { up: Path; key: string | number };

function join(up: Path, key?: string | number): Path {
  return key === undefined ? up : { up, key };
}

function show(path: Path): string {
  if (typeof path === "string") return path;
  const up = show(path.up);
  return typeof path.key === "number" ? `${up}[${path.key}]` : up ? `${up}.${path.key}` : path.key;
}

function fail(path: Path, what: string): never {
  throw new ShapeError(`${show(path)}: ${what}`);
}

/** Values the walk may still visit (set by validatePayload). */
let budgetLeft = 0;

/** Counts `count` values about to be visited under `path`. */
function spend(count: number, path: Path): void {
  budgetLeft -= count;
  if (budgetLeft < 0) fail(path, "more values than the payload's bytes can hold (shared or cyclic references)");
}

/** Checks `value`, found at `key` of `up`; throws ShapeError. */
type Check = (value: unknown, up: Path, key?: string | number) => void;

/** A check of one value; an index check also exposes its limit, so `passes` tests it inline. */
interface Leaf extends Check {
  ok(value: unknown): boolean;
  cell?: { limit: number };
}

/** Lengths of the arrays that indices point into, by path; filled before each walk. */
let bounds: Record<string, number> = {};
const BOUNDS = ["intents.ids", "types", "lists", "ranges", "vocab.tags", "lexicon.words", "matching.stems", "matching.conceptWeight", "inputs.intent"];

function leaf(ok: (value: unknown) => boolean, what: () => string): Leaf {
  return Object.assign((value: unknown, up: Path, key?: string | number) => void (ok(value) || fail(join(up, key), what())), { ok });
}

/** A plain object, as the decoder makes them (not an array, section or string table). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function record(value: unknown, path: Path): Record<string, unknown> {
  if (!isRecord(value)) fail(path, "expected an object");
  return value;
}

/** An array whose items the caller is about to visit (they are spent from the budget). */
function array(value: unknown, path: Path): unknown[] {
  if (!Array.isArray(value)) fail(path, "expected an array");
  spend(value.length, path);
  return value;
}

const indexBelow = (limit: number) => `expected an index below ${limit}`;

const isIndex = (value: unknown, length: number) => typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;

const STR = leaf((v) => typeof v === "string", () => "expected a string");
const NUM = leaf((v) => typeof v === "number" && Number.isFinite(v), () => "expected a finite number");
const BOOL = leaf((v) => typeof v === "boolean", () => "expected a boolean");
const U32 = leaf((v) => v instanceof Uint32Array, () => "expected a Uint32Array section");
const U16 = leaf((v) => v instanceof Uint16Array, () => "expected a Uint16Array section");

/** A string table (string-table.ts): its offsets and bytes checked by its own typed pass. */
const STRINGS: Check = (value, up, key) => {
  const path = join(up, key);
  if (!(value instanceof StringTable)) fail(path, "expected a string table");
  const problem = value.problem();
  if (problem !== null) fail(path, problem);
};

/** Limits of the index checks into BOUNDS arrays, set before each walk (read per element, so kept in a plain field). */
const indexCells: { bound: string; extra: number; limit: number }[] = [];

/** An index into the array at path `bound` (its length + `extra` is the limit), or below a fixed number. */
function index(bound: string | number, extra = 0): Leaf {
  const cell = { bound: String(bound), extra, limit: Number(bound) };
  if (typeof bound === "string") indexCells.push(cell);
  return Object.assign(
    leaf((v) => isIndex(v, cell.limit), () => indexBelow(cell.limit)),
    { cell },
  );
}

/**
 * A section (sections.ts) of `kind`, as long as the array at `sameAs` if given. Its values are
 * checked in one typed loop, no closure per value: below the limit of `item` when it is an index
 * check, finite for a float section; an integer section's values need no other check.
 */
function section(kind: typeof Uint8Array | typeof Uint32Array | typeof Float64Array, sameAs: string | undefined, item?: Leaf): Check {
  return (value, up, key) => {
    const path = join(up, key);
    if (!(value instanceof kind)) fail(path, `expected a ${kind.name} section`);
    if (sameAs !== undefined && value.length !== bounds[sameAs]) fail(path, `length differs from ${sameAs}`);
    const limit = item?.cell?.limit;
    if (limit !== undefined) {
      for (let i = 0; i < value.length; i++) if (value[i]! >= limit) item!(value[i], path, i);
    } else if (kind === Float64Array) {
      for (let i = 0; i < value.length; i++) if (!Number.isFinite(value[i])) NUM(value[i], path, i);
    }
  };
}

/**
 * BundleRows: `starts` one per row of the array at `rowsOf` (when given) and one more, ascending
 * from 0 to the number of items, and each item an index below the limit of `item` (when given).
 */
function rows(rowsOf: string | undefined, item: Leaf | undefined, kind: typeof Uint8Array | typeof Uint32Array = Uint32Array): Check {
  return object({ starts: section(Uint32Array, undefined), items: section(kind, undefined, item) }, (o, path) => {
    const starts = o.starts as Uint32Array;
    const items = (o.items as Uint32Array | Uint8Array).length;
    if (rowsOf !== undefined && starts.length !== bounds[rowsOf]! + 1) fail(join(path, "starts"), `not one per ${rowsOf} and one more`);
    if (starts[0] !== 0 || starts[starts.length - 1] !== items) fail(join(path, "starts"), "not from 0 to the number of items");
    for (let i = 1; i < starts.length; i++) if (starts[i - 1]! > starts[i]!) fail(join(path, "starts"), `not ascending at ${i}`);
  });
}

function nullable(check: Check): Check {
  return (value, up, key) => value === null || check(value, up, key);
}

/** A list of `item`s; with `sameAs`, as long as the array at that path. */
function list(item: Check, sameAs?: string): Check {
  return (value: unknown, up: Path, key?: string | number) => {
    const path = join(up, key);
    const items = array(value, path);
    if (sameAs !== undefined && items.length !== bounds[sameAs]) fail(path, `length differs from ${sameAs}`);
    for (let i = 0; i < items.length; i++) if (!passes(item, items[i])) item(items[i], path, i);
  };
}

/**
 * Whether `value` passes `check` for sure, tested inline for strings and indices (most of what is
 * walked); false: run `check` itself, which says what is wrong.
 */
function passes(check: Check, value: unknown): boolean | undefined {
  const { ok, cell } = check as Partial<Leaf>;
  if (cell) return isIndex(value, cell.limit);
  if (check === STR) return typeof value === "string";
  return ok?.(value);
}

function tuple(...items: Check[]): Check {
  return (value, up, key) => {
    const path = join(up, key);
    const entries = array(value, path);
    if (entries.length !== items.length) fail(path, `expected ${items.length} entries`);
    items.forEach((item, i) => item(entries[i], path, i));
  };
}

function object(fields: Record<string, Check>, then?: (o: Record<string, unknown>, path: Path) => void): Check {
  const count = Object.keys(fields).length;
  return (value, up, key) => {
    const path = join(up, key);
    const o = record(value, path || "payload");
    spend(count, path);
    for (const name in fields) {
      const check = fields[name]!;
      if (!passes(check, o[name])) check(o[name], path, name);
    }
    then?.(o, path);
  };
}

const TEXT = list(STR);
const VARIANTS = list(TEXT);
const INTENT = index("intents.ids");
const TAG = index("vocab.tags");

const QUOTE_CONTEXT = leaf((v) => (QUOTE_CONTEXTS as readonly unknown[]).includes(v), () => "expected a quote context");
/** A shell template: segments alternate text and tags, one place per tag. */
const SHELL = object(
  { segments: TEXT, places: list(object({ context: QUOTE_CONTEXT, inBackticks: BOOL })), unsafe: nullable(object({ tag: STR, reason: STR })) },
  (o, path) => {
    if ((o.segments as unknown[]).length !== 2 * (o.places as unknown[]).length + 1) fail(path, "segments and places do not fit");
  },
);

/** Nesting of arrays and objects in a tool beyond which a bundle is refused. */
const MAX_TOOL_DEPTH = 64;

const toolTree = (depth: number): Check => (value, up, key) => {
  const path = join(up, key);
  if (depth > MAX_TOOL_DEPTH) fail(path, "tool nesting too deep");
  if (Array.isArray(value)) return TEXT(value, path);
  const o = record(value, path);
  spend(1, path);
  if (Object.hasOwn(o, "a")) list(toolTree(depth + 1))(o.a, path, "a");
  else if (Object.hasOwn(o, "o")) toolObject(depth)(o, up, key);
  else if (Object.hasOwn(o, "sh")) SHELL(o.sh, path, "sh");
  else if (Object.hasOwn(o, "j")) toolTree(depth + 1)(o.j, path, "j");
  else if (Object.hasOwn(o, "v")) {
    if (o.v !== null && typeof o.v !== "number" && typeof o.v !== "boolean") fail(join(path, "v"), "expected a scalar");
  } else fail(path, "unknown tool value");
};

/** An object of a tool tree: its entries, [key, value]. */
const toolObject = (depth: number): Check => (value, up, key) => {
  const path = join(up, key);
  if (!isRecord(value) || !Object.hasOwn(value, "o")) fail(path, "expected a tool object ({o: [[key, value], …]}): a tool call is an object (name, arguments, …)");
  list(tuple(STR, toolTree(depth + 1)))(value.o, path, "o");
};

const EXACT_TABLE = { keys: STRINGS, targets: section(Uint32Array, undefined, INTENT) };
const sameKeysAndTargets = (t: Record<string, unknown>, path: Path) => {
  if ((t.keys as StringTable).length !== (t.targets as Uint32Array).length) fail(path, "keys and targets differ in length");
};

/** A type's Pike VM program: operands of each opcode [op, a, b] index classes or instructions. */
function typeProgram(t: Record<string, unknown>, path: Path): void {
  const classes = (t.classes as unknown[]).length;
  const ops = array(t.ops, join(path, "ops"));
  if (ops.length % 3 !== 0) fail(join(path, "ops"), "expected opcode triples");
  const n = ops.length / 3;
  // Operand limits per opcode: CHAR [class, next], SPLIT [x, y], JMP, BOL, EOL, ANY [next], MATCH none.
  const operands = [[classes, n], [n, n], [n], [], [n], [n], [n]];
  // Checked in place, no check built per operand: TERMy's types hold thousands of instructions.
  for (let k = 0; k < ops.length; k += 3) {
    const op = ops[k];
    const limits = typeof op === "number" && Number.isInteger(op) ? operands[op] : undefined;
    if (!limits) fail(join(join(path, "ops"), k), "unknown opcode");
    for (let i = 0; i < limits.length; i++) {
      if (!isIndex(ops[k + 1 + i], limits[i]!)) fail(join(join(path, "ops"), k), indexBelow(limits[i]!));
    }
  }
}

const BYTES = leaf((v) => v instanceof Uint8Array, () => "expected bytes");
// How the arrays fit together is checked with the learned stage's chunk (validate-learned.ts), and
// the concept table's structure where it is read (ConceptTable, in that chunk too).
const LEARNED = { intents: list(INTENT), hashes: U32, idf: BYTES, offsets: U32, classes: U16, weights: BYTES, scale: list(NUM), bias: list(NUM), conceptKeys: U32, conceptOffsets: U32, conceptFeatures: U32 };

/** Intent indices inside a record: the limit is its bundle's intent count, set for each record (validateIntentRecord). */
const RECORD_INTENT = index(0);

/** An intent's record (IntentRecord), checked when it is first read (intent-records.ts). */
const RECORD = object({
  category: nullable(STR),
  outputs: VARIANTS,
  thinking: VARIANTS,
  description: nullable(TEXT),
  tools: list(toolObject(0)),
  context: nullable(list(RECORD_INTENT)),
  extra: list(tuple(STR, VARIANTS)),
  example: nullable(STR),
  slots: list(tuple(STR, STR)),
});

const PAYLOAD = object({
  name: STR,
  compilerVersion: STR,
  sourceHash: STR,
  counts: (value, up, key) => {
    const path = join(up, key);
    const entries = Object.entries(record(value, path));
    spend(entries.length, path);
    entries.forEach(([name, n]) => NUM(n, path, name));
  },
  config: object({
    npcName: STR,
    creator: nullable(STR),
    sentenceThreshold: NUM,
    wordThreshold: NUM,
    margin: NUM,
    synonymContribution: NUM,
    suggestions: NUM,
    maxMessageChars: NUM,
    connectives: list(TEXT),
    learnedThreshold: NUM,
    learnedNote: STR,
  }),
  intents: object({
    ids: TEXT,
    permission: section(Uint8Array, "intents.ids", index(PERMISSIONS.length)),
    destructive: section(Uint8Array, "intents.ids", index(2)),
    // the number of intents: no parent
    parent: section(Uint32Array, "intents.ids", index("intents.ids", 1)),
    records: rows("intents.ids", undefined, Uint8Array),
  }),
  exact: object(EXACT_TABLE, sameKeysAndTargets),
  contextExact: list(object({ ...EXACT_TABLE, parent: INTENT }, sameKeysAndTargets)),
  inputs: object({ intent: section(Uint32Array, undefined, INTENT) }),
  lexicon: object({ words: STRINGS, tags: rows("lexicon.words", TAG) }),
  matching: object({
    stems: STRINGS,
    wordStem: section(Uint32Array, "lexicon.words", index("matching.stems")),
    weight: section(Float64Array, "matching.stems"),
    postings: rows("matching.stems", index("inputs.intent")),
    concepts: rows("matching.stems", index("matching.conceptWeight")),
    inputStems: rows("inputs.intent", index("matching.stems")),
    inputWords: rows("inputs.intent", index("lexicon.words")),
    inputWeight: section(Float64Array, "inputs.intent"),
    conceptWeight: section(Float64Array, undefined),
    unknownWeight: NUM,
    firstDescription: index("inputs.intent", 1),
  }),
  vocab: object({ tags: TEXT, phrases: list(tuple(TAG, TEXT)) }),
  fuzzy: object({ hashes: section(Uint32Array, undefined), words: section(Uint32Array, undefined, index("lexicon.words")) }, (f) => {
    if ((f.hashes as Uint32Array).length !== (f.words as Uint32Array).length) fail("fuzzy", "hashes and words differ in length");
  }),
  learned: nullable(object(LEARNED)),
  types: list(object({ name: STR, unusable: nullable(STR), classes: list(list(NUM)), ops: leaf(Array.isArray, () => "expected an array") }, typeProgram)),
  automaton: object({ names: TEXT, edges: rows(undefined, undefined), vocabTags: rows(undefined, TAG) }),
  // a phrase's value index is checked where the trie is built (runtime/bundle/model.ts)
  lists: list(object({ name: STR, phrases: list(tuple(TEXT, NUM)), values: TEXT })),
  ranges: list(object({ min: NUM, max: NUM, unit: STR })),
  numberWords: list(tuple(STR, NUM)),
  sanitizer: object({ phrases: list(tuple(TEXT, index(5))), stopWords: TEXT, nameless: TEXT }),
  wordLists: list(tuple(STR, VARIANTS)),
  messageTables: object({ actionWords: STRINGS, intentInputs: rows("intents.ids", index("inputs.intent")) }),
});

function validate(payload: unknown): void {
  bounds = {};
  for (const path of BOUNDS) {
    let value: unknown = payload;
    let at = "";
    for (const key of path.split(".")) {
      value = record(value, at || "payload")[key];
      at = at ? `${at}.${key}` : key;
    }
    if (!Array.isArray(value) && !(value instanceof Float64Array) && !(value instanceof Uint32Array) && !(value instanceof StringTable)) fail(at, "expected an array");
    bounds[path] = (value as ArrayLike<unknown>).length;
  }
  for (const cell of indexCells) cell.limit = bounds[cell.bound]! + cell.extra;
  PAYLOAD(payload, "");
}

/** Runs `check` within a budget of `budget` values: the first problem, or null. */
function problemOf(budget: number, check: () => void): string | null {
  try {
    budgetLeft = budget;
    check();
    return null;
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    return `unreadable value (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The first shape problem of an intent's record (a bundle of `intents` intents), within `budget` values, or null. */
export function validateIntentRecord(record: unknown, budget: number, intents: number): string | null {
  RECORD_INTENT.cell!.limit = intents;
  return problemOf(budget, () => RECORD(record, ""));
}

/**
 * The first shape problem of `payload`, or null when it is a well-formed StoredPayload. The walk
 * visits at most `budget` values: the payload's byte count for a decoded plain msgpack value.
 */
export function validatePayload(payload: unknown, budget: number): string | null {
  return problemOf(budget, () => validate(payload));
}
