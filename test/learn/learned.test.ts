// The learned stage end to end on a small NPC: the bundle section and its config keys, the
// runtime's answers and their witness, the safety rules, validation and reproducibility.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc, type CompileResult } from "../../compiler/compile.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import type { NpcIR } from "../../compiler/ir/types.js";
import { explain } from "../../runtime/explain.js";
import { learnedIndexFor, loadNpc, Npc } from "../../runtime/index.js";
import { LearnedIndex } from "../../runtime/match/match-learned.js";
import { tokenize } from "../../runtime/text/normalize.js";
import { validatePayload } from "../../runtime/bundle/validate-payload.js";
import { encodeBundle, storedPayload } from "../../runtime/bundle/encode.js";
import { refusalOf } from "../support/refusal.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { writeLearnedNpc } from "./fixture.js";

let lint: LintResult;
let built: CompileResult;
let npc: Npc;
beforeAll(async () => {
  lint = lintSources([writeLearnedNpc()]);
  built = compileNpc(lint.ir);
  npc = await loadNpc(built.bytes);
});

describe("the bundle's learned section", () => {
  it("holds one class per entry and none-of-these, sorted feature hashes and a cross-validated threshold", () => {
    const learned = built.payload.learned!;
    expect(learned.intents).toHaveLength(6);
    expect(learned.bias).toHaveLength(7);
    // Cross-validation on 49 phrasings would accept any margin: the threshold keeps its floor.
    expect(built.payload.config.learnedThreshold).toBe(0.2);
    expect(built.summary.learned).toMatchObject({ cases: 49 });
    expect(validatePayload(storedPayload(built.payload), built.bytes.length)).toBeNull();
  });

  it("is shown by ndfc inspect, threshold included", async () => {
    const dir = tempDir("inspect");
    const bundle = join(dir, "shelly.npc");
    writeFileSync(bundle, built.bytes);
    const run = await runCaptured(["inspect", bundle], dir);
    expect(run.out).toContain(`learned          7 classes (with none of these), ${built.payload.learned!.idf.length} features, ${built.payload.learned!.weights.length} int8 weights, threshold 0.2 (margin over the runner-up)`);
    const json = JSON.parse((await runCaptured(["inspect", bundle, "--json"], dir)).out) as { learned: unknown; sections: Record<string, number> };
    expect(json.learned).toMatchObject({ classes: 7, threshold: 0.2 });
    expect(json.sections.learned).toBeGreaterThan(0);
  });

  it('is left out with "matcher": "lexical", and `learned_threshold` overrides the threshold', () => {
    const lexical = compileNpc(lintSources([writeLearnedNpc({ matcher: "lexical" })]).ir);
    expect(lexical.payload.learned).toBeNull();
    expect(lexical.bytes.length).toBeLessThan(built.bytes.length);
    const fixed = compileNpc(lintSources([writeLearnedNpc({ learned_threshold: 0.75 })]).ir);
    expect(fixed.payload.config.learnedThreshold).toBe(0.75);
  });

  it("needs its index to answer: new Npc refuses a learned payload without it, learnedIndexFor gives it", async () => {
    expect(() => new Npc(built.payload)).toThrow("this bundle has a learned stage: load it with loadNpc, or pass learnedIndexFor(payload)");
    const direct = new Npc(built.payload, await learnedIndexFor(built.payload));
    const message = "how much room is left on my disk";
    expect(direct.session().process(message)).toEqual(npc.session().process(message));
    expect(await learnedIndexFor({ ...built.payload, learned: null })).toBeNull();
  });

  it("scores a message the same on a fresh index as on one that has read other messages (stems and the last result are remembered)", () => {
    const indexed = () => new LearnedIndex(built.payload.learned!, built.payload.config.learnedThreshold);
    const used = indexed();
    const words = fc.constantFrom("disk", "space", "trash", "emptying", "files", "running", "memory", "ip", "what", "is", "my", "show", "rubbish", "x1", "über");
    fc.assert(
      fc.property(fc.array(fc.array(words, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), (messages) => {
        for (const message of messages) used.score(tokenize(message.join(" ")).tokens);
        const lastWords = messages[messages.length - 1]!;
        const last = tokenize(lastWords.join(" ")).tokens;
        // The same tokens again (the index reuses its last result), then the same texts quoted (not words: other features).
        expect({ ...used.score(last) }).toEqual({ ...indexed().score(last) });
        const quoted = tokenize(lastWords.map((w) => `"${w}"`).join(" ")).tokens;
        expect({ ...used.score(quoted) }).toEqual({ ...indexed().score(quoted) });
      }),
      { numRuns: 40, seed: 14 },
    );
  });

  it("is refused by the loader when its arrays do not fit together", async () => {
    const learned = built.payload.learned!;
    // Checked with the learned stage's chunk (validate-learned.ts), as loadNpc loads it.
    const refusal = async (edit: Partial<typeof learned>) => (await refusalOf(encodeBundle({ ...built.payload, learned: { ...learned, ...edit } }))).replace(/^.*wrong shape: /, "");
    const swapped = learned.hashes.slice();
    [swapped[0], swapped[1]] = [learned.hashes[1]!, learned.hashes[0]!];
    expect(await refusal({ hashes: swapped })).toBe("learned.hashes: not ascending at 1");
    expect(await refusal({ idf: learned.idf.subarray(1) })).toBe("learned.idf: not one per feature");
    const classes = learned.classes.slice();
    classes[0] = 7;
    expect(await refusal({ classes })).toBe("learned.classes: weight 0's class is not below 7");
    expect(await refusal({ intents: [...learned.intents, 0] })).toMatch(/^learned\.intents: /);
  });

  it("does not depend on the order of intents in the IR", () => {
    const reference = built.bytes;
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 6, maxLength: 6 }), (keys) => {
        const ir: NpcIR = { ...lint.ir, intents: lint.ir.intents.map((intent, i) => ({ intent, key: keys[i]! * 10 + i })).sort((a, b) => a.key - b.key).map((x) => x.intent) };
        expect(compileNpc(ir).bytes).toEqual(reference);
      }),
      { numRuns: 5, seed: 14 },
    );
  });
});

describe("answers of the learned stage", () => {
  it("understands a paraphrase no input spells, with the features that decided it when explaining", () => {
    const answer = npc.session().process("how much room is left on my disk", { explain });
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "disk_usage" });
    const learned = answer.witness.filter((w) => w.stage === "learned");
    expect(learned).toHaveLength(2);
    expect(learned[0]!.note).toMatch(/^disk_usage -?[\d.]+, margin [\d.]+$/);
    expect(learned[1]!.note).toMatch(/^runner-up /);
    expect(learned[0]!.items.length).toBeGreaterThan(0);
    for (const item of learned[0]!.items) expect(item).toMatchObject({ kind: "feature", matched: "disk_usage", weight: expect.any(Number) });
    const weights = learned[0]!.items.map((i) => i.weight!);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(answer.confidence).toBeGreaterThanOrEqual(0.5);
    expect(answer.confidence).toBeLessThan(1);
    // Without the explain entry the same answer carries the winner's score, not the runner-up or the feature lists.
    const plain = npc.session().process("how much room is left on my disk");
    expect(plain).toMatchObject({ status: answer.status, intent: answer.intent, confidence: answer.confidence });
    expect(plain.witness.filter((w) => w.stage === "learned").map((w) => [w.note, w.items])).toEqual([[learned[0]!.note, []]]);
  });

  it("asks before running a destructive entry it reached", () => {
    const answer = npc.session().process("wipe the trash bin");
    expect(answer).toMatchObject({ intent: "trash_empty", permission: "ask" });
  });

  it("never answers a negated destructive request with something runnable", () => {
    for (const message of ["don't empty my wastebasket", "do not throw away the junk in the bin", "never purge the recycle bin"]) {
      const answer = npc.session().process(message);
      if (answer.intent === "trash_empty") expect(answer.permission).toBe("ask");
      expect(answer.status === "rejected" || answer.negated === true, message).toBe(true);
    }
  });

  it('never reaches a destructive entry from a pronoun or a bare verb ("delete it") in a fresh session', async () => {
    // Before the guard, the lexical stage answered "get rid of it", "throw it away", "clean it
    // out", "empty it" and "empty" with `rm -rf` of the trash.
    const lexical = await loadNpc(compileNpc(lintSources([writeLearnedNpc({ matcher: "lexical" })]).ir).bytes);
    for (const [name, bundle] of Object.entries({ learned: npc, lexical })) {
      for (const message of ["delete it", "remove that", "wipe it", "get rid of it", "throw it away", "purge them please", "clean it out", "empty it", "empty"]) {
        const answer = bundle.session().process(message);
        expect(answer.intent, `${name}: ${message}`).not.toBe("trash_empty");
      }
    }
    // Naming the object is enough: the guard is about nothing to refer to, not about the verb.
    expect(npc.session().process("delete everything in the trash").intent).toBe("trash_empty");
    expect(lexical.session().process("clean out the trash").intent).toBe("trash_empty");
  });

  it("leaves exact inputs to the exact stage", () => {
    expect(npc.session().process("show uptime")).toMatchObject({ status: "exact match", intent: "system_uptime" });
  });

  it("sends generic English to none-of-these", () => {
    for (const message of ["the children played in the garden all afternoon", "she sang a song for her grandmother"]) {
      expect(npc.session().process(message).status, message).toBe("rejected");
    }
  });
});
