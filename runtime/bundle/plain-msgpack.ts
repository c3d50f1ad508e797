// The runtime's msgpack decoder: plain msgpack only (nil, booleans, numbers, strings, arrays, maps
// with string keys), plus the section references of sections.ts, which come back as typed-array
// views of the section area, and string tables (two references), which come back as StringTables
// over such views (unchecked here: validate-payload.ts calls their own check). Small on purpose (msgpackr's decoder was 15 KB of the runtime) and
// strict, since a bundle with a valid hash may still come from a hostile writer:
// - every extension but a section reference or a string table is refused, and so is bin (byte tables are sections).
//   msgpackr honours structured-clone pointers and records, which let a few bytes stand for a tree
//   of any size or compile keys into a function; none of that can reach this decoder.
// - a container may not announce more values than bytes are left (each value takes at least one
//   byte of its own), so the payload holds at most as many values as it has bytes: the budget
//   validate-payload.ts walks with. Nesting is bounded by MAX_MSGPACK_NESTING.
// - sections must be aligned, in order, not overlapping, within the area, a whole number of
//   elements, and together cover the area (only alignment padding left over).
// A map key "__proto__" is refused: assigning it would replace the object's prototype.

import { alignUp, SECTION_ALIGN, SECTION_EXT, SECTION_KINDS, SECTION_REF_BYTES, STRINGS_EXT } from "./sections.js";
import { StringTable, utf8Text } from "./string-table.js";

/** Deeper than any payload ndfc writes (a tool tree nests 3 msgpack levels per level, 64 levels at most). */
export const MAX_MSGPACK_NESTING = 256;

/** Why bytes are not a plain msgpack value (the message names the byte offset). */
export class MsgpackError extends Error {}

const NONE: Uint8Array = new Uint8Array(0);
let bytes = NONE;
let view: DataView = new DataView(NONE.buffer);
let at = 0;
let area = NONE;
/** End of the last section read: the next one may not start before it. */
let areaUsed = 0;

function fail(where: number, what: string): never {
  throw new MsgpackError(`byte ${where}: ${what}`);
}

/** Moves past `count` bytes, checking that they are there. */
function take(count: number): number {
  const start = at;
  if (start + count > bytes.length) throw new MsgpackError(`the msgpack data ends at byte ${bytes.length}, inside a value of ${count + 1} bytes at byte ${start - 1}`);
  at = start + count;
  return start;
}

/**
 * Decodes `msgpack`, one value with nothing after it, whose section references point into `sections`
 * (aligned to SECTION_ALIGN in memory). Throws MsgpackError.
 */
export function decodePlainMsgpack(msgpack: Uint8Array, sections: Uint8Array): unknown {
  bytes = msgpack;
  view = new DataView(msgpack.buffer, msgpack.byteOffset, msgpack.byteLength);
  at = 0;
  area = sections;
  areaUsed = 0;
  try {
    const value = read(0);
    if (at !== bytes.length) throw new MsgpackError(`${bytes.length - at} bytes after the payload's value`);
    if (alignUp(areaUsed) !== area.length) throw new MsgpackError(`the section area has ${area.length} bytes, its sections end at ${areaUsed}`);
    return value;
  } finally {
    bytes = area = NONE; // keep no reference to the bundle
  }
}

/**
 * Decodes `msgpack` as decodePlainMsgpack does, then checks it with `shapeProblem`, whose budget is
 * the byte count (a plain value holds at most as many values as bytes). Either failure becomes the
 * error `refuse` makes of "is not plain msgpack: …" or "has the wrong shape: …".
 */
export function decodeChecked(msgpack: Uint8Array, sections: Uint8Array, shapeProblem: (value: unknown, budget: number) => string | null, refuse: (why: string) => Error): unknown {
  let value: unknown;
  try {
    value = decodePlainMsgpack(msgpack, sections);
  } catch (error) {
    if (error instanceof MsgpackError) throw refuse(`is not plain msgpack: ${error.message}`);
    throw error;
  }
  const problem = shapeProblem(value, msgpack.length);
  if (problem !== null) throw refuse(`has the wrong shape: ${problem}`);
  return value;
}

function read(depth: number): unknown {
  if (at >= bytes.length) throw new MsgpackError(`the msgpack data ends at byte ${bytes.length}, inside a value`);
  const token = bytes[at++]!;
  if (token <= 0x7f) return token;
  if (token >= 0xe0) return token - 0x100;
  if (token <= 0x8f) return map(token & 0x0f, depth);
  if (token <= 0x9f) return array(token & 0x0f, depth);
  if (token <= 0xbf) return text(token & 0x1f);
  switch (token) {
    case 0xc0: return null;
    case 0xc2: return false;
    case 0xc3: return true;
    case 0xca: return view.getFloat32(take(4));
    case 0xcb: return view.getFloat64(take(8));
    case 0xcc: return bytes[take(1)]!;
    case 0xcd: return view.getUint16(take(2));
    case 0xce: return view.getUint32(take(4));
    case 0xcf: return Number(view.getBigUint64(take(8)));
    case 0xd0: return view.getInt8(take(1));
    case 0xd1: return view.getInt16(take(2));
    case 0xd2: return view.getInt32(take(4));
    case 0xd3: return Number(view.getBigInt64(take(8)));
    case 0xd9: return text(bytes[take(1)]!);
    case 0xda: return text(view.getUint16(take(2)));
    case 0xdb: return text(view.getUint32(take(4)));
    case 0xdc: return array(view.getUint16(take(2)), depth);
    case 0xdd: return array(view.getUint32(take(4)), depth);
    case 0xde: return map(view.getUint16(take(2)), depth);
    case 0xdf: return map(view.getUint32(take(4)), depth);
    case 0xc7:
      if (bytes[at] === SECTION_REF_BYTES && bytes[at + 1] === SECTION_EXT) return section(at - 1, take(2 + SECTION_REF_BYTES) + 2);
      if (bytes[at] === 2 * SECTION_REF_BYTES && bytes[at + 1] === STRINGS_EXT) return strings();
  }
  return fail(at - 1, refusal(at - 1));
}

/** Checks a container of `values` values before reading it. */
function open(values: number, depth: number): void {
  if (values > bytes.length - at) fail(at - 1, `a container of ${values} values in the ${bytes.length - at} bytes left`);
  if (depth >= MAX_MSGPACK_NESTING) fail(at - 1, `containers nested deeper than ${MAX_MSGPACK_NESTING}`);
}

function array(length: number, depth: number): unknown[] {
  open(length, depth);
  const out = new Array<unknown>(length);
  for (let i = 0; i < length; i++) out[i] = read(depth + 1);
  return out;
}

function map(size: number, depth: number): Record<string, unknown> {
  open(2 * size, depth);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) {
    const keyAt = at;
    const key = read(depth + 1);
    if (typeof key !== "string") fail(keyAt, "a map key that is not a string");
    if (key === "__proto__") fail(keyAt, "a map key __proto__");
    out[key] = read(depth + 1);
  }
  return out;
}

function text(length: number): string {
  const start = take(length);
  return utf8Text(bytes, start, at);
}

/** A string table (the token 0xc7 read): its two sections' views, checked by the validator. */
function strings(): StringTable {
  const refAt = at - 1;
  const start = take(2 + 2 * SECTION_REF_BYTES) + 2;
  return new StringTable(section(refAt, start) as Uint8Array, section(refAt, start + SECTION_REF_BYTES) as Uint32Array);
}

/** The section whose reference (kind, offset, length) starts at `start`, for the value at `refAt`: a view of its bytes in the area. */
function section(refAt: number, start: number): ArrayBufferView {
  const kind = SECTION_KINDS[bytes[start]!];
  const offset = view.getUint32(start + 1, true);
  const length = view.getUint32(start + 5, true);
  if (!kind) return fail(refAt, `section kind ${bytes[start]} is not one of the ${SECTION_KINDS.length} known`);
  if (offset % SECTION_ALIGN !== 0) fail(refAt, `section at ${offset} is not aligned to ${SECTION_ALIGN} bytes`);
  if (offset < areaUsed) fail(refAt, `section at ${offset} overlaps the one before it (which ends at ${areaUsed})`);
  if (offset + length > area.length) fail(refAt, `section of ${length} bytes at ${offset} runs past the ${area.length}-byte section area`);
  if (length % kind.BYTES_PER_ELEMENT !== 0) fail(refAt, `section of ${length} bytes is not a whole number of ${kind.BYTES_PER_ELEMENT}-byte ${kind.name} values`);
  areaUsed = offset + length;
  // (a SharedArrayBuffer works as well: views of it are the same typed arrays)
  return new kind(area.buffer as ArrayBuffer, area.byteOffset + offset, length / kind.BYTES_PER_ELEMENT);
}

function refusal(where: number): string {
  const token = bytes[where]!;
  if (token === 0xc1) return "0xc1 is not a msgpack value";
  if (token >= 0xc4 && token <= 0xc6) return "msgpack bin: a bundle's byte tables are sections, not msgpack values";
  // 0xc7-0xc9 ext 8/16/32 (the type after the length), 0xd4-0xd8 fixext (the type next).
  const typeAt = token <= 0xc9 ? where + 1 + (1 << (token - 0xc7)) : where + 1;
  const type = typeAt < bytes.length ? `0x${bytes[typeAt]!.toString(16).padStart(2, "0")}` : "(truncated)";
  return `msgpack extension ${type}: a bundle holds plain values and sections only (no shared references, records or extension types)`;
}
