// Issue 13: 20,000 hostile bundles with a valid SHA-256 (bench/hostile-payloads.ts mutates
// datasets/example's payload). Each is refused with InvalidBundleError and nothing else, or it
// loads and answers the 100 messages of hostileMessages without a throw, caught or not (the
// session answers an error it catches with an "internal error" note: that fails here too). Time per message is
// measured by bench/hostile-bundles.ts, not here.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOSTILE_SEED, examplePayload, hostileMessages, internalErrorOf, mutatedBundle, mutationsArbitrary } from "../../bench/hostile-payloads.js";
import { explain } from "../../runtime/explain.js";
import { InvalidBundleError, loadNpc } from "../../runtime/index.js";
import { repoRoot } from "../support/repo-root.js";

const base = examplePayload(repoRoot);
const messages = hostileMessages(base);

describe("hostile bundles", () => {
  it("are refused with InvalidBundleError, or load and answer every message", async () => {
    let loaded = 0;
    const reasons = new Set<string>();
    await fc.assert(
      fc.asyncProperty(mutationsArbitrary, async (mutations) => {
        const bytes = mutatedBundle(base, mutations);
        let npc;
        try {
          npc = await loadNpc(bytes);
        } catch (error) {
          if (!(error instanceof InvalidBundleError)) throw error;
          reasons.add((error as Error).message.replace(/\d+/g, "N").slice(0, 60));
          return;
        }
        loaded++;
        const session = npc.session({ seed: 13 });
        for (const message of messages) expect(internalErrorOf(session.process(message)), message).toBeNull();
        // The explain trace walks the automaton's paths: it too must finish on what loads.
        expect(internalErrorOf(session.process(messages[loaded % messages.length]!, { explain }))).toBeNull();
      }),
      { seed: HOSTILE_SEED, numRuns: 20_000 },
    );
    // Both outcomes are exercised, and refusals say many different things.
    expect(loaded).toBeGreaterThan(1_000);
    expect(reasons.size).toBeGreaterThan(30);
  }, 300_000);
});
