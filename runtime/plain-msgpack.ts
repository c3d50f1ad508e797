// One linear pass over a payload's msgpack tokens before msgpackr decodes it: only plain msgpack
// (nil, booleans, numbers, strings, bytes, arrays, maps) may reach the decoder.
//
// Why not decoder options alone: msgpackr 2.1.4 registers its extensions globally, for every
// Unpackr. The structured-clone pair (0x69 id, 0x70 pointer) is honoured unless an Unpackr says
// `structuredClone: false` exactly, and a pointer lets a few bytes stand for a tree of any size
// (a tool tree sharing its child twice per level hangs whatever walks it). A record definition
// (fixext 0x72) is honoured whatever the options, and compiles its keys into a function. Other
// extensions build Errors, RegExps, Dates, Sets, BigInts, and a host may register its own. A bundle
// needs none of them (encode.ts writes plain values), so any extension is refused here.
//
// With no extension, every decoded value comes from at least one byte of its own: the payload
// holds at most as many values as it has bytes, which is the budget validate-payload.ts walks with.

/** Deeper than any payload ndfc writes (a tool tree nests 3 msgpack levels per level, 64 levels at most). */
export const MAX_MSGPACK_NESTING = 256;

/** Why `bytes` is not one plain msgpack value with nothing after it, or null. */
export function plainMsgpackProblem(bytes: Uint8Array): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  /** Values still to read in each open array or map, innermost last. */
  const open: number[] = [];
  let at = 0;
  let pending = 1;
  while (pending > 0) {
    if (at >= bytes.length) return `the msgpack data ends at byte ${at}, inside a value`;
    const token = bytes[at]!;
    const size = tokenSize(token, view, at);
    if (typeof size === "string") return `byte ${at}: ${size}`;
    const [head, body, children] = size;
    at += head + body;
    if (at > bytes.length) return `the msgpack data ends at byte ${bytes.length}, inside a value of ${head + body} bytes`;
    pending--;
    if (children > 0) {
      // Each value takes at least one byte: a count beyond the bytes left cannot be honest.
      if (children > bytes.length - at) return `byte ${at - head}: a container of ${children} values in the ${bytes.length - at} bytes left`;
      if (open.length >= MAX_MSGPACK_NESTING) return `byte ${at - head}: containers nested deeper than ${MAX_MSGPACK_NESTING}`;
      open.push(pending);
      pending = children;
    }
    while (pending === 0 && open.length > 0) pending = open.pop()!;
  }
  if (at !== bytes.length) return `${bytes.length - at} bytes after the payload's value`;
  return null;
}

/** [header bytes, body bytes, values it contains] of the token at `at`, or why it is refused. */
function tokenSize(token: number, view: DataView, at: number): [number, number, number] | string {
  const need = (n: number) => at + 1 + n <= view.byteLength;
  const u8 = () => view.getUint8(at + 1);
  const u16 = () => view.getUint16(at + 1);
  const u32 = () => view.getUint32(at + 1);
  if (token <= 0x7f || token >= 0xe0) return [1, 0, 0]; // fixints
  if (token <= 0x8f) return [1, 0, 2 * (token & 0x0f)]; // fixmap
  if (token <= 0x9f) return [1, 0, token & 0x0f]; // fixarray
  if (token <= 0xbf) return [1, token & 0x1f, 0]; // fixstr
  switch (token) {
    case 0xc0: case 0xc2: case 0xc3: return [1, 0, 0]; // nil, false, true
    case 0xcc: case 0xd0: return [1, 1, 0];
    case 0xcd: case 0xd1: return [1, 2, 0];
    case 0xca: case 0xce: case 0xd2: return [1, 4, 0];
    case 0xcb: case 0xcf: case 0xd3: return [1, 8, 0];
    case 0xc4: case 0xd9: return need(1) ? [2, u8(), 0] : "truncated length"; // bin 8, str 8
    case 0xc5: case 0xda: return need(2) ? [3, u16(), 0] : "truncated length";
    case 0xc6: case 0xdb: return need(4) ? [5, u32(), 0] : "truncated length";
    case 0xdc: return need(2) ? [3, 0, u16()] : "truncated length";
    case 0xdd: return need(4) ? [5, 0, u32()] : "truncated length";
    case 0xde: return need(2) ? [3, 0, 2 * u16()] : "truncated length";
    case 0xdf: return need(4) ? [5, 0, 2 * u32()] : "truncated length";
    case 0xc1: return "0xc1 is not a msgpack value";
    default: {
      // 0xc7-0xc9 ext 8/16/32 (type after the length), 0xd4-0xd8 fixext (type next).
      const typeAt = token <= 0xc9 ? at + 1 + (1 << (token - 0xc7)) : at + 1;
      const type = typeAt < view.byteLength ? `0x${view.getUint8(typeAt).toString(16).padStart(2, "0")}` : "(truncated)";
      return `msgpack extension ${type}: a bundle holds plain values only (no shared references, records or extension types)`;
    }
  }
}
