// Issue 13: 20,000 hostile bundles with a valid SHA-256 (bench/hostile-payloads.ts mutates
// datasets/example's payload). Each is refused with InvalidBundleError and nothing else, or it
// loads and answers the 100 messages of hostileMessages without a throw, caught or not (the
// session answers an error it catches with an "internal error" note: that fails here too). Time per message is
// measured by bench/hostile-bundles.ts, not here.
// Issue 15: intent records are checked when first read. A bundle that loads lazily but that
// `verify: "full"` refuses has a malformed record: its answers may be rejections naming the
// intent (notice "invalid .npc bundle: intent …"), never a throw; one that passes the full check
// answers without any.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOSTILE_SEED, examplePayload, hostileMessages, internalErrorOf, invalidRecordOf, mutatedBundle, mutationsArbitrary } from "../../bench/hostile-payloads.js";
import { explain } from "../../runtime/explain.js";
import { InvalidBundleError, loadNpc } from "../../runtime/index.js";
import { repoRoot } from "../support/repo-root.js";

const base = examplePayload(repoRoot);
const messages = hostileMessages(base);

describe("hostile bundles", () => {
  it("are refused with InvalidBundleError, or load and answer every message", async () => {
    let loaded = 0;
    let malformedRecords = 0;
    let answeredBroken = 0;
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
        const recordsSound = await loadNpc(bytes, { verify: "full" }).then(
          () => true,
          (error: unknown) => {
            if (!(error instanceof InvalidBundleError)) throw error;
            malformedRecords++;
            return false;
          },
        );
        const session = npc.session({ seed: 13 });
        for (const message of messages) {
          const answer = session.process(message);
          expect(internalErrorOf(answer), message).toBeNull();
          if (recordsSound) expect(invalidRecordOf(answer), message).toBeNull();
          else if (invalidRecordOf(answer) !== null) answeredBroken++;
        }
        // The explain trace walks the automaton's paths: it too must finish on what loads.
        expect(internalErrorOf(session.process(messages[loaded % messages.length]!, { explain }))).toBeNull();
      }),
      { seed: HOSTILE_SEED, numRuns: 20_000 },
    );
    // Both outcomes are exercised, and refusals say many different things.
    expect(loaded).toBeGreaterThan(1_000);
    expect(reasons.size).toBeGreaterThan(30);
    // Malformed records are reached: loaded lazily, refused by the full check, answered as rejections.
    expect(malformedRecords).toBeGreaterThan(20);
    expect(answeredBroken).toBeGreaterThan(10);
  }, 300_000);
});
