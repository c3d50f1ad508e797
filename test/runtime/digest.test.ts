// The bundle hash without Web Crypto: digest.ts then loads the synchronous SHA-256 on demand.
import { afterEach, describe, expect, it, vi } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { digestSha256 } from "../../runtime/bundle/digest.js";
import { InvalidBundleError, loadNpc } from "../../runtime/index.js";
import { sha256, toHex } from "../../runtime/bundle/sha256.js";
import { shellNpc } from "./ir-fixture.js";

afterEach(() => vi.unstubAllGlobals());

describe("digestSha256 without crypto.subtle", () => {
  it("falls back to the synchronous implementation, and bundles still load and are checked", async () => {
    vi.stubGlobal("crypto", undefined);
    expect((globalThis as { crypto?: unknown }).crypto).toBeUndefined();
    const data = new TextEncoder().encode("abc");
    expect(toHex(await digestSha256(data))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const { bytes } = compileNpc(shellNpc());
    expect((await loadNpc(bytes)).name).toBeTruthy();
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 1]! ^= 1;
    await expect(loadNpc(corrupt)).rejects.toBeInstanceOf(InvalidBundleError);
  });

  it("falls back when crypto.subtle refuses to digest", async () => {
    vi.stubGlobal("crypto", { subtle: { digest: () => Promise.reject(new Error("insecure context")) } });
    const data = new Uint8Array([1, 2, 3]);
    expect(toHex(await digestSha256(data))).toBe(toHex(sha256(data)));
  });
});
