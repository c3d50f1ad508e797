// The SHA-256 a bundle is checked with: `crypto.subtle` when the host has it (Node 20, browsers in
// secure contexts), which is native and several times faster on large payloads; else the small
// implementation in sha256.ts, imported only then, so hosts with Web Crypto never load it.

interface SubtleDigest {
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

/** SHA-256 through Web Crypto when present, else the synchronous implementation. */
export async function digestSha256(data: Uint8Array): Promise<Uint8Array> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleDigest } }).crypto?.subtle;
  if (subtle) {
    try {
      return new Uint8Array(await subtle.digest("SHA-256", data));
    } catch {
      // Some hosts expose `subtle` but refuse it (insecure browser contexts): fall through.
    }
  }
  const { sha256 } = await import("./sha256.js");
  return sha256(data);
}
