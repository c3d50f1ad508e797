// Writing a `.npc` bundle (the compiler's side of format.ts): header, then the msgpack payload.
// Apart from the reader so the runtime core does not carry the synchronous SHA-256 it needs.

import type { BundlePayload } from "./bundle-types.js";
import { BUNDLE_MAGIC, FORMAT_MAJOR, FORMAT_MINOR, HEADER_SIZE, packPayload } from "./format.js";
import { sha256 } from "./sha256.js";

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
