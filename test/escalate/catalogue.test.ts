import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readAnswer } from "../../compiler/escalate/answer.js";
import { intentCatalogue } from "../../compiler/escalate/catalogue.js";
import { answerSchema, promptMessages } from "../../compiler/escalate/prompt.js";
import { createEscalation } from "../../compiler/escalate/escalator.js";
import { datasetNpc } from "../support/datasets.js";
import { keeperNpc } from "./keeper-npc.js";
import { pick } from "./stand-in.js";

const keeper = await keeperNpc();
const cards = intentCatalogue(keeper.payload);
const byId = new Map(cards.map((card) => [card.id, card]));

describe("the intent catalogue", () => {
  it("lists every top-level intent with its description, and a template's slots with their types", () => {
    expect(cards.map((c) => c.id).sort()).toEqual(["delete_file", "greet", "list_files"]);
    expect(byId.get("list_files")).toMatchObject({ description: "List the files of this folder", slots: [], exactKey: "list files" });
    expect(byId.get("greet")!.description).toBe('as in "hello"');
    const del = byId.get("delete_file")!;
    expect(del).toMatchObject({ destructive: true, exactKey: null });
    expect(del.slots.map(({ name, type, required }) => ({ name, type, required }))).toEqual([{ name: "target", type: "path", required: true }]);
  });

  it("leaves out context children: they answer only while their parent is active", async () => {
    const example = await datasetNpc("example");
    const ids = intentCatalogue(example.payload).map((c) => c.id);
    expect(ids).toContain("ready_check");
    expect(ids).not.toContain("ready_go");
  });

  it("gives a schema admitting exactly the NPC's intents or none, each with only its slots", () => {
    const schema = answerSchema(cards) as { properties: { answer: { anyOf: { properties: { intent: { const: string }; slots?: { required: string[] } } }[] } } };
    const choices = schema.properties.answer.anyOf;
    expect(choices.map((c) => c.properties.intent.const)).toEqual([...cards.map((c) => c.id), "none"]);
    expect(choices.find((c) => c.properties.intent.const === "delete_file")!.properties.slots!.required).toEqual(["target"]);
  });

  it("puts the matcher's candidates in the prompt as hints", () => {
    const [system] = promptMessages("Keeper", cards, "zap it", [{ intent: "delete_file", score: 0.41 }]);
    expect(system!.content).toContain("delete_file (0.41)");
    expect(system!.content).toContain("- list_files: List the files of this folder");
  });
});

describe("reading the model's answer", () => {
  const read = (content: string, message = "please trash notes.txt now") => readAnswer(content, byId, message);

  it("accepts a known intent with its typed slots taken from the message", () => {
    expect(read(pick("delete_file", { target: "notes.txt" }))).toMatchObject({ kind: "intent", slots: { target: "notes.txt" } });
    expect(read(pick("list_files"))).toMatchObject({ kind: "intent", slots: {} });
    expect(read(pick("none"))).toEqual({ kind: "none" });
  });

  it.each([
    ["not JSON", "sure! delete_file", /not JSON/],
    ["no answer object", JSON.stringify({ intent: "greet" }), /no "answer"/],
    ["an unknown intent", pick("format_disk"), /"format_disk" is not one of the actions/],
    ["a slot of another intent", pick("list_files", { target: "notes.txt" }), /list_files has no slot "target"/],
    ["a missing required slot", pick("delete_file"), /needs the slot "target"/],
    ["a value the type refuses", pick("delete_file", { target: "now" }), /is not a path/],
    ["a value the user never typed", pick("delete_file", { target: "secrets.txt" }), /not text of the message/],
    ["a value that is not a string", JSON.stringify({ answer: { intent: "delete_file", slots: { target: 3 } } }), /not a non-empty string/],
  ])("refuses %s, saying what was wrong", (_what, content, fault) => {
    const verdict = read(content);
    expect(verdict.kind).toBe("invalid");
    expect(verdict.kind === "invalid" && verdict.fault).toMatch(fault);
  });

  it("never throws, and only ever returns a known intent or none, whatever the model says", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.record({ answer: fc.record({ intent: fc.constantFrom("greet", "delete_file", "x", "none"), slots: fc.dictionary(fc.string(), fc.string()) }) }).map((v) => JSON.stringify(v))), fc.string(), (content, message) => {
        const verdict = readAnswer(content, byId, message);
        if (verdict.kind === "intent") {
          expect(byId.has(verdict.card.id)).toBe(true);
          for (const value of Object.values(verdict.slots)) expect(message.toLowerCase()).toContain(value.toLowerCase());
        }
      }),
    );
  });
});

describe("which answers are escalated", () => {
  const escalation = createEscalation(keeper, { url: "http://127.0.0.1:9", api: "openai", model: "m", timeoutMs: 100, below: 0.8 });
  const session = keeper.session();

  it("a plain rejection and a guess under the threshold; never a match, a firm guess, a refusal or a composite", () => {
    const rejected = session.process("blorp quux zonk");
    expect(rejected.status).toBe("rejected");
    expect(escalation.wants(rejected)).toBe(true);
    expect(escalation.wants({ ...rejected, status: "probabilistic match", intent: "greet", confidence: 0.61 })).toBe(true);
    expect(escalation.wants({ ...rejected, status: "probabilistic match", intent: "greet", confidence: 0.93 })).toBe(false);
    expect(escalation.wants(session.process("list files"))).toBe(false);
    const tooLong = session.process("x".repeat(keeper.maxMessageChars + 1));
    expect(tooLong.notice).toBeDefined();
    expect(escalation.wants(tooLong)).toBe(false);
    expect(escalation.wants(session.process('delete "notes.txt'))).toBe(false); // an open quote
    expect(escalation.wants({ ...rejected, parts: [rejected, rejected] })).toBe(false);
  });
});
