// Format 11.0: an intent's category and example are heads (BundleIntents.labels), read without its
// record, so a rejection's suggestions decode no record (runtime/bundle/intent-records.ts).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { frameBundle, packPayload, storedIntents, storedPayload } from "../../runtime/bundle/encode.js";
import type { BundleIntent } from "../../runtime/bundle/bundle-types.js";
import { loadNpc } from "../../runtime/index.js";
import { shellNpc } from "./ir-fixture.js";
import { refusalOf } from "../support/refusal.js";
import { plainIntents } from "../support/plain-intents.js";

const built = compileNpc(shellNpc());
const intents = plainIntents(built.payload.intents) as unknown as BundleIntent[];

/** The built payload's bundle with its intents' records packed by `packRecord`, then `edit`ed. */
function bundleWith(packRecord?: (record: object) => Uint8Array, edit: (stored: ReturnType<typeof storedIntents>) => void = () => {}): Uint8Array {
  const stored = storedPayload(built.payload);
  stored.intents = packRecord ? storedIntents(intents, packRecord) : stored.intents;
  edit(stored.intents);
  return frameBundle(packPayload(stored));
}

describe("intent labels (category and example)", () => {
  it("read back as written: null, empty, shared and distinct strings (property)", async () => {
    const label = fc.option(fc.oneof(fc.constantFrom("", "files", "Files", "é"), fc.string()), { nil: null });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(label, label), { minLength: intents.length, maxLength: intents.length }), async (labels) => {
        const relabelled = intents.map((intent, i) => ({ ...intent, category: labels[i]![0], example: labels[i]![1] }));
        const stored = storedPayload({ ...built.payload, intents: relabelled });
        const npc = await loadNpc(frameBundle(packPayload(stored)));
        expect(npc.payload.intents.map((intent) => [intent.category, intent.example])).toEqual(labels);
        // Each string once.
        expect(stored.intents.labels.length).toBe(new Set(labels.flat().filter((l) => l !== null)).size);
      }),
      { numRuns: 40 },
    );
  });

  it("a rejection's suggestions read no record: they come out whole when every record is malformed", async () => {
    const message = "show the archive";
    const fine = (await loadNpc(built.bytes)).session().process(message);
    expect(fine.status).toBe("rejected");
    expect(fine.related.length).toBeGreaterThan(0);
    const broken = await loadNpc(bundleWith(() => Uint8Array.of(0xc1)));
    const answer = broken.session().process(message);
    expect(answer.notice).toBeUndefined();
    expect(answer.related).toEqual(fine.related);
    // An answer does read its record: the malformed one is named.
    const matched = broken.session().process(intents.find((intent) => intent.example !== null && intent.parent === null)!.example!);
    expect(matched.notice).toMatch(/its record/);
  });

  it("refuses a label index past the labels (their length means none)", async () => {
    const past = bundleWith(undefined, (stored) => void (stored.category[1] = stored.labels.length + 1));
    expect(await refusalOf(past)).toMatch(/intents\.category\[1\]: expected an index below \d+/);
    const short = bundleWith(undefined, (stored) => void (stored.example = stored.example.subarray(1)));
    expect(await refusalOf(short)).toMatch(/intents\.example: length differs from intents\.ids/);
  });
});
