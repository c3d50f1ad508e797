// Hostile bundles, as an attacker writes them: a real bundle's payload (datasets/example) mutated
// (shared references, deep nesting, wrong types, out-of-range indices, huge, emptied and truncated
// arrays, swapped sections, removed keys, extra automaton edges, flipped msgpack bytes) and framed
// with a valid SHA-256, so that only the validator stands between the payload and the runtime.
// test/runtime/hostile-bundles.test.ts asserts that each is refused with InvalidBundleError or
// answers every message of HOSTILE_MESSAGES; bench/hostile-bundles.ts times those that load.

import { join } from "node:path";
import fc from "fast-check";
import { Packr } from "msgpackr";
import { compileNpc } from "../compiler/compile.js";
import { lintSources } from "../compiler/lint.js";
import { RECORD_FIELDS, type BundleIntent, type BundlePayload, type BundleState, type BundleTypeProgram, type ToolTree } from "../runtime/bundle/bundle-types.js";
import { EDGE_KINDS } from "../runtime/bundle/automaton-store.js";
import type { NpcResponse } from "../runtime/response.js";
import { SECTION_EXT, SECTION_REF_BYTES } from "../runtime/bundle/sections.js";
import { frameBundle, packPayload, storedAutomaton, storedIntents, storedType, type PackedPayload } from "../runtime/bundle/encode.js";
import { stringsOf } from "../runtime/bundle/string-table.js";

/** The fuzz suite's seed; the bench times the same bundles. */
export const HOSTILE_SEED = 1313;

/** The payload of datasets/example compiled now (as plain decoded values). */
export function examplePayload(repoRoot: string): BundlePayload {
  const lint = lintSources([join(repoRoot, "datasets", "example")]);
  const errors = lint.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`datasets/example has lint errors: ${errors.map((e) => e.message).join("; ")}`);
  return compileNpc(lint.ir).payload;
}

/** msgpackr with its structured-clone extensions on: a value met twice is written once, then pointed to (0x69/0x70). */
const sharingPackr = new Packr({ structuredClone: true, useRecords: false, mapsAsObjects: true });

/**
 * What is written with msgpackr's shared references (else as copies): nothing, only the intents'
 * records (read after the load), or the whole payload.
 */
export type Sharing = "none" | "records" | "all";

/** Bundle bytes of `payload`, its shared values written as references where `sharing` says. */
export function hostileBundle(payload: unknown, sharing: Sharing = "none"): Uint8Array {
  return frameBundle(packed(payload, sharing));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An automaton the writer can store: states of edge lists, vocab edges with a list of tags (whatever their numbers and names). */
const storableAutomaton = (automaton: unknown): automaton is BundleState[] =>
  Array.isArray(automaton) &&
  automaton.every(
    (state) =>
      isObject(state) &&
      EDGE_KINDS.every((kind) => Array.isArray(state[kind]) && (kind === "skip" || kind === "returns" || (state[kind] as unknown[]).every(Array.isArray))) &&
      (state.vocab as unknown[][]).every((edge) => Array.isArray(edge[0])),
  );

/** A type program the writer can store: lists of classes and opcodes (whatever their numbers). */
const storableType = (type: unknown): type is BundleTypeProgram => isObject(type) && Array.isArray(type.classes) && type.classes.every(Array.isArray) && Array.isArray(type.ops);

/**
 * The payload packed by the bundle writer, its intents (when still a list of objects), its
 * automaton and its types (when storable) stored as the writer stores them; the records, or everything, packed by
 * msgpackr with references as `sharing` says (typed arrays packed by msgpackr become its extensions).
 */
function packed(payload: unknown, sharing: Sharing): PackedPayload {
  const withReferences = (value: unknown): PackedPayload => ({ msgpack: new Uint8Array(sharingPackr.pack(value)), sections: new Uint8Array(0) });
  const pack = sharing === "all" ? withReferences : packPayload;
  const packRecord = sharing === "none" ? packPayload : withReferences;
  if (!isObject(payload)) return pack(payload);
  const { intents, automaton, types } = payload;
  const stored = { ...payload };
  if (Array.isArray(intents) && intents.every(isObject)) stored.intents = storedIntents(intents as unknown as BundleIntent[], (record) => packRecord(record).msgpack);
  if (storableAutomaton(automaton)) stored.automaton = storedAutomaton(automaton);
  if (Array.isArray(types) && types.every(storableType)) stored.types = types.map(storedType);
  return pack(stored);
}

/** A tool tree `depth` levels deep whose every level holds its child twice: 2^depth leaves in a few bytes once shared. */
export function sharedToolTree(depth: number): ToolTree {
  let tree: ToolTree = { v: 1 };
  for (let i = 0; i < depth; i++) tree = { a: [tree, tree] };
  return { o: [["name", ["run_in_terminal"]], ["arguments", tree]] };
}

/** `payload` with `replace` applied to the value at `path` (the containers on the way copied, the rest shared). */
function updateAt(value: unknown, path: readonly (string | number)[], replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [step, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = value.slice();
    copy[step as number] = updateAt(copy[step as number], rest, replace);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  copy[step as string] = updateAt(copy[step as string], rest, replace);
  return copy;
}

/** The path picked by `picks` from `root`: each number chooses an index or a key, until a leaf. */
function pathOf(root: unknown, picks: readonly number[]): (string | number)[] {
  const path: (string | number)[] = [];
  let value = root;
  for (const pick of picks) {
    if (Array.isArray(value) && value.length > 0) {
      path.push(pick % value.length);
      value = value[pick % value.length];
    } else if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
      const keys = Object.keys(value);
      if (keys.length === 0) break;
      const key = keys[pick % keys.length]!;
      path.push(key);
      value = (value as Record<string, unknown>)[key];
    } else break;
  }
  return path;
}

function nested(depth: number, wrap: (inner: unknown) => unknown, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

/** A cycle: an array that holds itself (written with references, it decodes as one). */
function cycle(): unknown {
  const self: unknown[] = [];
  self.push(self, 1);
  return self;
}

const WRONG_VALUES: readonly unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 40), 1e300, "", "x", [], {}, [[]], [null], { v: null }, { o: [] }, { a: 1 }, { sh: {} }, [0, 0, 0], new Uint8Array(3)];

type Edit = (value: unknown, n: number) => unknown;

/** What a mutation does to the value it lands on (n: a free number to pick details with). */
const EDITS: Record<string, Edit> = {
  wrongType: (_, n) => WRONG_VALUES[n % WRONG_VALUES.length],
  offByOne: (v, n) => (typeof v === "number" ? v + [1, -1, 2, 1000, 2 ** 32][n % 5]! : v),
  truncate: (v, n) => (Array.isArray(v) ? v.slice(0, n % Math.max(1, v.length)) : typeof v === "string" ? v.slice(0, n % Math.max(1, v.length)) : v),
  empty: (v) => (Array.isArray(v) ? [] : typeof v === "string" ? "" : v),
  grow: (v, n) => (Array.isArray(v) && v.length > 0 ? Array.from({ length: [2, 50, 2000][n % 3]! }, (_, i) => v[i % v.length]) : v),
  huge: (_, n) => new Array<unknown>(20_000).fill([0, "a", 2 ** 31, 7][n % 4]),
  dropItem: (v, n) => (Array.isArray(v) && v.length > 0 ? v.filter((_, i) => i !== n % v.length) : v),
  dropKey: (v, n) => {
    if (v === null || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array) return v;
    const keys = Object.keys(v);
    const copy = { ...(v as Record<string, unknown>) };
    if (keys.length > 0) delete copy[keys[n % keys.length]!];
    return copy;
  },
  swapItems: (v, n) => {
    if (!Array.isArray(v) || v.length < 2) return v;
    const copy = v.slice();
    const [i, j] = [n % v.length, (n >> 4) % v.length];
    [copy[i], copy[j]] = [copy[j], copy[i]];
    return copy;
  },
  deepArrays: (_, n) => nested([10, 70, 300][n % 3]!, (inner) => [inner], 0),
  deepTools: (_, n) => nested([20, 63, 66, 200][n % 4]!, (inner) => ({ a: [inner] }), { v: 1 }),
  deepObjects: (_, n) => nested([20, 66][n % 2]!, (inner) => ({ o: [["k", inner]] }), ["x"]),
};

/** Edits that need structured-clone references to be written as an attacker means them. */
const SHARING_EDITS: Record<string, Edit> = {
  sharedTree: (_, n) => sharedToolTree([3, 22, 60][n % 3]!),
  sharedList: (v) => (Array.isArray(v) && v.length > 0 ? Array.from({ length: 64 }, () => v) : v),
  cycle: () => cycle(),
};

export type Mutation =
  | { kind: "edit"; edit: string; picks: number[]; n: number }
  | { kind: "share"; edit: string; picks: number[]; n: number }
  | { kind: "swapSections"; a: number; b: number }
  | { kind: "edge"; from: number; to: number; edgeKind: number }
  | { kind: "bytes"; at: number; value: number; insert: boolean }
  /** field 0: the kind, 1: the offset, 2: the length of a section reference. */
  | { kind: "sectionRef"; which: number; field: number; value: number };

/** One hostile bundle: a few mutations of the base payload. */
export const mutationsArbitrary: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("edit" as const), edit: fc.constantFrom(...Object.keys(EDITS)), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 7 }), n: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("share" as const), edit: fc.constantFrom(...Object.keys(SHARING_EDITS)), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), n: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("swapSections" as const), a: fc.nat(), b: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("edge" as const), from: fc.nat(), to: fc.nat(), edgeKind: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("bytes" as const), at: fc.nat(), value: fc.integer({ min: 1, max: 255 }), insert: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("sectionRef" as const), which: fc.nat(), field: fc.integer({ min: 0, max: 2 }), value: fc.nat() }) },
  ),
  { minLength: 1, maxLength: 3 },
);

/**
 * An automaton edge from state `from` to state `to` (a self loop when equal, a back edge when
 * earlier): a vocab, typed, string or skip edge, a rule end (of a rule starting at `to`), or a call
 * returning to `to` of a rule appended for it (its start skips to its end: valid when `to` comes
 * after `from` in the same region).
 */
function addEdge(payload: unknown, from: number, to: number, edgeKind: number): unknown {
  const states = (payload as { automaton?: unknown }).automaton;
  if (!Array.isArray(states) || states.length === 0) return payload;
  const i = from % states.length;
  const target = to % (states.length + 1);
  const start = states.length;
  const edges = [["vocab", [[0], target]], ["typed", [0, "slot", target]], ["strings", ["slot", target]], ["skip", target], ["returns", target], ["calls", [start, target]]] as const;
  const [field, edge] = edges[edgeKind % edges.length]!;
  const edged = updateAt(payload, ["automaton", i, field], (edges) => (Array.isArray(edges) ? [...edges, edge] : edges));
  if (field !== "calls") return edged;
  const state = (): BundleState => ({ vocab: [], typed: [], strings: [], lists: [], ranges: [], skip: [], accept: [], calls: [], returns: [] });
  return updateAt(edged, ["automaton"], (all) => [...(all as unknown[]), { ...state(), skip: [start + 1] }, { ...state(), returns: [start] }]);
}

/** The bundle bytes of `base` under `mutations`. */
export function mutatedBundle(base: BundlePayload, mutations: readonly Mutation[]): Uint8Array {
  let payload: unknown = base;
  let sharing: Sharing = "none";
  const byteEdits: Extract<Mutation, { kind: "bytes" }>[] = [];
  const sectionEdits: Extract<Mutation, { kind: "sectionRef" }>[] = [];
  for (const m of mutations) {
    if (m.kind === "edit" || m.kind === "share") {
      const edit = (m.kind === "edit" ? EDITS : SHARING_EDITS)[m.edit]!;
      const path = pathOf(payload, m.picks);
      // Shared values inside an intent's record reach the record reader; anywhere else, the loader.
      const inRecord = path[0] === "intents" && (RECORD_FIELDS as readonly unknown[]).includes(path[2]);
      if (m.kind === "share") sharing = sharing === "all" || !inRecord ? "all" : "records";
      payload = updateAt(payload, path, (old) => edit(old, m.n));
    } else if (m.kind === "swapSections") {
      const keys = Object.keys(payload as object);
      const [a, b] = [keys[m.a % keys.length]!, keys[m.b % keys.length]!];
      const o = payload as Record<string, unknown>;
      payload = { ...o, [a]: o[b], [b]: o[a] };
    } else if (m.kind === "edge") payload = addEdge(payload, m.from, m.to, m.edgeKind);
    else if (m.kind === "sectionRef") sectionEdits.push(m);
    else byteEdits.push(m);
  }
  let { msgpack: body, sections } = packed(payload, sharing);
  for (const { at, value, insert } of byteEdits) {
    const i = at % body.length;
    if (insert) {
      const longer = new Uint8Array(body.length + 1);
      longer.set(body.subarray(0, i));
      longer[i] = value;
      longer.set(body.subarray(i), i + 1);
      body = longer;
    } else body[i]! ^= value;
  }
  for (const edit of sectionEdits) editSectionRef(body, edit);
  return frameBundle({ msgpack: body, sections });
}

/**
 * Rewrites one field of a section reference in a msgpack part (runtime/bundle/sections.ts): its kind,
 * offset or length, making it unknown, misaligned, overlapping, out of range or of the wrong length.
 */
function editSectionRef(msgpack: Uint8Array, { which, field, value }: Extract<Mutation, { kind: "sectionRef" }>): void {
  const refs: number[] = [];
  for (let i = 0; i + 3 + SECTION_REF_BYTES <= msgpack.length; i++) {
    if (msgpack[i] === 0xc7 && msgpack[i + 1] === SECTION_REF_BYTES && msgpack[i + 2] === SECTION_EXT) refs.push(i + 3);
  }
  if (refs.length === 0) return;
  const data = refs[which % refs.length]!;
  if (field === 0) {
    msgpack[data] = value % 16;
    return;
  }
  const view = new DataView(msgpack.buffer, msgpack.byteOffset);
  const at = data + 1 + 4 * (field - 1);
  // Small shifts (misaligned, overlapping, one element short or long) as well as wild values.
  const old = view.getUint32(at, true);
  view.setUint32(at, [old + 1, old - 8, old + 8, old + 4, value][value % 5]! >>> 0, true);
}


/**
 * The messages every hostile bundle that loads must answer: exact inputs, template-shaped
 * requests, sentiment, garbage, quotes, controls, and long words (up to 32 letters: longer words
 * belong to the typo-lookup bound of issue 13 item 4), 100 in all.
 */
export function hostileMessages(base: BundlePayload): string[] {
  const exact = stringsOf(base.exact.keys).slice(0, 40);
  const shaped = [
    "create folder demo", "create a folder named notes", "make a directory called x y z", "create folder", "folder create demo",
    "list files in /tmp", "show the files here please", "what day is it today", "delete everything", "don't list files",
    "list files then show the date", "list files and then create folder a and then say hi", "thanks!", "damn it", "great job",
    'create folder "my notes"', "create folder 'unterminated", "ls -la | rm -rf /", "$(reboot)", "`id`",
  ];
  const garbage = [
    "", " ", "\u0000\u0001\u0002", "!!!???", "🙂🙃🙂", "\u202e\u200b", "ǅ ﬁ Ⅻ", "%s%n%x", "null", "undefined",
    "__proto__", "constructor", "<||username||>", "<||amp||><||amp||>", "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    "x ".repeat(240), "word ".repeat(100), "teach: x means y", "qwxz vbnm plkj", "1 2 3 4 5 6 7 8 9 0",
  ];
  const longWords = [8, 12, 16, 20, 24, 28, 30, 32].flatMap((n) => ["filesx".repeat(n).slice(0, n), `list ${"e".repeat(n)}`]);
  const messages = [...exact, ...shaped, ...garbage, ...longWords];
  for (let i = 0; messages.length < 100; i++) messages.push(`${exact[i % exact.length]} ${shaped[i % shaped.length]}`);
  return messages.slice(0, 100);
}

/**
 * The note of an error the session caught while answering (it answers "internal error: …" rather
 * than throw, runtime/conversation/session.ts), in the response or one of its parts; null when there was none.
 */
export function internalErrorOf(response: NpcResponse): string | null {
  const note = response.witness.find((w) => w.note?.startsWith("internal error"))?.note;
  if (note !== undefined) return note;
  for (const part of response.parts ?? []) {
    const inPart = internalErrorOf(part);
    if (inPart !== null) return inPart;
  }
  return null;
}

/**
 * The notice of an answer (or one of its parts) that reached a malformed intent record (read on
 * first use: runtime/bundle/intent-records.ts), or null.
 */
export function invalidRecordOf(response: NpcResponse): string | null {
  if (response.notice?.startsWith("invalid .npc bundle: intent ")) return response.notice;
  for (const part of response.parts ?? []) {
    const inPart = invalidRecordOf(part);
    if (inPart !== null) return inPart;
  }
  return null;
}
