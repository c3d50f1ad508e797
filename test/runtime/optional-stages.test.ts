// The optional stages (runtime/stages.ts): a bundle without templates loads and
// answers without the template chunk, an Npc with them is never made without them, and registering a
// stage changes nothing for a bundle that does not use it. The order of the tests matters: this
// file's module registry starts empty (vitest isolates test files), and each test registers more.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { loadNpc, Npc } from "../../runtime/index.js";
import { npcIr } from "./ir-fixture.js";

const plain = compileNpc(
  npcIr({
    intents: [
      { id: "greet", inputs: ["hello there", "good morning"], outputs: ["Hi."] },
      { id: "files", inputs: ["list my files", "show the files"], outputs: ["Here they are."] },
    ],
  }),
).bytes;
const words = fc.constantFrom("hello", "there", "list", "my", "files", "show", "the", "good", "morning", "copy", "then", "it");
const message = fc.oneof(fc.constantFrom("hello there", "list my files"), fc.array(words, { minLength: 1, maxLength: 6 }).map((w) => w.join(" ")));
const messages = fc.array(message, { minLength: 1, maxLength: 6 });

/** Every answer to `sequence` in one session, as JSON. */
async function answers(bytes: Uint8Array, sequence: string[]): Promise<string> {
  const session = (await loadNpc(bytes)).session({ seed: 3 });
  return JSON.stringify(sequence.map((message) => session.process(message)));
}

const templated = compileNpc(
  npcIr({
    types: { number: "^\\d+$" },
    synonyms: { vocab_copy: ["copy"], vocab_take: ["take"] },
    intents: [
      { id: "copy", paths: ["vocab_copy rest:string"], outputs: ["Copying."] },
      { id: "take", paths: ["vocab_take count:number"], outputs: ["Taking."] },
    ],
  }),
);

describe("optional stages", () => {
  let sequences: string[][] = [];
  let answersBefore: string[] = [];

  it("a bundle without templates or types loads and answers without the template chunk", async () => {
    sequences = fc.sample(messages, { numRuns: 40, seed: 15 });
    answersBefore = await Promise.all(sequences.map((sequence) => answers(plain, sequence)));
    expect(answersBefore.join()).toContain('"exact match"');
    // Those loads registered no stage, so a payload with templates cannot make an Npc yet.
    expect(() => new Npc(templated.payload)).toThrow(
      "this bundle has templates, whose matcher is loaded apart: load it with loadNpc, or await loadStages(payload) first",
    );
  });

  it("loadNpc registers the stages a bundle uses before it answers", async () => {
    const session = (await loadNpc(templated.bytes)).session();
    expect(session.process("copy notes").status).toBe("template match");
    expect(session.process("take 12").slots).toEqual({ count: "12" });
    expect(() => new Npc(templated.payload)).not.toThrow();
  });

  it("registering the stages changes no answer of a bundle that does not use them", async () => {
    const after = await Promise.all(sequences.map((sequence) => answers(plain, sequence)));
    expect(after).toEqual(answersBefore);
  });
});
