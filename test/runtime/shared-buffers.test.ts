// A model's sessions share buffers that each message refills (the token pool and word resolver,
// runtime/conversation/session.ts; the template scratch's tag hits and readings,
// runtime/match/template-scratch.ts), and a session keeps one render context and generator for
// all its answers: whatever other sessions answered in between, a session's answers must be the
// ones a session of its own gives.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conversation } from "../../runtime/conversation/conversation.js";
import { explain } from "../../runtime/explain.js";
import { loadNpc } from "../../runtime/index.js";
import { Mulberry32, mulberry32 } from "../../runtime/render/rng.js";
import { repoRoot } from "../support/repo-root.js";

const npc = await loadNpc(readFileSync(join(repoRoot, "dist-npcs/termy.npc")));
const inputs = npc.payload.intents.map((intent) => intent.example).filter((example): example is string => example !== null);
const message = fc.oneof(
  fc.constantFrom(...inputs),
  fc.array(fc.constantFrom("delete", "dleete", "files", "the", "zorbly", "list", "folder", "please", "thanks", "copy", "a.txt", "then", '"my notes.txt"', "don't", "Hello!"), { minLength: 1, maxLength: 10 }).map((w) => w.join(" ")),
  fc.string({ maxLength: 60 }),
);

describe("buffers shared by a model's sessions", () => {
  it("a session answers a sequence the same with other sessions' messages in between", () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), fc.array(message, { minLength: 1, maxLength: 6 }), fc.nat(), (mine, others, seed) => {
        const alone = npc.session({ seed });
        const expected = mine.map((text) => alone.process(text));
        const session = npc.session({ seed });
        const other = npc.session({ seed: seed + 1, conversation });
        mine.forEach((text, i) => {
          other.process(others[i % others.length]!, { explain });
          expect(session.process(text)).toEqual(expected[i]);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("a message answered while another is (a Conversation asking another session) leaves the outer one's answer as it was", () => {
    fc.assert(
      fc.property(message, message, fc.nat(), (outer, inner, seed) => {
        const expected = npc.session({ seed, conversation }).process(outer);
        const asked = npc.session({ seed: seed + 1 });
        let innerAnswered = false;
        const nesting: typeof conversation = {
          converse(turn, matched, clause, read, clean, words) {
            asked.process(inner);
            innerAnswered = true;
            return conversation.converse(turn, matched, clause, read, clean, words);
          },
          remember: (turn, response, read, base) => conversation.remember(turn, response, read, base),
        };
        expect(npc.session({ seed, conversation: nesting }).process(outer)).toEqual(expected);
        return innerAnswered || expected.status === "rejected" || expected.notice !== undefined;
      }),
      { numRuns: 200 },
    );
  });
});

describe("Mulberry32", () => {
  /** The generator as it was written before it could be reseeded: a closure over an unsigned state. */
  function reference(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it("reseeded, gives the numbers of a fresh generator and of the unsigned closure", () => {
    const reused = new Mulberry32(0);
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed, before) => {
        for (let i = 0; i < before % 7; i++) reused.next();
        reused.reseed(seed);
        const fresh = mulberry32(seed);
        const old = reference(seed);
        for (let i = 0; i < 5; i++) {
          const value = old();
          expect(fresh()).toBe(value);
          expect(reused.next()).toBe(value);
        }
      }),
    );
  });
});
