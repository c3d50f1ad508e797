// The stages reuse scratch buffers per model (probabilistic-scratch.ts, the fuzzy index's marks,
// the OSA rows): whatever one message leaves in them must not change the next one's answer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadNpc } from "../../runtime/index.js";
import { repoRoot } from "../support/repo-root.js";

const npc = await loadNpc(readFileSync(join(repoRoot, "dist-npcs/termy.npc")));
const inputs = npc.payload.intents.map((intent) => intent.example).filter((example): example is string => example !== null);
/** The NPC's own phrasings, typos of them (every stage is reached), and arbitrary text. */
const message = fc.oneof(
  fc.constantFrom(...inputs),
  fc.tuple(fc.constantFrom(...inputs), fc.nat()).map(([text, at]) => {
    const i = at % Math.max(1, text.length - 1);
    return text.slice(0, i) + text.slice(i + 1, i + 2) + text.slice(i, i + 1) + text.slice(i + 2);
  }),
  fc.array(fc.constantFrom("delete", "dleete", "files", "the", "zorbly", "list", "folder", "please", "directory", "copy", "a.txt", "then"), { minLength: 1, maxLength: 8 }).map((w) => w.join(" ")),
  fc.string({ maxLength: 80 }),
);

const answer = (text: string) => npc.session({ seed: 5 }).process(text);

describe("scratch buffers reused across messages", () => {
  it("answer message A, then B, then A: A's answer both times", () => {
    fc.assert(
      fc.property(message, message, (a, b) => {
        const first = answer(a);
        answer(b);
        expect(answer(a)).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  it("a long message between two short ones leaves the grown buffers harmless", () => {
    const short = inputs[0]!;
    const before = answer(short);
    answer(Array.from({ length: 120 }, (_, i) => `${inputs[i % inputs.length]} zorbly${i}`).join(" ").slice(0, 480));
    expect(answer(short)).toEqual(before);
  });
});
