// The order of a load's work (runtime/bundle/format.ts decodeBundle, runtime/stages.ts): the
// optional stages a bundle uses are decided once, from the stored payload, and their chunks are
// imported as soon as its msgpack part is decoded, not after the template chunk's read; the
// automaton's rule calls are laid out and checked by that read. A payload made by hand gets the
// same answer from its decoded form.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { hostileBundle } from "../../bench/hostile-payloads.js";
import type { BundlePayload, StoredPayload } from "../../runtime/bundle/bundle-types.js";
import { decodeBundle } from "../../runtime/bundle/format.js";
import { loadNpc } from "../../runtime/index.js";
import { usedStages } from "../../runtime/stages.js";
import { clonePayload } from "../support/clone-payload.js";
import { refusalOf } from "../support/refusal.js";
import { npcIr, type IntentSpec } from "./ir-fixture.js";

/** What an NPC holds that some stage reads. */
interface Features {
  inputs: boolean;
  templates: boolean;
  types: boolean;
  context: boolean;
  sentiment: boolean;
}

function compiled({ inputs, templates, types, context, sentiment }: Features): { bytes: Uint8Array; payload: BundlePayload } {
  const intents: IntentSpec[] = [];
  const child: IntentSpec[] = context ? [{ id: "again", inputs: ["show them again"], outputs: ["Again."] }] : [];
  if (inputs) intents.push({ id: "files", inputs: ["list my files"], outputs: ["Here they are."] });
  if (templates) intents.push({ id: "copy", paths: ["vocab_copy rest:string"], outputs: ["Copying."] });
  if (sentiment) intents.push({ id: "welcome", inputs: ["thanks"], outputs: ["You are welcome."] });
  // A context child hangs on the first intent (an intent with neither inputs nor paths is none of the stages').
  intents[0] = { ...intents[0]!, context: child };
  return compileNpc(
    npcIr({
      types: types ? { number: "^\\d+$" } : {},
      synonyms: templates ? { vocab_copy: ["copy"] } : {},
      lists: sentiment ? { thanking_words: ["thanks"] } : {},
      intents,
    }),
  );
}

const features = fc.record({ inputs: fc.boolean(), templates: fc.boolean(), types: fc.boolean(), context: fc.boolean(), sentiment: fc.boolean() }).filter((f) => f.inputs || f.templates || f.sentiment);

describe("a load's order of work", () => {
  it("hands prepare the stored payload in the same turn as the decode, before the template chunk is read", async () => {
    const { bytes } = compiled({ inputs: true, templates: true, types: true, context: true, sentiment: true });
    let seen: StoredPayload | null = null;
    const decoding = decodeBundle(bytes, "lazy", async (stored) => void (seen = stored));
    // Called synchronously: no stage's import waits for another chunk, or for the decode's end.
    expect(seen).not.toBeNull();
    expect(seen!.automaton).toHaveProperty("edges");
    const payload = await decoding;
    expect(Array.isArray(payload.automaton)).toBe(true);
    expect(usedStages(seen!)).toEqual(["probabilistic", "templates", "context", "sanitizer"]);
  });

  it("decides each stage's use once: the stored payload's answer is the decoded one's, and what the NPC holds (property)", async () => {
    await fc.assert(
      fc.asyncProperty(features, async (f) => {
        const { bytes, payload } = compiled(f);
        const expected = [
          ...(f.inputs || f.sentiment || f.context ? ["probabilistic"] : []),
          ...(f.templates || f.types ? ["templates"] : []),
          ...(f.context ? ["context"] : []),
          ...(f.sentiment ? ["sanitizer"] : []),
        ];
        let stored: string[] = [];
        const decoded = await decodeBundle(bytes, "lazy", async (s) => void (stored = usedStages(s)));
        expect(stored).toEqual(expected);
        // Recorded for the decoded payload; a copy of it (decoded form, as a payload made by hand) is decided from its own fields.
        expect(usedStages(decoded)).toEqual(expected);
        expect(usedStages({ ...decoded })).toEqual(expected);
        expect(usedStages(payload)).toEqual(expected);
        const npc = await loadNpc(bytes);
        expect(npc.session().process(f.inputs ? "list my files" : f.templates ? "copy notes" : "thanks").status).not.toBe("rejection");
      }),
      { numRuns: 24, seed: 15 },
    );
  });

  it("a root without edges and a type program: the template stage reads and checks the types, and answers nothing", async () => {
    const { bytes, payload } = compiled({ inputs: true, templates: false, types: true, context: false, sentiment: false });
    expect(payload.automaton).toHaveLength(1);
    const npc = await loadNpc(bytes);
    expect(npc.payload.types).toEqual(payload.types);
    expect(npc.session().process("list my files").intent).toBe("files");
    expect(npc.session().process("copy 12").status).toBe("rejected");
    const badType = { name: "t", unusable: null, classes: [], ops: [9, 0, 0] };
    expect(await refusalOf(hostileBundle({ ...payload, types: [badType] }))).toMatch(/types\[0\]\.ops\[0\]: unknown opcode/);
  });

  it("refuses, at load, a stored automaton whose root holds a rule end, or a call to a state no rule starts at (the template read lays out the calls)", async () => {
    const plain = compiled({ inputs: true, templates: false, types: false, context: false, sentiment: false }).payload;
    const root = plain.automaton[0]!;
    // A root with only a rule end used to load: the decoded automaton looked like no templates, so its calls were never laid out.
    expect(await refusalOf(hostileBundle({ ...plain, automaton: [{ ...root, returns: [0] }] }))).toMatch(/automaton\[0\]\.returns\[0\]: 0 is not a state a rule may start at/);
    const withPaths = clonePayload(compiled({ inputs: true, templates: true, types: false, context: false, sentiment: false }).payload);
    withPaths.automaton[0]!.calls.push([1, 2]);
    const bytes = hostileBundle(withPaths);
    expect(await refusalOf(bytes)).toMatch(/automaton\[0\]\.calls\[0\]: calls state 1, which is not a rule start/);
    // The same bytes corrupted: refused as corrupt first.
    const corrupt = bytes.slice();
    corrupt[corrupt.length - 1]! ^= 1;
    expect(await refusalOf(corrupt)).toMatch(/payload SHA-256 does not match the header \(the file is corrupt\)$/);
  });
});
