// Shape validation of a decoded bundle payload: a bundle with a valid hash can still have been
// written by a buggy or hostile tool, and the runtime indexes arrays with these numbers.
// Returns the first problem as "path: what is wrong", or null.
//
// The shape is a table (PAYLOAD below) built from small checks. An index is checked against the
// length of the array it points into (BOUNDS, read before the walk), and a list that runs in
// parallel with another must have its length. Tools are objects (a response's tool calls are),
// and the automaton is a forest whose edges all point to later states (automatonIsForest).
//
// The walk has a budget: it may visit at most as many values as the caller allows (decodeBundle
// allows the payload's byte count, which bounds the values of a plain msgpack value). A tree that
// shares a child under many parents, or a cycle, runs out of budget instead of taking forever.

import { QUOTE_CONTEXTS, type BundleState } from "./bundle-types.js";

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

/** A check of one value; an index check also exposes its limit, so lists of indices test it inline. */
interface Leaf extends Check {
  ok(value: unknown): boolean;
  cell?: { limit: number };
}

/** Lengths of the arrays that indices point into, by path; filled before each walk. */
let bounds: Record<string, number> = {};
const BOUNDS = ["intents", "automaton", "types", "lists", "ranges", "vocab.tags", "lexicon.words", "matching.stems", "matching.conceptWeight", "inputs.intent"];

function leaf(ok: (value: unknown) => boolean, what: () => string): Leaf {
  return Object.assign((value: unknown, up: Path, key?: string | number) => void (ok(value) || fail(join(up, key), what())), { ok });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
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

const isIndex = (value: unknown, length: number) => typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;

const STR = leaf((v) => typeof v === "string", () => "expected a string");
const NUM = leaf((v) => typeof v === "number" && Number.isFinite(v), () => "expected a finite number");
const BOOL = leaf((v) => typeof v === "boolean", () => "expected a boolean");
const U32 = leaf((v) => v instanceof Uint32Array, () => "expected a Uint32Array section");
const U16 = leaf((v) => v instanceof Uint16Array, () => "expected a Uint16Array section");
const PERMISSION = leaf((v) => v === "ask" || v === "yolo" || v === "auto", () => "expected ask, yolo or auto");

/** Limits of the index checks into BOUNDS arrays, set before each walk (read per element, so kept in a plain field). */
const indexCells: { bound: string; extra: number; limit: number }[] = [];

/** An index into the array at path `bound` (its length + `extra` is the limit), or below a fixed number. */
function index(bound: string | number, extra = 0): Leaf {
  const cell = { bound: String(bound), extra, limit: Number(bound) };
  if (typeof bound === "string") indexCells.push(cell);
  return Object.assign(
    leaf((v) => isIndex(v, cell.limit), () => `expected an index below ${cell.limit}`),
    { cell },
  );
}

/**
 * A section (sections.ts) of `kind`, as long as the array at `sameAs` if given. Its values are
 * checked in one typed loop, no closure per value: below the limit of `item` when it is an index
 * check, finite for a float section; an integer section's values need no other check.
 */
function section(kind: typeof Uint32Array | typeof Float64Array, sameAs: string | undefined, item?: Leaf): Check {
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
 * BundleRows: `starts` one per row of the array at `rowsOf` and one more, ascending from 0 to the
 * number of items, and each item an index below the limit of `item`.
 */
function rows(rowsOf: string, item: Leaf): Check {
  return object({ starts: section(Uint32Array, undefined), items: section(Uint32Array, undefined, item) }, (o, path) => {
    const starts = o.starts as Uint32Array;
    const items = (o.items as Uint32Array).length;
    if (starts.length !== bounds[rowsOf]! + 1) fail(join(path, "starts"), `not one per ${rowsOf} and one more`);
    if (starts[0] !== 0 || starts[starts.length - 1] !== items) fail(join(path, "starts"), "not from 0 to the number of items");
    for (let i = 1; i < starts.length; i++) if (starts[i - 1]! > starts[i]!) fail(join(path, "starts"), `not ascending at ${i}`);
  });
}

function nullable(check: Check): Check {
  return (value, up, key) => value === null || check(value, up, key);
}

/** What `list` exposes of a list of indices, so `passes` can test one inline. */
interface IndexList {
  indices: { limit: number };
  sameAs: string | undefined;
}

/** Whether `value` is an array of indices below `limit`, of the length of the array at `sameAs` if given, within the budget (which it spends). */
function isIndexList(value: unknown, { indices, sameAs }: IndexList): boolean {
  if (!Array.isArray(value) || value.length > budgetLeft) return false;
  if (sameAs !== undefined && value.length !== bounds[sameAs]) return false;
  for (let i = 0; i < value.length; i++) if (!isIndex(value[i], indices.limit)) return false;
  budgetLeft -= value.length;
  return true;
}

/** A list of `item`s; with `sameAs`, as long as the array at that path. */
function list(item: Check, sameAs?: string): Check {
  const check = (value: unknown, up: Path, key?: string | number) => {
    const path = join(up, key);
    const items = array(value, path);
    if (sameAs !== undefined && items.length !== bounds[sameAs]) fail(path, `length differs from ${sameAs}`);
    for (let i = 0; i < items.length; i++) if (!passes(item, items[i])) item(items[i], path, i);
  };
  const cell = (item as Partial<Leaf>).cell;
  return cell ? Object.assign(check, { indices: cell, sameAs }) : check;
}

/**
 * Whether `value` passes `check` for sure, tested inline for strings, indices and lists of indices
 * (most of a payload); false: run `check` itself, which says what is wrong.
 */
function passes(check: Check, value: unknown): boolean | undefined {
  const { ok, cell } = check as Partial<Leaf>;
  if (cell) return isIndex(value, cell.limit);
  if (check === STR) return typeof value === "string";
  if ("indices" in check) return isIndexList(value, check as Check & IndexList);
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
const INTENT = index("intents");
const STATE = index("automaton");
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

const EXACT_TABLE = { keys: TEXT, targets: section(Uint32Array, undefined, INTENT) };
const sameKeysAndTargets = (t: Record<string, unknown>, path: Path) => {
  if ((t.keys as unknown[]).length !== (t.targets as Uint32Array).length) fail(path, "keys and targets differ in length");
};

/** A type's Pike VM program: operands of each opcode [op, a, b] index classes or instructions. */
function typeProgram(t: Record<string, unknown>, path: Path): void {
  const classes = (t.classes as unknown[]).length;
  const ops = array(t.ops, join(path, "ops"));
  if (ops.length % 3 !== 0) fail(join(path, "ops"), "expected opcode triples");
  const n = ops.length / 3;
  // Operand limits per opcode: CHAR [class, next], SPLIT [x, y], JMP, BOL, EOL, ANY [next], MATCH none.
  const operands = [[classes, n], [n, n], [n], [], [n], [n], [n]];
  for (let k = 0; k < ops.length; k += 3) {
    const op = ops[k];
    const limits = typeof op === "number" && Number.isInteger(op) ? operands[op] : undefined;
    const where = join(join(path, "ops"), k);
    if (!limits) fail(where, "unknown opcode");
    limits.forEach((limit, i) => index(limit)(ops[k + 1 + i], where));
  }
}

const BYTES = leaf((v) => v instanceof Uint8Array, () => "expected bytes");
// The concept table's structure is checked where it is read (ConceptTable, in the learned stage's chunk).
const LEARNED = { intents: list(INTENT), hashes: U32, idf: BYTES, offsets: U32, classes: U16, weights: BYTES, scale: list(NUM), bias: list(NUM), conceptKeys: U32, conceptOffsets: U32, conceptFeatures: U32 };

/** The learned model's arrays fit together: one IDF per feature, hashes ascending, offsets ascending to the weights' end, classes in range. */
function learnedSection(o: Record<string, unknown>, path: Path): void {
  const hashes = o.hashes as Uint32Array;
  const offsets = o.offsets as Uint32Array;
  const classes = o.classes as Uint16Array;
  const weights = (o.weights as Uint8Array).length;
  const features = hashes.length;
  const classCount = (o.bias as unknown[]).length;
  const check = (ok: boolean, key: string, problem: string) => ok || fail(join(path, key), problem);
  check((o.scale as unknown[]).length === classCount, "scale", "not one per class");
  check((o.intents as unknown[]).length === classCount - 1, "intents", "not one per class but the last");
  check((o.idf as Uint8Array).length === features, "idf", "not one per feature");
  for (let i = 1; i < features; i++) if (hashes[i - 1]! >= hashes[i]!) fail(join(path, "hashes"), `not ascending at ${i}`);
  check(offsets.length === features + 1, "offsets", "not one per feature, and one more");
  check(classes.length === weights, "classes", "not one u16 per weight");
  check(offsets[0] === 0 && offsets[features] === weights, "offsets", "not from 0 to the number of weights");
  for (let i = 1; i <= features; i++) if (offsets[i - 1]! > offsets[i]!) fail(join(path, "offsets"), `not ascending at ${i}`);
  for (let p = 0; p < weights; p++) if (classes[p]! >= classCount) fail(join(path, "classes"), `weight ${p}'s class is not below ${classCount}`);
}

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
  intents: list(
    object({
      id: STR,
      category: nullable(STR),
      outputs: VARIANTS,
      thinking: VARIANTS,
      description: nullable(TEXT),
      tools: list(toolObject(0)),
      permission: PERMISSION,
      destructive: BOOL,
      parent: nullable(INTENT),
      context: nullable(list(INTENT)),
      extra: list(tuple(STR, VARIANTS)),
      example: nullable(STR),
      slots: list(tuple(STR, STR)),
    }),
  ),
  exact: object(EXACT_TABLE, sameKeysAndTargets),
  contextExact: list(object({ ...EXACT_TABLE, parent: INTENT }, sameKeysAndTargets)),
  inputs: object({ intent: section(Uint32Array, undefined, INTENT) }),
  lexicon: object({ words: TEXT, tags: rows("lexicon.words", TAG) }),
  matching: object({
    stems: TEXT,
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
  learned: nullable(object(LEARNED, learnedSection)),
  types: list(object({ name: STR, unusable: nullable(STR), classes: list(list(NUM)), ops: leaf(Array.isArray, () => "expected an array") }, typeProgram)),
  automaton: list(
    object({
      vocab: list(tuple(list(TAG), STATE)),
      typed: list(tuple(index("types"), STR, STATE)),
      strings: list(tuple(STR, STATE)),
      lists: list(tuple(index("lists"), STR, STATE)),
      ranges: list(tuple(index("ranges"), STR, STATE)),
      skip: list(STATE),
      accept: list(tuple(INTENT, NUM)),
    }),
  ),
  // a phrase's value index is checked where the trie is built (runtime/bundle/model.ts)
  lists: list(object({ name: STR, phrases: list(tuple(TEXT, NUM)), values: TEXT })),
  ranges: list(object({ min: NUM, max: NUM, unit: STR })),
  numberWords: list(tuple(STR, NUM)),
  sanitizer: object({ phrases: list(tuple(TEXT, index(5))), stopWords: TEXT, nameless: TEXT }),
  wordLists: list(tuple(STR, VARIANTS)),
  messageTables: object({ actionWords: TEXT, intentInputs: rows("intents", index("inputs.intent")) }),
});

/**
 * The automaton is a forest, as compute-automaton.ts builds it (a trie): every edge points to a
 * later state, and a state has one way in (one consuming edge, a skip edge beside it from the same
 * state, or a skip edge alone). The matcher follows skips in one ascending pass, which needs
 * forward edges; the explain trace enumerates paths, which only a forest keeps finite and linear.
 */
function automatonIsForest(automaton: readonly BundleState[]): void {
  const consumedFrom = new Int32Array(automaton.length).fill(-1);
  const skippedFrom = new Int32Array(automaton.length).fill(-1);
  const enter = (from: number, child: number, kind: "vocab" | "typed" | "strings" | "lists" | "ranges" | "skip", j: number) => {
    const where = () => `automaton[${from}].${kind}[${j}]`;
    if (child <= from) fail(where(), `${kind} edges must point to a later state (the automaton is a forest)`);
    const [same, other] = kind === "skip" ? [skippedFrom, consumedFrom] : [consumedFrom, skippedFrom];
    const earlier = same[child] !== -1 ? same[child]! : other[child] !== -1 && other[child] !== from ? other[child]! : -1;
    if (earlier !== -1) fail(where(), `state ${child} already has a way in, from state ${earlier} (the automaton is a forest)`);
    same[child] = from;
  };
  automaton.forEach((state, i) => {
    state.vocab.forEach(([, child], j) => enter(i, child, "vocab", j));
    state.typed.forEach(([, , child], j) => enter(i, child, "typed", j));
    state.strings.forEach(([, child], j) => enter(i, child, "strings", j));
    state.lists.forEach(([, , child], j) => enter(i, child, "lists", j));
    state.ranges.forEach(([, , child], j) => enter(i, child, "ranges", j));
    state.skip.forEach((child, j) => enter(i, child, "skip", j));
  });
}

function validate(payload: unknown): void {
  bounds = {};
  for (const path of BOUNDS) {
    let value: unknown = payload;
    let at = "";
    for (const key of path.split(".")) {
      value = record(value, at || "payload")[key];
      at = at ? `${at}.${key}` : key;
    }
    if (!Array.isArray(value) && !(value instanceof Float64Array) && !(value instanceof Uint32Array)) fail(at, "expected an array");
    bounds[path] = (value as ArrayLike<unknown>).length;
  }
  for (const cell of indexCells) cell.limit = bounds[cell.bound]! + cell.extra;
  PAYLOAD(payload, "");
  const automaton = (payload as { automaton: BundleState[] }).automaton;
  if (automaton.length === 0) fail("automaton", "needs at least the start state");
  automatonIsForest(automaton);
}

/**
 * The first shape problem of `payload`, or null when it is a well-formed BundlePayload. The walk
 * visits at most `budget` values: the payload's byte count for a decoded plain msgpack value.
 */
export function validatePayload(payload: unknown, budget: number): string | null {
  try {
    budgetLeft = budget;
    validate(payload);
    return null;
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    return `unreadable value (${error instanceof Error ? error.message : String(error)})`;
  }
}
