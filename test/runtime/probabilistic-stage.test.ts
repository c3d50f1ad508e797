// The probabilistic stage as a chunk (runtime/stages.ts): a bundle without inputs (templates only)
// loads and answers without it, an Npc of a bundle with inputs is never made without it, and
// registering it changes no answer of a bundle without inputs. The order of the tests matters: this
// file's module registry starts empty (vitest isolates test files), and the last test registers the stage.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { loadNpc, Npc } from "../../runtime/index.js";
import { npcIr } from "./ir-fixture.js";

const templatesOnly = compileNpc(
  npcIr({
    synonyms: { vocab_copy: ["copy"], vocab_list: ["list", "show"] },
    intents: [
      { id: "copy", paths: ["vocab_copy rest:string"], outputs: ["Copying."] },
      { id: "list", paths: ["vocab_list name:string"], outputs: ["Listing."] },
    ],
  }),
);
const withInputs = compileNpc(npcIr({ intents: [{ id: "greet", inputs: ["hello there"], outputs: ["Hi."] }] }));

const words = fc.constantFrom("copy", "list", "show", "notes", "files", "hello", "there", "cpy", "lsit", "the", "it");
const messages = fc.array(fc.array(words, { minLength: 1, maxLength: 5 }).map((w) => w.join(" ")), { minLength: 1, maxLength: 5 });

async function answers(bytes: Uint8Array, sequence: string[]): Promise<string> {
  const session = (await loadNpc(bytes)).session({ seed: 5 });
  return JSON.stringify(sequence.map((message) => session.process(message)));
}

describe("probabilistic stage chunk", () => {
  let sequences: string[][] = [];
  let before: string[] = [];

  it("a bundle without inputs loads and answers without the probabilistic chunk", async () => {
    expect(templatesOnly.payload.inputs.intent.length).toBe(0);
    sequences = fc.sample(messages, { numRuns: 40, seed: 15 });
    before = await Promise.all(sequences.map((sequence) => answers(templatesOnly.bytes, sequence)));
    const session = (await loadNpc(templatesOnly.bytes)).session();
    expect(session.process("copy notes").status).toBe("template match");
    const other = session.process("hello there");
    expect(other.status).toBe("rejected");
    expect(other.related).toEqual([]);
    // Those loads did not register the stage, so a payload with inputs cannot make an Npc yet.
    expect(() => new Npc(withInputs.payload)).toThrow("this bundle has inputs, whose code is loaded apart: load it with loadNpc, or await loadStages(payload) first");
  });

  it("loadNpc registers it for a bundle with inputs, and no answer of a bundle without inputs changes", async () => {
    expect((await loadNpc(withInputs.bytes)).session().process("hello thre").intent).toBe("greet");
    expect(() => new Npc(withInputs.payload)).not.toThrow();
    const after = await Promise.all(sequences.map((sequence) => answers(templatesOnly.bytes, sequence)));
    expect(after).toEqual(before);
  });
});
