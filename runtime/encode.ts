// Writing a `.npc` bundle (the compiler's side of format.ts): header, then the msgpack payload.
// Apart from the reader so the runtime core does not carry the synchronous SHA-256 it needs.

import { Packr } from "msgpackr";
import type { BundlePayload } from "./bundle-types.js";
import { BUNDLE_MAGIC, FORMAT_MAJOR, FORMAT_MINOR, HEADER_SIZE } from "./format.js";
import { sha256 } from "./sha256.js";

// Records and Maps off: the payload is plain arrays and objects, so the bytes depend only on values
// and on the (fixed) order in which the compiler inserts keys.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: false });

/** The msgpack bytes of a payload (or of one of its sections). */
export function packPayload(value: unknown): Uint8Array {
  return new Uint8Array(packr.pack(value)); // a copy: msgpackr reuses its buffer
}

/** Encoded size in bytes of each top-level payload section (for `ndfc inspect`). */
export function sectionSizes(payload: BundlePayload): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [key, value] of Object.entries(payload)) sizes[key] = packPayload(value).length;
  return sizes;
}

/** Serializes a payload into bundle bytes (header + msgpack). */
export function encodeBundle(payload: BundlePayload): Uint8Array {
  return frameBundle(packPayload(payload));
}

/** Bundle bytes around msgpack `body` (its header: magic, version, length, SHA-256). */
export function frameBundle(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE + body.length);
  const view = new DataView(out.buffer);
  out.set(BUNDLE_MAGIC, 0);
  view.setUint16(4, FORMAT_MAJOR);
  view.setUint16(6, FORMAT_MINOR);
  view.setUint32(8, body.length);
  out.set(sha256(body), 12);
  out.set(body, HEADER_SIZE);
  return out;
}
