// Format 14.0's typo-index buckets (BundleFuzzy.buckets): a bundle's lookups find through them what
// the compiler indexed, and buckets that are not a power of two, do not run from 0 to the number of
// hashes or go down (or hashes without a word each) are refused at load, naming the field, whatever the bundle's hash.
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { encodeBundle } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { loadNpc } from "../../runtime/index.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { clonePayload } from "../support/clone-payload.js";

const built = compileNpc(shellNpc());

/** The shell NPC's bundle with its buckets replaced by `buckets` (valid header and hash). */
function withBuckets(buckets: (payload: BundlePayload) => Uint32Array): Uint8Array {
  const payload = clonePayload(built.payload);
  payload.fuzzy.buckets = buckets(payload);
  return encodeBundle(payload);
}

describe("typo-index buckets (format 14.0)", () => {
  it("are written by the compiler and read back by a load, which corrects a typo through them", async () => {
    const { hashes, buckets } = built.payload.fuzzy;
    expect(buckets[buckets.length - 1]).toBe(hashes.length);
    const npc = await loadNpc(encodeBundle(built.payload));
    const answer = npc.session().process("show dsik usage");
    expect(answer.witness.flatMap((w) => w.items)).toContainEqual({ word: "dsik", kind: "fuzzy", matched: "disk" });
  });

  it("refuse a bucket count that is not a power of two of at least 2", async () => {
    // 1, 3 and 5 buckets, each from 0 to the number of hashes
    for (const length of [2, 4, 6]) {
      const bytes = withBuckets(({ fuzzy }) => new Uint32Array(length).fill(fuzzy.hashes.length, 1));
      expect(await refusalOf(bytes)).toMatch(/fuzzy\.buckets: not 2\^k \+ 1 entries \(k >= 1\)/);
    }
  });

  it("refuse starts that do not run from 0 to the number of hashes, or go down", async () => {
    const n = built.payload.fuzzy.hashes.length;
    expect(await refusalOf(withBuckets(() => Uint32Array.of(0, 0, n + 1)))).toMatch(/fuzzy\.buckets: not from 0 to the number of items/);
    expect(await refusalOf(withBuckets(() => Uint32Array.of(1, 1, n)))).toMatch(/fuzzy\.buckets: not from 0 to the number of items/);
    expect(await refusalOf(withBuckets(() => Uint32Array.of(0, n, 1, n, n)))).toMatch(/fuzzy\.buckets: not ascending at 2/);
  });

  it("go with hashes that have a word each: a words section of another length is refused", async () => {
    const payload = clonePayload(built.payload);
    payload.fuzzy.words = payload.fuzzy.words.slice(1);
    expect(await refusalOf(encodeBundle(payload))).toMatch(/fuzzy\.words: length differs from fuzzy\.hashes/);
  });

  it("refuse buckets that are not a Uint32Array section", async () => {
    const bytes = withBuckets(({ fuzzy }) => Float64Array.of(0, 0, fuzzy.hashes.length) as unknown as Uint32Array);
    expect(await refusalOf(bytes)).toMatch(/fuzzy\.buckets: expected a Uint32Array section/);
  });
});
