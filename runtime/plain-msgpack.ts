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
  const end = bytes.length;
  /** Values still to read in each open array or map, innermost last. */
  const open: number[] = [];
  let at = 0;
  let pending = 1;
  while (pending > 0) {
    if (at >= end) return `the msgpack data ends at byte ${end}, inside a value`;
    const token = bytes[at]!;
    let head = 1;
    let body = 0;
    let children = 0;
    if (token <= 0x7f || token >= 0xe0) {
      // a fixint
    } else if (token <= 0x8f) children = 2 * (token & 0x0f);
    else if (token <= 0x9f) children = token & 0x0f;
    else if (token <= 0xbf) body = token & 0x1f;
    else {
      const kind = LONG_TOKENS[token - 0xc0]!;
      if (kind === REFUSED) return `byte ${at}: ${refusal(bytes, at)}`;
      if (kind >= 0) body = kind;
      else {
        // Lengths (of bytes, or of values) follow the token in 1, 2 or 4 bytes.
        const width = -kind & 7;
        head += width;
        if (at + head > end) return `the msgpack data ends at byte ${end}, inside a length`;
        let length = 0;
        for (let k = 1; k <= width; k++) length = length * 256 + bytes[at + k]!;
        if (-kind & ARRAY) children = length;
        else if (-kind & MAP) children = 2 * length;
        else body = length;
      }
    }
    if (at + head + body > end) return `the msgpack data ends at byte ${end}, inside a value of ${head + body} bytes at byte ${at}`;
    // Each value takes at least one byte: a count beyond the bytes left cannot be honest.
    if (children > end - at - head) return `byte ${at}: a container of ${children} values in the ${end - at - head} bytes left`;
    at += head + body;
    pending--;
    if (children > 0) {
      if (open.length >= MAX_MSGPACK_NESTING) return `byte ${at - head}: containers nested deeper than ${MAX_MSGPACK_NESTING}`;
      open.push(pending);
      pending = children;
    }
    while (pending === 0 && open.length > 0) pending = open.pop()!;
  }
  if (at !== end) return `${end - at} bytes after the payload's value`;
  return null;
}

const REFUSED = -128;
const ARRAY = 8;
const MAP = 16;
/**
 * Tokens 0xc0-0xdf: a body of fixed size (≥ 0), a length of 1, 2 or 4 bytes (negated, with ARRAY
 * or MAP when it counts values), or REFUSED (0xc1, which msgpack never uses, and the extensions).
 */
const LONG_TOKENS: readonly number[] = [
  0, REFUSED, 0, 0, //                      nil, (unused), false, true
  -1, -2, -4, //                            bin 8/16/32
  REFUSED, REFUSED, REFUSED, //             ext 8/16/32
  4, 8, //                                  float 32/64
  1, 2, 4, 8, //                            uint 8/16/32/64
  1, 2, 4, 8, //                            int 8/16/32/64
  REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, // fixext 1/2/4/8/16
  -1, -2, -4, //                            str 8/16/32
  -(ARRAY | 2), -(ARRAY | 4), //            array 16/32
  -(MAP | 2), -(MAP | 4), //                map 16/32
];

function refusal(bytes: Uint8Array, at: number): string {
  const token = bytes[at]!;
  if (token === 0xc1) return "0xc1 is not a msgpack value";
  // 0xc7-0xc9 ext 8/16/32 (the type after the length), 0xd4-0xd8 fixext (the type next).
  const typeAt = token <= 0xc9 ? at + 1 + (1 << (token - 0xc7)) : at + 1;
  const type = typeAt < bytes.length ? `0x${bytes[typeAt]!.toString(16).padStart(2, "0")}` : "(truncated)";
  return `msgpack extension ${type}: a bundle holds plain values only (no shared references, records or extension types)`;
}
