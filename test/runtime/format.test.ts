import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle, frameBundle, packPayload, storedPayload, type PackedPayload } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { plainIntents } from "../support/plain-intents.js";
import { FORMAT_MAJOR, HEADER_SIZE, decodeBundle } from "../../runtime/bundle/format.js";
import { decodePlainMsgpack as decodePlain } from "../../runtime/bundle/plain-msgpack.js";
import { loadNpc, type ShellTemplate } from "../../runtime/index.js";
import { digestSha256 } from "../../runtime/bundle/digest.js";
import { sha256, toHex } from "../../runtime/bundle/sha256.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { clonePayload } from "../support/clone-payload.js";

const built = compileNpc(shellNpc());

/** Bundle bytes (valid header and hash) of `value` written by the bundle writer. */
function bundleOf(value: unknown): Uint8Array {
  return frameBundle(packPayload(value));
}

/** Bundle bytes of a packed payload after `edit` (valid header and hash). */
function editedBundle(value: unknown, edit: (packed: PackedPayload, refs: number[]) => void): Uint8Array {
  const packed = packPayload(value);
  // Where each section reference's data (kind, offset, length) starts in the msgpack part.
  const refs: number[] = [];
  for (let i = 0; i + 12 <= packed.msgpack.length; i++) if (packed.msgpack[i] === 0xc7 && packed.msgpack[i + 1] === 9 && packed.msgpack[i + 2] === 0x53) refs.push(i + 3);
  edit(packed, refs);
  return frameBundle(packed);
}

describe("sha256", () => {
  it("matches known digests and Web Crypto", async () => {
    expect(toHex(sha256(new Uint8Array()))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(toHex(sha256(new TextEncoder().encode("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (data) => {
        expect(toHex(sha256(data))).toBe(toHex(await digestSha256(data)));
      }),
      { numRuns: 100 },
    );
  });
});

describe("bundle header and payload", () => {
  it("starts with the magic, the version, the length and the payload hash", () => {
    const { bytes } = built;
    expect([...bytes.subarray(0, 4)]).toEqual([0x4e, 0x50, 0x43, 0x00]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint16(4)).toBe(FORMAT_MAJOR);
    expect(view.getUint32(8)).toBe(bytes.length - HEADER_SIZE);
    expect(toHex(bytes.subarray(12, 44))).toBe(toHex(sha256(bytes.subarray(HEADER_SIZE))));
  });

  it("round-trips: what is loaded equals what was built", async () => {
    const payload = await decodeBundle(built.bytes);
    // A loaded intent reads its record on first use: its fields, read one by one, are the built ones.
    const plain = (p: BundlePayload) => ({ ...p, intents: plainIntents(p.intents) });
    expect(JSON.parse(JSON.stringify(plain(payload), bytesAsArrays))).toEqual(JSON.parse(JSON.stringify(plain(built.payload), bytesAsArrays)));
    expect(encodeBundle(payload)).toEqual(built.bytes);
  });

  it("refuses wrong magic, other major versions, length and hash mismatches with clear messages", async () => {
    const wrongMagic = built.bytes.slice();
    wrongMagic[0] = 0x50;
    expect(await refusalOf(wrongMagic)).toMatch(/magic/);
    const future = built.bytes.slice();
    new DataView(future.buffer).setUint16(4, FORMAT_MAJOR + 1);
    expect(await refusalOf(future)).toMatch(new RegExp(`version ${FORMAT_MAJOR + 1}\\.0 is newer than this runtime reads \\(${FORMAT_MAJOR}\\.x\\); update ndfc`));
    // An older major (5.x keeps the intents as one msgpack list) is rebuilt, not guessed at.
    for (const major of [3, FORMAT_MAJOR - 1]) {
      const older = built.bytes.slice();
      new DataView(older.buffer).setUint16(4, major);
      expect(await refusalOf(older)).toMatch(new RegExp(`version ${major}\\.0 is older than this runtime reads \\(${FORMAT_MAJOR}\\.x\\); rebuild it with \`ndfc build\``));
    }
    expect(await refusalOf(built.bytes.subarray(0, built.bytes.length - 1))).toMatch(/truncated or padded/);
    expect(await refusalOf(built.bytes.subarray(0, 10))).toMatch(/shorter than the 44-byte header/);
    const flipped = built.bytes.slice();
    flipped[flipped.length - 5]! ^= 0xff;
    expect(await refusalOf(flipped)).toMatch(/SHA-256/);
    // Corruption that also breaks the decode (which runs while the hash is computed) is still named as corruption.
    for (const [at, value] of [[HEADER_SIZE + 4, 0xc1], [HEADER_SIZE + 3, 0xff]] as const) {
      const broken = built.bytes.slice();
      broken[at] = value;
      expect(await refusalOf(broken)).toMatch(/: payload SHA-256 does not match the header \(the file is corrupt\)$/);
    }
  });

  it("accepts a newer minor version of the same major", async () => {
    const newer = built.bytes.slice();
    new DataView(newer.buffer).setUint16(6, 9);
    await expect(loadNpc(newer)).resolves.toBeDefined();
  });

  it("refuses undecodable payloads and payloads of the wrong shape, even with a valid hash", async () => {
    const raw = (msgpack: Uint8Array) => frameBundle({ msgpack, sections: new Uint8Array(0) });
    expect(await refusalOf(raw(Uint8Array.of(0xc1)))).toMatch(/not plain msgpack: byte 0: 0xc1 is not a msgpack value/);
    expect(await refusalOf(raw(Uint8Array.of(0xc4, 0x01, 0x00)))).toMatch(/byte 0: msgpack bin: a bundle's byte tables are sections/);
    expect(await refusalOf(raw(Uint8Array.of(0x81, 0xa9, ...new TextEncoder().encode("__proto__"), 0xc0)))).toMatch(/byte 1: a map key __proto__/);
    expect(await refusalOf(bundleOf([1, 2, 3]))).toMatch(/wrong shape: payload: expected an object/);
    const pack = (payload: BundlePayload) => bundleOf(storedPayload(payload));
    const badIndex = clonePayload(built.payload);
    badIndex.exact.targets[0] = 9999;
    expect(await refusalOf(pack((badIndex)))).toMatch(/exact\.targets\[0\]: expected an index below/);
    const backwards = clonePayload(built.payload);
    backwards.automaton[1]!.skip.push(0);
    expect(await refusalOf(pack((backwards)))).toMatch(/skip edges must point to a later state/);
    // A shell command's placeholders must each say where they sit, in a known quoting.
    type Tool = { o: [string, { o: [string, { sh?: ShellTemplate }][] }][] };
    const commandOf = (payload: typeof built.payload) => {
      const commands = payload.intents.flatMap((i) => i.tools.flatMap((tool) => (tool as Tool).o.filter(([key]) => key === "arguments").flatMap(([, args]) => args.o)));
      return { sh: commands.find(([key, value]) => key === "command" && value.sh !== undefined && value.sh.places.length > 0)![1].sh! };
    };
    // Inside an intent's record: refused when the record is read, at load with verify "full".
    const missingPlace = clonePayload(built.payload);
    commandOf(missingPlace).sh.places.pop();
    expect(await refusalOf(pack(missingPlace), { verify: "full" })).toMatch(/its record has the wrong shape: tools\[0\]\.o\[\d+\]\[1\]\.o\[\d+\]\[1\]\.sh: segments and places do not fit/);
    const unknownQuoting = clonePayload(built.payload);
    (commandOf(unknownQuoting).sh.places[0] as { context: string }).context = "raw";
    expect(await refusalOf(pack(unknownQuoting), { verify: "full" })).toMatch(/places\[0\]\.context: expected a quote context/);
  });

  it("refuses the first bad value of a section, wherever it is: not finite, an index past its table, rows going down (property)", async () => {
    const pack = (payload: BundlePayload) => bundleOf(storedPayload(payload));
    const { weight, postings } = built.payload.matching;
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.constantFrom(NaN, Infinity, -Infinity), fc.nat(), async (at, bad, row) => {
        const notFinite = clonePayload(built.payload);
        const i = at % weight.length;
        notFinite.matching.weight[i] = bad;
        expect(await refusalOf(pack(notFinite))).toContain(`matching.weight[${i}]: expected a finite number`);
        const pastTable = clonePayload(built.payload);
        const j = at % postings.items.length;
        pastTable.matching.postings.items[j] = built.payload.inputs.intent.length;
        expect(await refusalOf(pack(pastTable))).toContain(`matching.postings.items[${j}]: expected an index below ${built.payload.inputs.intent.length}`);
        const descending = clonePayload(built.payload);
        const starts = descending.matching.postings.starts;
        const k = 1 + (row % (starts.length - 2));
        starts[k] = starts[k + 1]! + 1;
        expect(await refusalOf(pack(descending))).toContain(`matching.postings.starts: not ascending at ${k + 1}`);
      }),
      { numRuns: 30 },
    );
  });

  it("throws only InvalidBundleError on flipped, truncated or random bytes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.record({ at: fc.nat(), value: fc.integer({ min: 1, max: 255 }) }).map(({ at, value }) => {
            // Bytes 6-7 hold the minor version, which a reader accepts whatever its value.
            const bytes = built.bytes.slice();
            const position = at % bytes.length;
            bytes[position === 6 || position === 7 ? position + 2 : position]! ^= value;
            return bytes;
          }),
          fc.nat().map((n) => built.bytes.slice(0, n % built.bytes.length)),
        ),
        async (bytes) => {
          await refusalOf(bytes);
        },
      ),
      { numRuns: 200 },
    );
  });
});

function bytesAsArrays(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? Array.from(value) : value;
}

describe("section sizes", () => {
  it("add up to the payload, within msgpack's map framing and the sections' alignment padding", async () => {
    const { sectionSizes } = await import("../../runtime/bundle/encode.js");
    const sizes = Object.values(sectionSizes(built.payload));
    const keys = Object.keys(built.payload).reduce((sum, key) => sum + key.length + 1, 0);
    // The payload: msgpack length (4), map header (3), keys, values, then at most 7 bytes of padding per field and before the area.
    const framing = 4 + 3 + keys;
    const payloadBytes = built.bytes.length - HEADER_SIZE;
    const total = sizes.reduce((a, b) => a + b, 0) + framing;
    expect(total).toBeLessThanOrEqual(payloadBytes);
    expect(total).toBeGreaterThanOrEqual(payloadBytes - 7 * (sizes.length + 1));
  });
});

describe("typed-array sections", () => {
  const tables = { a: Float64Array.of(0.5, -1e300, 3), b: Uint32Array.of(1, 2 ** 32 - 1), c: Uint8Array.of(7), d: Int8Array.of(-3, 4) };

  it("come back as views of the bundle's bytes, equal to what was written, each aligned", async () => {
    const bytes = encodeBundle({ ...built.payload, fuzzy: { hashes: Uint32Array.of(5, 9), words: Uint32Array.of(0, 1), buckets: Uint32Array.of(0, 2, 2) } });
    const payload = await decodeBundle(bytes);
    expect(payload.fuzzy.hashes).toBeInstanceOf(Uint32Array);
    expect([...payload.fuzzy.hashes]).toEqual([5, 9]);
    expect(payload.fuzzy.hashes.buffer).toBe(bytes.buffer); // a view, not a copy
    expect((bytes.byteOffset + payload.fuzzy.hashes.byteOffset) % 8).toBe(0);
    expect(payload.matching.weight).toBeInstanceOf(Float64Array);
    expect([...payload.matching.weight]).toEqual([...built.payload.matching.weight]);
  });

  it("round-trip any typed arrays, and the same values always give the same bytes (property)", () => {
    const kinds = [Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array] as const;
    const table = fc.tuple(fc.integer({ min: 0, max: kinds.length - 1 }), fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), { maxLength: 20 }));
    fc.assert(
      fc.property(fc.array(table, { maxLength: 6 }), (spec) => {
        const arrays = spec.map(([kind, values]) => kinds[kind]!.from(values));
        const packed = packPayload({ arrays });
        expect(packPayload({ arrays: arrays.map((a) => a.slice()) })).toEqual(packed);
        expect(packed.sections.length % 8).toBe(0);
        // Decoded alone (a payload that is not a bundle's is refused by validation, not by decoding).
        const area = new Uint8Array(packed.sections); // a fresh, aligned copy
        const decoded = decodePlain(packed.msgpack, area) as { arrays: ArrayLike<number>[] };
        expect(decoded.arrays.map((a) => [a.constructor.name, Array.from(a)])).toEqual(arrays.map((a) => [a.constructor.name, [...a]]));
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a section reference that is misaligned, overlapping, out of range, of the wrong length or of an unknown kind", async () => {
    const at = (refs: number[], k: number) => refs[k]!;
    const setU32 = (packed: PackedPayload, where: number, value: number) => new DataView(packed.msgpack.buffer).setUint32(where, value, true);
    const getU32 = (packed: PackedPayload, where: number) => new DataView(packed.msgpack.buffer).getUint32(where, true);
    const cases: [string, (packed: PackedPayload, refs: number[]) => void, RegExp][] = [
      ["misaligned", (p, r) => setU32(p, at(r, 1) + 1, getU32(p, at(r, 1) + 1) + 4), /section at \d+ is not aligned to 8 bytes/],
      ["overlapping", (p, r) => setU32(p, at(r, 1) + 1, 0), /section at 0 overlaps the one before it \(which ends at 24\)/],
      ["out of range", (p, r) => setU32(p, at(r, 3) + 5, 1000), /section of 1000 bytes at \d+ runs past the \d+-byte section area/],
      ["of the wrong length", (p, r) => setU32(p, at(r, 0) + 5, 20), /section of 20 bytes is not a whole number of 8-byte Float64Array values/],
      ["of an unknown kind", (p, r) => void (p.msgpack[at(r, 2)] = 8), /section kind 8 is not one of the 8 known/],
      ["leaving bytes over", (p) => void (p.sections = Uint8Array.from([...p.sections, ...new Uint8Array(8)])), /the section area has \d+ bytes, its sections end at \d+/],
    ];
    for (const [what, edit, reason] of cases) {
      expect(await refusalOf(editedBundle(tables, edit)), what).toMatch(new RegExp(`not plain msgpack: .*${reason.source}`));
    }
  });
});
