// The `.npc` bundle format, its single definition. Layout:
//   0   4  magic "NPC\0"
//   4   2  format major version (u16, big-endian)
//   6   2  format minor version (u16, big-endian)
//   8   4  payload length in bytes (u32, big-endian)
//   12 32  SHA-256 of the payload
//   44  …  msgpack payload (BundlePayload)
// A reader accepts any minor version of its major version (minor versions only add fields).
// 3.0: list and number slots are automaton edges (a 2.x reader would silently skip them).
// Writing is in encode.ts, apart, so that a reader does not ship the synchronous SHA-256.

// The reader needs only the decoder; the encoder (Packr, ~17 KB minified) lives with encode.ts.
import { Unpackr } from "msgpackr/unpack";
import type { BundlePayload } from "./bundle-types.js";
import { plainMsgpackProblem } from "./plain-msgpack.js";
import { validatePayload } from "./validate-payload.js";
import { digestSha256 } from "./digest.js";

export const BUNDLE_MAGIC = Uint8Array.of(0x4e, 0x50, 0x43, 0x00);
export const FORMAT_MAJOR = 3;
export const FORMAT_MINOR = 1;
export const HEADER_SIZE = 44;

/** A bundle that cannot be loaded: the message says why. */
export class InvalidBundleError extends Error {
  constructor(message: string) {
    super(`invalid .npc bundle: ${message}`);
    this.name = "InvalidBundleError";
  }
}

// Records and Maps off: the payload is plain arrays and objects (plain-msgpack.ts refuses the rest).
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

export interface BundleHeader {
  major: number;
  minor: number;
  payloadLength: number;
  sha256: Uint8Array;
}

/** Reads and checks the header (magic, version, length) without hashing. */
export function readHeader(bytes: Uint8Array): BundleHeader {
  if (!(bytes instanceof Uint8Array)) throw new InvalidBundleError("expected bytes (a Uint8Array)");
  if (bytes.length < HEADER_SIZE) {
    throw new InvalidBundleError(`${bytes.length} bytes is shorter than the ${HEADER_SIZE}-byte header`);
  }
  for (let i = 0; i < BUNDLE_MAGIC.length; i++) {
    if (bytes[i] !== BUNDLE_MAGIC[i]) throw new InvalidBundleError("wrong magic bytes (not an .npc file)");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = view.getUint16(4);
  const minor = view.getUint16(6);
  if (major !== FORMAT_MAJOR) {
    throw new InvalidBundleError(
      `format version ${major}.${minor} is not supported (this runtime reads ${FORMAT_MAJOR}.x); rebuild the bundle with a matching ndfc`,
    );
  }
  const payloadLength = view.getUint32(8);
  if (payloadLength !== bytes.length - HEADER_SIZE) {
    throw new InvalidBundleError(
      `header says the payload has ${payloadLength} bytes, the file has ${bytes.length - HEADER_SIZE} (truncated or padded)`,
    );
  }
  return { major, minor, payloadLength, sha256: bytes.slice(12, HEADER_SIZE) };
}

/** Checks header and hash, decodes and validates the payload. Throws only InvalidBundleError. */
export async function decodeBundle(bytes: Uint8Array): Promise<BundlePayload> {
  const header = readHeader(bytes);
  const body = bytes.subarray(HEADER_SIZE);
  const digest = await digestSha256(body);
  if (!equalBytes(digest, header.sha256)) {
    throw new InvalidBundleError("payload SHA-256 does not match the header (the file is corrupt)");
  }
  const notPlain = plainMsgpackProblem(body);
  if (notPlain !== null) throw new InvalidBundleError(`payload is not plain msgpack: ${notPlain}`);
  let payload: unknown;
  try {
    payload = unpackr.unpack(body);
  } catch (error) {
    throw new InvalidBundleError(`payload is not valid msgpack (${error instanceof Error ? error.message : String(error)})`);
  }
  // A plain msgpack value of n bytes holds at most n values (plain-msgpack.ts): the walk's budget.
  const problem = validatePayload(payload, body.length);
  if (problem !== null) throw new InvalidBundleError(`payload has the wrong shape: ${problem}`);
  return payload as BundlePayload;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
