// The `.npc` bundle format, its single definition. Layout:
//   0   4  magic "NPC\0"
//   4   2  format major version (u16, big-endian)
//   6   2  format minor version (u16, big-endian)
//   8   4  payload length in bytes (u32, big-endian): everything from byte 44 on
//   12 32  SHA-256 of the payload
//   44  4  length M of the msgpack part (u32, little-endian)
//   48  M  msgpack: the payload's structured part (BundlePayload), typed arrays as section references
//   …      zero padding to a multiple of 8 bytes from the file's start
//   …      the section area: the typed arrays' little-endian bytes (sections.ts)
// A reader accepts any minor version of its major version (minor versions only add fields).
// 13.0: the vocab's phrases are a phrase table like the sanitizer's (BundleVocab: phrases, phraseTags,
//      slots), not [tag, words] lists walked into a Map at load, and the word lists are string
//      tables with offset sections (BundleWordLists, word-lists.ts), not msgpack lists of strings
//      decoded into arrays (corpus TERMy: 920 strings, 916 arrays); a 12.x reader cannot find them.
// 12.0: the sanitizer's phrases are a string table, their kinds and a hash table of their first
//      words sections (phrase-table.ts), not msgpack lists of words walked into a Map at load
//      (TERMy's 700 expletives were a third of its load's values); an 11.x reader cannot find them.
// 11.0: the intents' categories and examples are a string table and two u32 sections of the
//      intents' heads (BundleIntents.labels), not fields of their records: a rejection's
//      suggestions read no record. A 10.x reader finds no category or example in a record.
// 10.0: intent ids are a string table (string-table.ts; in intent order, read by index), decoded
//      when first read, not a msgpack list of strings decoded at load (20,000 strings at 100k
//      inputs), and a type program's classes and opcodes are sections (StoredTypeProgram); a 9.x
//      reader cannot find them.
// 9.0: expansion rules are sub-automata lowered once: two more edge rows per state, calls [rule
//      start, return state] and rule ends [rule start] (automaton-frames.ts); an 8.x reader would
//      misread the rows, so the major version says it.
// 8.0: the automaton is a DAG: a pattern's groups branch and meet again at a join state, which
//      has several ways in. Same encoding as 7.0, but a 7.x reader refuses a join (it accepted
//      only a forest), so a bundle with one must not claim to be 7.x.
// 7.0: the big sorted string lists (exact-table keys, lexicon words, stems, action words) are
//      string tables (string-table.ts: UTF-8 bytes and u32 offsets, two sections; strings
//      decoded on first read), not msgpack strings, which a 6.x reader cannot find.
// 6.0: intents are stored as heads (ids and three sections) and one plain-msgpack record per
//      intent, read on first use (intent-records.ts); 5.x stored them as one msgpack list, walked
//      at load, which a 6.x reader cannot find; the automaton's edges are rows of two u32
//      sections (automaton-store.ts), not msgpack lists per state.
// 5.0: per-intent input lists and per-word vocab tags are BundleRows, exact-table targets and
//      input intents are sections (4.x: msgpack lists, walked at load).
// 4.0: the big tables are typed-array sections read as views (no copy, no msgpack walk), the
//      msgpack part is decoded by plain-msgpack.ts, not msgpackr (a 3.x reader cannot find them).
// 3.0: list and number slots are automaton edges (a 2.x reader would silently skip them).
// Writing is in encode.ts, apart, so that a reader does not ship the writer or the synchronous SHA-256.

import type { BundlePayload, BundleState, StoredPayload } from "./bundle-types.js";
import { InvalidBundleError } from "./invalid-bundle.js";
import { readIntents, verifyIntents } from "./intent-records.js";
import { decodeChecked } from "./plain-msgpack.js";
import { alignUp, HOST_IS_LITTLE_ENDIAN, SECTION_ALIGN } from "./sections.js";
import { validatePayload } from "./validate-payload.js";
import { digestSha256 } from "./digest.js";
import { decodedFrom, hasTemplates } from "../stages.js";

export const BUNDLE_MAGIC = Uint8Array.of(0x4e, 0x50, 0x43, 0x00);
export const FORMAT_MAJOR = 14;
export const FORMAT_MINOR = 0;
export const HEADER_SIZE = 44;


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
  if (BUNDLE_MAGIC.some((byte, i) => bytes[i] !== byte)) throw new InvalidBundleError("wrong magic bytes (not an .npc file)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = view.getUint16(4);
  const minor = view.getUint16(6);
  if (major !== FORMAT_MAJOR) {
    const reads = `this runtime reads (${FORMAT_MAJOR}.x)`;
    const fix = major < FORMAT_MAJOR ? `is older than ${reads}; rebuild it with \`ndfc build\`` : `is newer than ${reads}; update ndfc`;
    throw new InvalidBundleError(`format version ${major}.${minor} ${fix}`);
  }
  const payloadLength = view.getUint32(8);
  if (payloadLength !== bytes.length - HEADER_SIZE) {
    throw new InvalidBundleError(
      `header says the payload has ${payloadLength} bytes, the file has ${bytes.length - HEADER_SIZE} (truncated or padded)`,
    );
  }
  return { major, minor, payloadLength, sha256: bytes.slice(12, HEADER_SIZE) };
}

export { InvalidBundleError };

/**
 * How much of a bundle a load checks: "lazy" (the default) every table read at load, each intent's
 * record when it is first read; "full" every record too, at load (inspection, a server's start-up).
 */
export type Verify = "lazy" | "full";

/**
 * Checks header and hash, decodes and validates the payload (its intents' records as `verify`
 * says). Throws only InvalidBundleError (and what `prepare` throws). The payload's typed arrays and
 * intent records are views of `bytes` (when aligned in memory): do not reuse them. `prepare` runs on
 * the stored payload as soon as its msgpack part is decoded, before its intents and automaton are
 * read (loadNpc imports its optional stages there, so the chunks load while this thread reads), and
 * is awaited after the hash check, so a corrupt file is still refused as corrupt first.
 */
export async function decodeBundle(bytes: Uint8Array, verify: Verify = "lazy", prepare?: (stored: StoredPayload) => Promise<unknown>): Promise<BundlePayload> {
  const header = readHeader(bytes);
  const body = bytes.subarray(HEADER_SIZE);
  // Started first: Web Crypto hashes on a worker thread while this one decodes. Decoding bytes
  // not yet known to match is no new exposure (a hostile writer can give a valid hash), and the
  // hash is still checked before anything is returned: a corrupt file is refused as corrupt,
  // whatever its corruption broke in the decode.
  const digest = digestSha256(body);
  const decoded = decodePayload(body, verify, prepare);
  // Its failure is reported below, unless the hash fails first.
  decoded.catch(() => undefined);
  // Both are 32 bytes: a SHA-256, and the header's slice of one.
  const expected = header.sha256;
  if (!(await digest).every((byte, i) => byte === expected[i])) throw new InvalidBundleError("payload SHA-256 does not match the header (the file is corrupt)");
  return decoded;
}

/** A decoded state's lists when it has no edge: frozen, as automaton-store.ts's NO_EDGES (its twin: the template chunk imports nothing of the core's for it, which would cost the core an export). */
const NONE = Object.freeze([]) as unknown as never[];

/** The one state of an automaton without templates, as the template chunk would read it. */
const rootOnly = (): BundleState => ({ vocab: NONE, typed: NONE, strings: NONE, lists: NONE, ranges: NONE, skip: NONE, accept: NONE, calls: NONE, returns: NONE });

/**
 * Decodes and validates what every bundle has; the automaton and type programs, which only the
 * template matcher uses, are read and checked by the template chunk (bundle/template-store.ts),
 * imported for a bundle that has them (stages.ts decides, from the stored payload). Async, so
 * that what it throws is a rejection, but it runs at once, up to the template chunk's arrival.
 */
async function decodePayload(body: Uint8Array, verify: Verify, prepare?: (stored: StoredPayload) => Promise<unknown>): Promise<BundlePayload> {
  if (!HOST_IS_LITTLE_ENDIAN) throw new InvalidBundleError("bundle sections are little-endian and this host is big-endian");
  if (body.length < 4) throw new InvalidBundleError("the payload is too short to hold the length of its msgpack part");
  const msgpackLength = new DataView(body.buffer, body.byteOffset).getUint32(0, true);
  const areaStart = alignUp(HEADER_SIZE + 4 + msgpackLength) - HEADER_SIZE;
  if (areaStart > body.length) {
    throw new InvalidBundleError(`the msgpack part (${msgpackLength} bytes) and its padding run past the ${body.length}-byte payload`);
  }
  let area = body.subarray(areaStart);
  // Views need aligned memory: a buffer read at an odd offset is copied once (a file read or a fetch is aligned).
  if (area.byteOffset % SECTION_ALIGN !== 0) area = area.slice();
  const stored = decodeChecked(body.subarray(4, 4 + msgpackLength), area, validatePayload, (why) => new InvalidBundleError(`payload ${why}`)) as StoredPayload;
  const intents = readIntents(stored.intents);
  // Every chunk is imported now, at once, the template chunk first: its read (and framesOf) runs
  // while the others may still load, and no import waits for another or for that read.
  const [read] = await Promise.all([
    hasTemplates(stored) ? import("../match/match-template.js").then(({ readTemplates }) => readTemplates(stored, intents.length)) : { automaton: [rootOnly()], types: [] },
    prepare?.(stored),
  ]);
  // After the await: a throw between the imports and it would leave their failures unhandled.
  if (verify === "full") verifyIntents(intents);
  return decodedFrom({ ...stored, intents, ...read }, stored);
}
