// The optional stages (runtime/stages.ts): a bundle without templates, context children,
// sanitizer phrases, destructive intents or shell commands loads and answers without their chunks, an Npc with them is never made
// without them, and registering a stage changes nothing for a bundle that does not use it. The order of the tests matters: this
// file's module registry starts empty (vitest isolates test files), and each test registers more.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { loadNpc, Npc } from "../../runtime/index.js";
import { NpcModel } from "../../runtime/bundle/model.js";
import { sanitize, usedStages } from "../../runtime/stages.js";
import { decodeBundle } from "../../runtime/bundle/format.js";
import { mayRenderShell } from "../../runtime/bundle/intent-records.js";
import type { ToolTree } from "../../runtime/bundle/bundle-types.js";
import { sanitize as scan } from "../../runtime/text/sanitize.js";
import { tokenize } from "../../runtime/text/normalize.js";
import { hostileBundle } from "../../bench/hostile-payloads.js";
import { refusalOf } from "../support/refusal.js";
import { npcIr } from "./ir-fixture.js";
import { readFileSync } from "node:fs";

const plainBuilt = compileNpc(
  npcIr({
    intents: [
      { id: "greet", inputs: ["hello there", "good morning"], outputs: ["Hi."] },
      { id: "files", inputs: ["list my files", "show the files"], outputs: ["Here they are."] },
    ],
  }),
);
const plain = plainBuilt.bytes;
const words = fc.constantFrom("hello", "there", "list", "my", "files", "show", "the", "good", "morning", "copy", "then", "it", "thanks", "great", "again");
const message = fc.oneof(fc.constantFrom("hello there", "list my files"), fc.array(words, { minLength: 1, maxLength: 6 }).map((w) => w.join(" ")));
const messages = fc.array(message, { minLength: 1, maxLength: 6 });

/** A shell command with a placeholder, in an intent that is not destructive. */
const lister = compileNpc(npcIr({ intents: [{ id: "list", inputs: ["list the logs"], outputs: ["Listing."], command: "ls <||dir||>" }] }));

/** Every answer to `sequence` in one session, as JSON. */
async function answers(bytes: Uint8Array, sequence: string[]): Promise<string> {
  const session = (await loadNpc(bytes)).session({ seed: 3 });
  return JSON.stringify(sequence.map((message) => session.process(message)));
}

/** One NPC with every optional stage: templates, a context child, sanitizer phrases (sentiment and noise), a destructive intent. */
const optional = compileNpc(
  npcIr({
    types: { number: "^\\d+$" },
    synonyms: { vocab_copy: ["copy"], vocab_take: ["take"] },
    lists: { thanking_words: ["thanks"], interjections: ["well", "oh well"] },
    intents: [
      { id: "copy", paths: ["vocab_copy rest:string"], outputs: ["Copying."] },
      { id: "take", paths: ["vocab_take count:number"], outputs: ["Taking."] },
      { id: "files", inputs: ["list my files"], outputs: ["Here they are."], context: [{ id: "again", inputs: ["show them again"], outputs: ["Again."] }] },
      { id: "welcome", inputs: ["thanks"], outputs: ["You are welcome."] },
      { id: "remove", inputs: ["remove the old logs"], outputs: ["Removing."], command: "rm -rf logs", permission: "yolo" },
    ],
  }),
);

describe("optional stages", () => {
  let sequences: string[][] = [];
  let answersBefore: string[] = [];

  /** What the session's sanitize (the forwarder) and the scan itself make of each message, for `model`. */
  const bothSanitized = (model: NpcModel, sequence: string[]) =>
    sequence.map((text) => {
      const { tokens } = tokenize(text);
      return [sanitize(model, tokens), scan(model, tokens)];
    });

  it("a bundle without templates, context children, sanitizer phrases, destructive intents or shell commands loads and answers without their chunks", async () => {
    sequences = fc.sample(messages, { numRuns: 40, seed: 15 });
    answersBefore = await Promise.all(sequences.map((sequence) => answers(plain, sequence)));
    expect(answersBefore.join()).toContain('"exact match"');
    // Those loads registered no stage, so a payload using one cannot make an Npc yet, and the error names what it uses.
    expect(() => new Npc(optional.payload)).toThrow("this bundle has templates, whose code is loaded apart: load it with loadNpc, or await loadStages(payload) first");
    // Without templates, that is with a root without edges and no type program (the template chunk reads both), the next stage is named.
    const { automaton, ...rest } = optional.payload;
    const rootOnly = automaton.slice(0, 1).map((root) => ({ ...root, accept: [] }));
    expect(() => new Npc({ ...rest, automaton: rootOnly })).toThrow("this bundle has templates, whose code");
    expect(() => new Npc({ ...rest, automaton: rootOnly, types: [] })).toThrow("this bundle has context children, whose code");
    expect(() => new Npc({ ...plainBuilt.payload, sanitizer: optional.payload.sanitizer })).toThrow("this bundle has sanitizer phrases, whose code");
    const remover = compileNpc(npcIr({ intents: [{ id: "remove", inputs: ["remove the old logs"], outputs: ["Removing."], command: "rm -rf logs" }] })).payload;
    expect(() => new Npc(remover)).toThrow("this bundle has destructive intents or shell commands, whose code");
    expect(lister.payload.intents[0]!.destructive).toBe(false);
    expect(() => new Npc(lister.payload)).toThrow("this bundle has destructive intents or shell commands, whose code");
    // Read from bytes, the records are searched for the key of a shell command, not decoded.
    const loaded = await loadNpc(plain);
    expect(usedStages(loaded.payload)).not.toContain("shell");
    expect(usedStages(await decodeBundle(lister.bytes))).toContain("shell");
    // Without the sanitizer's chunk a bundle without phrases reads every clause as the scan would.
    expect(plainBuilt.payload.sanitizer.kinds).toHaveLength(0);
    for (const [forwarded, scanned] of sequences.flatMap((sequence) => bothSanitized(new NpcModel(plainBuilt.payload), sequence))) expect(forwarded).toEqual(scanned);
  });

  it("loadNpc registers the stages a bundle uses before it answers", async () => {
    const session = (await loadNpc(optional.bytes)).session();
    expect(session.process("copy notes").status).toBe("template match");
    expect(session.process("take 12").slots).toEqual({ count: "12" });
    // Only sentiment and words the NPC does not know: the sentiment stage answers with the input "thanks".
    expect(session.process("thanks a lot").intent).toBe("welcome");
    expect(session.process("list my files").intent).toBe("files");
    // A typo of the active context's child: the context stage picks it.
    expect(session.process("show them agian").witness.map((w) => w.stage)).toContain("context");
    // Noise is dropped by the sanitizer's chunk: "oh well" is an interjection, not words to match.
    const noisy = session.process("oh well list my files");
    expect(noisy.intent).toBe("files");
    expect(noisy.witness[0]).toEqual({ stage: "sanitize", items: [{ word: "oh well", kind: "noise", matched: "interjections" }] });
    // The guards' chunk: a guess of a destructive intent asks, a negated request runs nothing.
    const guarded = (await loadNpc(optional.bytes)).session();
    expect(guarded.process("remove the old logs").permission).toBe("yolo");
    expect(guarded.process("remove the logs old")).toMatchObject({ intent: "remove", permission: "ask" });
    expect(guarded.process("don't remove the old logs").notice).toMatch(/a request not to do something destructive/);
    expect(() => new Npc(optional.payload)).not.toThrow();
    // The shell stage's renderer quotes a placeholder's value (none here) where the shell reads it.
    expect((await loadNpc(lister.bytes)).session().process("list the logs").tools).toEqual([{ name: "run_in_terminal", arguments: { command: "ls ''" } }]);
    // Through the chunk, the session's sanitize is the scan.
    const model = new NpcModel(optional.payload);
    const found = fc.sample(fc.array(fc.oneof(words, fc.constantFrom("oh", "well", "thanks")), { minLength: 1, maxLength: 6 }), { numRuns: 60, seed: 7 }).map((w) => w.join(" "));
    const pairs = bothSanitized(model, found);
    expect(pairs.some(([, scanned]) => scanned.items.length > 0)).toBe(true);
    for (const [forwarded, scanned] of pairs) expect(forwarded).toEqual(scanned);
  });

  it("registering the stages changes no answer of a bundle that does not use them", async () => {
    const after = await Promise.all(sequences.map((sequence) => answers(plain, sequence)));
    expect(after).toEqual(answersBefore);
  });

  it("a bundle's records are found to hold a shell command exactly when one of its tools has one (dist-npcs)", async () => {
    const hasShell = (tree: ToolTree): boolean =>
      Array.isArray(tree) ? false : "sh" in tree || ("o" in tree && tree.o.some(([, value]) => hasShell(value))) || ("a" in tree && tree.a.some(hasShell)) || ("j" in tree && hasShell(tree.j));
    const found: boolean[] = [];
    for (const name of ["example", "home", "home-ndf", "shell", "termy"]) {
      const { intents } = await decodeBundle(readFileSync(new URL(`../../dist-npcs/${name}.npc`, import.meta.url)));
      const shell = intents.some((intent) => intent.tools.some(hasShell));
      expect(mayRenderShell(intents), name).toBe(shell);
      found.push(shell);
    }
    expect(found).toEqual([true, false, false, true, true]);
  });

  it("a bundle without templates is still refused for an automaton or a type program it should not hold (the template chunk reads any)", async () => {
    const { payload } = compileNpc(npcIr({ intents: [{ id: "greet", inputs: ["hello there"], outputs: ["Hi."] }] }));
    expect(payload.automaton).toHaveLength(1);
    expect(payload.types).toEqual([]);
    const root = payload.automaton[0]!;
    const badType = { name: "t", unusable: null, classes: [], ops: [9, 0, 0] };
    expect(await refusalOf(hostileBundle({ ...payload, types: [badType] }))).toMatch(/types\[0\]\.ops\[0\]: unknown opcode/);
    expect(await refusalOf(hostileBundle({ ...payload, automaton: [{ ...root, skip: [0] }] }))).toMatch(/automaton\[0\]\.skip\[0\]: skip edges must point to a later state/);
    expect(await refusalOf(hostileBundle({ ...payload, automaton: [{ ...root, accept: [[5, 0]] }] }))).toMatch(/automaton\[0\]\.accept\[0\]: expected an index below 1/);
    // Read by the core, as the template chunk would read it: a root without edges.
    const loaded = await loadNpc(hostileBundle(payload));
    expect(loaded.payload.automaton).toEqual([root]);
    expect(loaded.payload.types).toEqual([]);
    expect(loaded.session().process("hello there").intent).toBe("greet");
  });
});
