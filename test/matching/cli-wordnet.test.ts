// ndfc build --wordnet: distils WordNet relatives of the dataset's words into the bundle,
// reproducibly; the runtime reads the same format.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadNpc } from "../../runtime/index.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { plainIntents } from "../support/plain-intents.js";

const repoRoot = resolve(import.meta.dirname, "../..");

describe("ndfc build --wordnet", () => {
  it("writes a reproducible bundle with more concepts that understands a WordNet synonym", async () => {
    const out = tempDir("wordnet");
    const plainPath = join(out, "plain.npc");
    const firstPath = join(out, "wn1.npc");
    const secondPath = join(out, "wn2.npc");
    expect((await runCaptured(["build", "datasets/termy", "-o", plainPath], repoRoot)).code).toBe(0);
    const first = await runCaptured(["build", "datasets/termy", "--wordnet", "-o", firstPath], repoRoot);
    expect(first.code, first.err).toBe(0);
    expect((await runCaptured(["build", "datasets/termy", "--wordnet", "-o", secondPath], repoRoot)).code).toBe(0);
    expect(readFileSync(firstPath).equals(readFileSync(secondPath))).toBe(true);

    const plain = await loadNpc(new Uint8Array(readFileSync(plainPath)));
    const wordnet = await loadNpc(new Uint8Array(readFileSync(firstPath)));
    expect(wordnet.payload.matching.conceptWeight.length).toBeGreaterThan(plain.payload.matching.conceptWeight.length);
    // Everything but the matching tables is the same bundle.
    expect(plainIntents(wordnet.payload.intents)).toEqual(plainIntents(plain.payload.intents));
    expect(wordnet.payload.exact).toEqual(plain.payload.exact);
  });

  it("documents the option", async () => {
    const help = await runCaptured(["build", "--help"], repoRoot);
    expect(help.out).toContain("--wordnet");
  });
});
