import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle } from "../../runtime/encode.js";
import { FORMAT_MAJOR, FORMAT_MINOR, HEADER_SIZE, decodeBundle } from "../../runtime/format.js";
import { loadNpc, type ShellTemplate } from "../../runtime/index.js";
import { digestSha256 } from "../../runtime/digest.js";
import { sha256, toHex } from "../../runtime/sha256.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";

const built = compileNpc({ ir: shellNpc() });

function withHeader(payloadBytes: Uint8Array, patch: (view: DataView) => void = () => {}): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE + payloadBytes.length);
  out.set(built.bytes.subarray(0, HEADER_SIZE));
  out.set(payloadBytes, HEADER_SIZE);
  const view = new DataView(out.buffer);
  view.setUint32(8, payloadBytes.length);
  out.set(sha256(payloadBytes), 12);
  patch(view);
  return out;
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
    expect(JSON.parse(JSON.stringify(payload, bytesAsArrays))).toEqual(JSON.parse(JSON.stringify(built.payload, bytesAsArrays)));
    expect(encodeBundle(payload)).toEqual(built.bytes);
  });

  it("refuses wrong magic, other major versions, length and hash mismatches with clear messages", async () => {
    const wrongMagic = built.bytes.slice();
    wrongMagic[0] = 0x50;
    expect(await refusalOf(wrongMagic)).toMatch(/magic/);
    const future = built.bytes.slice();
    new DataView(future.buffer).setUint16(4, FORMAT_MAJOR + 1);
    expect(await refusalOf(future)).toMatch(new RegExp(`version ${FORMAT_MAJOR + 1}\\.${FORMAT_MINOR} is not supported`));
    // 2.x bundles have no list or number edges: a 3.x reader would answer them, but differently.
    const older = built.bytes.slice();
    new DataView(older.buffer).setUint16(4, 2);
    expect(await refusalOf(older)).toMatch(new RegExp(`version 2\\.${FORMAT_MINOR} is not supported \\(this runtime reads 3\\.x\\); rebuild the bundle`));
    expect(await refusalOf(built.bytes.subarray(0, built.bytes.length - 1))).toMatch(/truncated or padded/);
    expect(await refusalOf(built.bytes.subarray(0, 10))).toMatch(/shorter than the 44-byte header/);
    const flipped = built.bytes.slice();
    flipped[flipped.length - 5]! ^= 0xff;
    expect(await refusalOf(flipped)).toMatch(/SHA-256/);
  });

  it("accepts a newer minor version of the same major", async () => {
    const newer = built.bytes.slice();
    new DataView(newer.buffer).setUint16(6, 9);
    await expect(loadNpc(newer)).resolves.toBeDefined();
  });

  it("refuses undecodable payloads and payloads of the wrong shape, even with a valid hash", async () => {
    expect(await refusalOf(withHeader(Uint8Array.of(0xc1)))).toMatch(/not plain msgpack: byte 0: 0xc1 is not a msgpack value/);
    const { pack } = await import("msgpackr");
    expect(await refusalOf(withHeader(pack([1, 2, 3])))).toMatch(/wrong shape: payload: expected an object/);
    const badIndex = structuredClone(built.payload);
    badIndex.exact.targets[0] = 9999;
    expect(await refusalOf(withHeader(pack(badIndex)))).toMatch(/exact\.targets\[0\]: expected an index below/);
    const backwards = structuredClone(built.payload);
    backwards.automaton[1]!.skip.push(0);
    expect(await refusalOf(withHeader(pack(backwards)))).toMatch(/skip edges must point to a later state/);
    // A shell command's placeholders must each say where they sit, in a known quoting.
    type Tool = { o: [string, { o: [string, { sh?: ShellTemplate }][] }][] };
    const commandOf = (payload: typeof built.payload) => {
      const commands = payload.intents.flatMap((i) => i.tools.flatMap((tool) => (tool as Tool).o.filter(([key]) => key === "arguments").flatMap(([, args]) => args.o)));
      return { sh: commands.find(([key, value]) => key === "command" && value.sh !== undefined && value.sh.places.length > 0)![1].sh! };
    };
    const missingPlace = structuredClone(built.payload);
    commandOf(missingPlace).sh.places.pop();
    expect(await refusalOf(withHeader(pack(missingPlace)))).toMatch(/tools\[0\]\.o\[\d+\]\[1\]\.o\[\d+\]\[1\]\.sh: segments and places do not fit/);
    const unknownQuoting = structuredClone(built.payload);
    (commandOf(unknownQuoting).sh.places[0] as { context: string }).context = "raw";
    expect(await refusalOf(withHeader(pack(unknownQuoting)))).toMatch(/places\[0\]\.context: expected a quote context/);
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
  it("add up to the payload, within msgpack's map framing", async () => {
    const { sectionSizes } = await import("../../runtime/encode.js");
    const sizes = Object.values(sectionSizes(built.payload));
    const keys = Object.keys(built.payload).reduce((sum, key) => sum + key.length + 1, 0);
    expect(sizes.reduce((a, b) => a + b, 0) + keys + 3).toBe(built.bytes.length - HEADER_SIZE);
  });
});
