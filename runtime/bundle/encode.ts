// Writing a `.npc` bundle (the compiler's side of format.ts): header, then the payload: the length
// of its msgpack part (u32 LE), the msgpack part, zero padding, and the section area
// (sections.ts). Apart from the reader so the runtime core carries neither this writer nor the
// synchronous SHA-256 it needs.
//
// Deterministic: the bytes depend only on the values and on the (fixed) order in which the
// compiler inserts keys. Integers take the smallest msgpack integer that holds them, other numbers
// a float 64; every typed array becomes a section, and a StringTable two (its bytes, its offsets).

import { PERMISSIONS, RECORD_FIELDS, type BundleIntent, type BundleIntents, type BundlePayload, type BundlePhrases, type BundleRows, type BundleWordLists, type Segments, type BundleState, type BundleTypeProgram, type IntentRecord, type StoredAutomaton, type StoredPayload, type StoredTypeProgram } from "./bundle-types.js";
import { BUNDLE_MAGIC, FORMAT_MAJOR, FORMAT_MINOR, HEADER_SIZE } from "./format.js";
import { alignUp, HOST_IS_LITTLE_ENDIAN, SECTION_EXT, SECTION_KINDS, SECTION_REF_BYTES, STRINGS_EXT } from "./sections.js";
import { EDGE_KINDS } from "./automaton-store.js";
import { sha256 } from "./sha256.js";
import { StringTable } from "./string-table.js";
import { hashString } from "../text/fuzzy.js";

/** A payload as written: its msgpack part and its section area (padded to the alignment). */
export interface PackedPayload {
  msgpack: Uint8Array;
  sections: Uint8Array;
}

/** A byte buffer that grows as it is written. */
class ByteSink {
  bytes = new Uint8Array(1024);
  view = new DataView(this.bytes.buffer);
  length = 0;

  /** Room for `count` more bytes; returns where they start. */
  reserve(count: number): number {
    const start = this.length;
    if (start + count > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, start + count));
      grown.set(this.bytes.subarray(0, start));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    this.length = start + count;
    return start;
  }

  push(...values: number[]): void {
    const start = this.reserve(values.length);
    for (let i = 0; i < values.length; i++) this.bytes[start + i] = values[i]!;
  }

  append(data: Uint8Array): void {
    const start = this.reserve(data.length); // before reading this.bytes, which it may replace
    this.bytes.set(data, start);
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

const utf8 = new TextEncoder();

class PayloadWriter {
  readonly out = new ByteSink();
  readonly area = new ByteSink();

  value(value: unknown): void {
    if (value === null) this.out.push(0xc0);
    else if (value === undefined) this.out.push(0xd4, 0x00, 0x00); // msgpack's "undefined" extension: readers refuse it
    else if (typeof value === "boolean") this.out.push(value ? 0xc3 : 0xc2);
    else if (typeof value === "number") this.number(value);
    else if (typeof value === "string") this.text(value);
    else if (Array.isArray(value)) {
      this.header(value.length, 0x90, 0xdc);
      for (const item of value) this.value(item);
    } else if (ArrayBuffer.isView(value)) this.section(value);
    else if (value instanceof StringTable) this.strings(value);
    else if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const keys = Object.keys(value);
      this.header(keys.length, 0x80, 0xde);
      for (const key of keys) {
        this.text(key);
        this.value((value as Record<string, unknown>)[key]);
      }
    } else throw new TypeError(`a bundle cannot hold ${typeof value === "object" ? value.constructor.name : typeof value} values`);
  }

  /** A fixarray/fixmap header (`fix`) or its 16/32-bit form (`long`, `long + 1`). */
  private header(count: number, fix: number, long: number): void {
    if (count < 16) this.out.push(fix | count);
    else if (count < 0x10000) this.out.push(long, count >> 8, count & 0xff);
    else this.sized(long + 1, 4, count);
  }

  private number(n: number): void {
    const { out } = this;
    if (!Number.isInteger(n) || Object.is(n, -0) || n < -0x80000000 || n > 0xffffffff) {
      const start = out.reserve(9); // before reading out.view, which it may replace
      out.bytes[start] = 0xcb;
      out.view.setFloat64(start + 1, n);
    } else if (n >= 0) {
      if (n < 0x80) out.push(n);
      else if (n < 0x100) out.push(0xcc, n);
      else if (n < 0x10000) out.push(0xcd, n >> 8, n & 0xff);
      else this.sized(0xce, 4, n);
    } else if (n >= -32) out.push(n & 0xff);
    else if (n >= -0x80) out.push(0xd0, n & 0xff);
    else if (n >= -0x8000) out.push(0xd1, (n >> 8) & 0xff, n & 0xff);
    else {
      const start = out.reserve(5);
      out.bytes[start] = 0xd2;
      out.view.setInt32(start + 1, n);
    }
  }

  /** `token` then `value` as a big-endian unsigned integer of `width` (1, 2 or 4) bytes. */
  private sized(token: number, width: number, value: number): void {
    const start = this.out.reserve(1 + width);
    this.out.bytes[start] = token;
    for (let k = width; k >= 1; k--, value = Math.floor(value / 256)) this.out.bytes[start + k] = value % 256;
  }

  private text(value: string): void {
    const { out } = this;
    // Most strings are short words: written in place with a fixstr header, encoded into the
    // buffer (at most 3 bytes per UTF-16 unit), no intermediate array.
    if (value.length < 11) {
      const start = out.reserve(1 + 3 * value.length);
      const { written } = utf8.encodeInto(value, out.bytes.subarray(start + 1));
      out.bytes[start] = 0xa0 | written;
      out.length = start + 1 + written;
      return;
    }
    const encoded = utf8.encode(value);
    const n = encoded.length;
    if (n < 32) out.push(0xa0 | n);
    else if (n < 0x100) out.push(0xd9, n);
    else if (n < 0x10000) out.push(0xda, n >> 8, n & 0xff);
    else this.sized(0xdb, 4, n);
    out.append(encoded);
  }

  private section(array: ArrayBufferView): void {
    this.out.push(0xc7, SECTION_REF_BYTES, SECTION_EXT);
    this.reference(array);
  }

  /** A string table: one extension holding its two sections' references. */
  private strings(table: StringTable): void {
    this.out.push(0xc7, 2 * SECTION_REF_BYTES, STRINGS_EXT);
    this.reference(table.bytes);
    this.reference(table.starts);
  }

  /** Appends `array`'s bytes to the area (aligned) and writes its reference's data: kind, offset, length. */
  private reference(array: ArrayBufferView): void {
    const kind = SECTION_KINDS.findIndex((k) => array.constructor === k || (k === Uint8Array && array instanceof Uint8Array));
    if (kind < 0) throw new TypeError(`a bundle section cannot hold a ${array.constructor.name}`);
    if (!HOST_IS_LITTLE_ENDIAN) throw new Error("bundles are written little-endian: this host is big-endian");
    this.area.reserve(alignUp(this.area.length) - this.area.length); // zero padding (a fresh buffer is zeros)
    const offset = this.area.length;
    this.area.append(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    const ref = this.out.reserve(SECTION_REF_BYTES);
    this.out.bytes[ref] = kind;
    this.out.view.setUint32(ref + 1, offset, true);
    this.out.view.setUint32(ref + 5, array.byteLength, true);
  }

  packed(): PackedPayload {
    this.area.reserve(alignUp(this.area.length) - this.area.length);
    return { msgpack: this.out.result(), sections: this.area.result() };
  }
}

/** The msgpack part and section area of a payload (or of one of its fields). */
export function packPayload(value: unknown): PackedPayload {
  const writer = new PayloadWriter();
  writer.value(value);
  return writer.packed();
}

/** An intent's record, its keys in RECORD_FIELDS' order (the bytes depend on it). */
function recordOf(intent: BundleIntent): IntentRecord {
  return Object.fromEntries(RECORD_FIELDS.map((field) => [field, intent[field]])) as unknown as IntentRecord;
}

/**
 * Intents in their stored form (bundle-types.ts BundleIntents): heads as sections, each record
 * packed by `packRecord` (the bundle writer's plain msgpack; a test may pass another packer).
 */
export function storedIntents(intents: readonly BundleIntent[], packRecord = (record: IntentRecord) => packPayload(record).msgpack): BundleIntents {
  return {
    ids: stringTableOf(intents.map((intent) => intent.id)),
    permission: Uint8Array.from(intents, (intent) => PERMISSIONS.indexOf(intent.permission)),
    destructive: Uint8Array.from(intents, (intent) => (intent.destructive ? 1 : 0)),
    parent: Uint32Array.from(intents, (intent) => intent.parent ?? intents.length),
    ...storedLabels(intents),
    records: byteRows(intents.map((intent) => packRecord(recordOf(intent)))),
  };
}

/** The intents' categories and examples (bundle-types.ts BundleIntents.labels): each string once, in first-use order; none is the labels' length. */
function storedLabels(intents: readonly BundleIntent[]): Pick<BundleIntents, "labels" | "category" | "example"> {
  const labels = new Map<string, number>();
  const indexOf = (label: string | null) => (label === null ? -1 : labels.get(label) ?? labels.set(label, labels.size).size - 1);
  const category = intents.map((intent) => indexOf(intent.category));
  const example = intents.map((intent) => indexOf(intent.example));
  const none = (at: number) => (at === -1 ? labels.size : at);
  return { labels: stringTableOf([...labels.keys()]), category: Uint32Array.from(category, none), example: Uint32Array.from(example, none) };
}

/** A string list in the bundle's form (string-table.ts): the strings' UTF-8 bytes and where each starts (sorted, for a table searched by `get`). */
export function stringTableOf(strings: readonly string[]): StringTable {
  const { starts, items } = byteRows(strings.map((s) => utf8.encode(s)));
  return new StringTable(items, starts, [...strings]);
}

/**
 * Phrases ([words, value]) as a bundle stores them (phrase-table.ts), their values in phrase order
 * beside: grouped by first word, longest first within a group, then as given (the sanitizer's by
 * kind and text, the vocab's by tag and text); a phrase of no words is left out (it starts with no
 * word). The slots are a power of two, more than twice the groups.
 */
export function phraseTableOf(phrases: readonly (readonly [readonly string[], number])[]): BundlePhrases & { values: number[] } {
  const order = phrases
    .map(([words, value], given) => ({ words, value, given }))
    .filter(({ words }) => words.length > 0)
    .sort((a, b) => (a.words[0]! < b.words[0]! ? -1 : a.words[0]! > b.words[0]! ? 1 : b.words.length - a.words.length || a.given - b.given));
  const firsts = order.flatMap(({ words }, i) => (i === 0 || order[i - 1]!.words[0] !== words[0] ? [i] : []));
  const slots = new Uint32Array(2 ** Math.ceil(Math.log2(2 * firsts.length + 1)));
  for (const i of firsts) {
    let s = hashString(order[i]!.words[0]!) & (slots.length - 1);
    while (slots[s] !== 0) s = (s + 1) & (slots.length - 1);
    slots[s] = i + 1;
  }
  return { phrases: stringTableOf(order.map(({ words }) => words.join(" "))), slots, values: order.map(({ value }) => value) };
}

/** The word lists ([name, variants], names sorted and distinct) as a bundle stores them (word-lists.ts). */
export function wordListsOf(lists: readonly (readonly [string, readonly Segments[]])[]): BundleWordLists {
  const variants = lists.flatMap(([, listed]) => listed);
  return {
    names: stringTableOf(lists.map(([name]) => name)),
    variants: startsOf(lists.map(([, listed]) => listed)),
    starts: startsOf(variants),
    segments: stringTableOf(variants.flat()),
  };
}

/** Byte strings one after the other, and where each starts (one more: the end). */
function byteRows(parts: readonly Uint8Array[]): BundleRows<Uint8Array> {
  const starts = startsOf(parts);
  const items = new Uint8Array(starts[parts.length]!);
  parts.forEach((part, i) => items.set(part, starts[i]));
  return { starts, items };
}

/** Lists of ids in the bundle's two-section form (BundleRows): row i is items[starts[i]] up to (without) items[starts[i + 1]]. */
export function rowsOf(lists: readonly (readonly number[])[]): BundleRows {
  return { starts: startsOf(lists), items: Uint32Array.from(lists.flat()) };
}

/** Where each of `parts` starts when they are laid one after the other, and one more: the end. */
function startsOf(parts: readonly { length: number }[]): Uint32Array {
  const starts = new Uint32Array(parts.length + 1);
  parts.forEach((part, i) => (starts[i + 1] = starts[i]! + part.length));
  return starts;
}

/**
 * The automaton in its stored form (automaton-store.ts): per state a row of numbers per edge kind,
 * the vocab edges' tags apart, slot names once. Written straight into its typed arrays, after a
 * pass that counts them: a 30,000-state automaton made hundreds of thousands of small arrays.
 */
export function storedAutomaton(states: readonly BundleState[]): StoredAutomaton {
  const slotNames = new Set<string>();
  let edgeNumbers = 0;
  let vocabEdges = 0;
  let tagNumbers = 0;
  for (const s of states) {
    for (const [, slot] of s.typed) slotNames.add(slot);
    for (const [slot] of s.strings) slotNames.add(slot);
    for (const [, slot] of s.lists) slotNames.add(slot);
    for (const [, slot] of s.ranges) slotNames.add(slot);
    for (const [tags] of s.vocab) tagNumbers += tags.length;
    vocabEdges += s.vocab.length;
    edgeNumbers += s.vocab.length + 3 * s.typed.length + 2 * s.strings.length + 3 * s.lists.length + 3 * s.ranges.length + s.skip.length + 2 * s.accept.length + 2 * s.calls.length + s.returns.length;
  }
  const names = [...slotNames].sort();
  const nameIndex = new Map(names.map((name, i) => [name, i]));
  const edges = { starts: new Uint32Array(states.length * EDGE_KINDS.length + 1), items: new Uint32Array(edgeNumbers) };
  const vocabTags = { starts: new Uint32Array(vocabEdges + 1), items: new Uint32Array(tagNumbers) };
  const { items, starts } = edges;
  let at = 0;
  let row = 0;
  let tagAt = 0;
  let vocabEdge = 0;
  // One row per kind, in EDGE_KINDS order; a row's start is where the previous one ended.
  for (const s of states) {
    for (const [tags, child] of s.vocab) {
      items[at++] = child;
      vocabTags.items.set(tags, tagAt);
      vocabTags.starts[++vocabEdge] = tagAt += tags.length;
    }
    starts[++row] = at;
    for (const [type, slot, child] of s.typed) at = putSlotEdge(items, at, type, nameIndex.get(slot)!, child);
    starts[++row] = at;
    for (const [slot, child] of s.strings) {
      items[at++] = nameIndex.get(slot)!;
      items[at++] = child;
    }
    starts[++row] = at;
    for (const [list, slot, child] of s.lists) at = putSlotEdge(items, at, list, nameIndex.get(slot)!, child);
    starts[++row] = at;
    for (const [range, slot, child] of s.ranges) at = putSlotEdge(items, at, range, nameIndex.get(slot)!, child);
    starts[++row] = at;
    for (const child of s.skip) items[at++] = child;
    starts[++row] = at;
    for (const [intent, path] of s.accept) {
      items[at++] = intent;
      items[at++] = path;
    }
    starts[++row] = at;
    for (const [start, back] of s.calls) {
      items[at++] = start;
      items[at++] = back;
    }
    starts[++row] = at;
    for (const start of s.returns) items[at++] = start;
    starts[++row] = at;
  }
  return { names, edges, vocabTags };
}

/** Writes a typed, list or range edge [node id, slot name index, child] at `at`; returns where the next number goes. */
function putSlotEdge(items: Uint32Array, at: number, id: number, name: number, child: number): number {
  items[at] = id;
  items[at + 1] = name;
  items[at + 2] = child;
  return at + 3;
}

/** A type program in its stored form (bundle-types.ts StoredTypeProgram), its keys in the program's order. */
export function storedType({ name, unusable, classes, ops }: BundleTypeProgram): StoredTypeProgram {
  return { name, unusable, classes: rowsOf(classes), ops: Uint32Array.from(ops) };
}

/** The payload as the bundle stores it (its intents as storedIntents, its automaton as storedAutomaton, its types as storedType). */
export function storedPayload(payload: BundlePayload): StoredPayload {
  return { ...payload, intents: storedIntents(payload.intents), automaton: storedAutomaton(payload.automaton), types: payload.types.map(storedType) };
}

/** Encoded size in bytes of each top-level payload field, msgpack and sections (for `ndfc inspect`). */
export function sectionSizes(payload: BundlePayload): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [key, value] of Object.entries(storedPayload(payload))) {
    const { msgpack, sections } = packPayload(value);
    sizes[key] = msgpack.length + sections.length;
  }
  return sizes;
}

/** Serializes a payload into bundle bytes. */
export function encodeBundle(payload: BundlePayload): Uint8Array {
  return frameBundle(packPayload(storedPayload(payload)));
}

/** Bundle bytes around a packed payload: header (magic, version, length, SHA-256), then the payload. */
export function frameBundle({ msgpack, sections }: PackedPayload): Uint8Array {
  // The section area starts on an aligned file offset (HEADER_SIZE + 4 is a multiple of 8).
  const areaStart = alignUp(HEADER_SIZE + 4 + msgpack.length);
  const out = new Uint8Array(areaStart + sections.length);
  const view = new DataView(out.buffer);
  out.set(BUNDLE_MAGIC, 0);
  view.setUint16(4, FORMAT_MAJOR);
  view.setUint16(6, FORMAT_MINOR);
  view.setUint32(8, out.length - HEADER_SIZE);
  view.setUint32(HEADER_SIZE, msgpack.length, true);
  out.set(msgpack, HEADER_SIZE + 4);
  out.set(sections, areaStart);
  out.set(sha256(out.subarray(HEADER_SIZE)), 12);
  return out;
}
