// The context register (runtime/conversation/register.ts) and ndfc/runtime/conversation: snapshot()/restore()
// carry a conversation on in another session unchanged (property), the register expires, and
// pronoun safety: 200 generated requests made of a pronoun or a bare destructive verb, each in a
// fresh session, are never answered with a destructive tool (TERMy and datasets/termy).
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { conversation } from "../../runtime/conversation/conversation.js";
import { loadNpc, type Npc, type NpcResponse } from "../../runtime/index.js";
import type { SessionSnapshot } from "../../runtime/conversation/session.js";
import { hasTermy, termyDir } from "../compile/termy-corpus.js";
import { datasetNpc } from "../support/datasets.js";

let termy: Npc;
beforeAll(async () => {
  termy = await datasetNpc("termy");
});

const MESSAGES = [
  "delete", "old.log", "delete it", "create folder foo", "move it to /tmp", "and bar too", "no, I meant baz",
  "copy notes.txt", "backup.txt", "list files", "git status", "thanks", "damn it", "kill", "remove them", "hello",
  "what is my ip", "update things", "wipe the logs", "no, the other one",
];
const message = fc.oneof(fc.constantFrom(...MESSAGES), fc.string({ maxLength: 30 }));
/** What a response says, without the witness (its evidence lists are compared by the answer they lead to). */
const said = (r: NpcResponse) => ({ status: r.status, intent: r.intent, response: r.response, tools: r.tools, slots: r.slots, permission: r.permission, elicit: r.elicit, sentiment: r.sentiment });

describe("snapshot and restore", () => {
  it("a restored session answers the rest of a conversation as the original does (property)", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), fc.array(message, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 5 }), (before, after, seed) => {
        const original = termy.session({ seed, conversation });
        for (const m of before) original.process(m);
        const snapshot = JSON.parse(JSON.stringify(original.snapshot())) as SessionSnapshot;
        const restored = termy.session({ seed, conversation });
        restored.restore(snapshot);
        expect(restored.snapshot()).toEqual(original.snapshot());
        for (const m of after) expect(said(restored.process(m))).toEqual(said(original.process(m)));
      }),
      { numRuns: 150, seed: 17 },
    );
  });

  it("carries the pending slot and the context across", () => {
    const first = termy.session({ conversation });
    first.process("create folder foo");
    first.process("delete");
    const next = termy.session({ conversation });
    next.restore(first.snapshot());
    expect(next.context).toBe(first.context);
    expect(next.contextRegister.pending_slot).toMatchObject({ intent: "files_delete", slot: "file" });
    expect(next.process("old.log")).toMatchObject({ status: "template match", intent: "files_delete", slots: { file: "old.log" } });
  });

  it("refuses a snapshot that is not one, naming the field", () => {
    const s = termy.session();
    expect(() => s.restore({ ...s.snapshot(), context: "no_such_intent" })).toThrow(/snapshot\.context names no intent/);
    expect(() => s.restore({ ...s.snapshot(), turn: -1 })).toThrow(/snapshot\.turn/);
    expect(() => s.restore(null as unknown as SessionSnapshot)).toThrow(TypeError);
  });
});

describe("the register", () => {
  it("holds the last action, its args and what it is about", () => {
    const s = termy.session({ conversation });
    s.process("copy a.txt to b.txt");
    expect(s.contextRegister).toMatchObject({ last_action: "files_copy", last_args: { source: "a.txt", destination: "b.txt" }, last_path: "b.txt", pending_slot: null });
  });

  it("holds a guess's runner-up and a rejection's suggestions for the next message only", () => {
    const s = termy.session({ conversation });
    const guess = s.process("what is my ip");
    expect(guess.status).toBe("probabilistic match");
    const { runner_up: runnerUp } = s.contextRegister;
    expect(runnerUp).not.toBeNull();
    expect(runnerUp).not.toBe(guess.intent);
    expect(s.process("no, the other one")).toMatchObject({ status: "probabilistic match", intent: runnerUp });
    const rejected = s.process("wipe the logs");
    expect(s.contextRegister).toMatchObject({ runner_up: null, suggestions: rejected.related.map((r) => r.intent) });
    s.process("list files");
    expect(s.contextRegister).toMatchObject({ runner_up: null, suggestions: [] });
  });

  it("asks for the whole request when the other one is a template (its slots were never said)", () => {
    const s = termy.session({ conversation });
    s.process("what is my ip");
    const snapshot = s.snapshot();
    s.restore({ ...snapshot, register: { ...snapshot.register, runner_up: "files_delete" } });
    expect(s.process("no, the other one")).toMatchObject({ status: "elicit", elicit: { slot: "request", intent: "files_delete" }, tools: [] });
  });

  it("'no, the other one' after any message never runs a destructive tool without asking (property)", () => {
    const destructive = new Set(termy.payload.intents.filter((intent) => intent.destructive).map((intent) => intent.id));
    fc.assert(
      fc.property(fc.array(message, { maxLength: 4 }), (before) => {
        const s = termy.session({ conversation });
        for (const m of before) s.process(m);
        const other = s.process("no, the other one");
        if (other.intent !== null && destructive.has(other.intent)) expect(other.permission).toBe("ask");
        if (other.status === "elicit") expect(other.tools).toEqual([]);
      }),
      { numRuns: 150, seed: 23 },
    );
  });

  it("forgets a referent registerTurns turns after it was named", () => {
    for (const registerTurns of [1, 2, 3]) {
      const s = termy.session({ conversation, registerTurns });
      s.process("delete old.log");
      for (let k = 0; k < registerTurns; k++) s.process("git status");
      expect(s.contextRegister.last_path).toBe("old.log");
      s.process("git status");
      expect(s.contextRegister.last_path).toBeNull();
      expect(s.process("delete it").status).toBe("elicit");
    }
  });

  it("takes a one-line tool result as what 'them' means", () => {
    const s = termy.session({ conversation });
    s.process("git status");
    s.noteResult("a.log");
    expect(s.process("delete them")).toMatchObject({ intent: "files_delete", slots: { file: "a.log" }, permission: "ask" });
  });

  it("without the conversation entry the session only matches (and writes nothing)", () => {
    const s = termy.session();
    s.process("delete old.log");
    expect(s.contextRegister.last_path).toBeNull();
    expect(s.process("delete").status).not.toBe("elicit");
  });
});

const VERBS = ["delete", "remove", "erase", "wipe", "kill", "trash", "destroy", "rm", "purge", "nuke", "get rid of", "uninstall", "format", "shred", "move", "empty"];
const OBJECTS = ["it", "them", "that", "those", "this", "these", ""];
const COURTESY = ["", "please ", "now ", "just "];

/** 200 distinct requests: a destructive verb with a pronoun or with nothing, and some courtesy words. */
function unboundRequests(): string[] {
  const all: string[] = [];
  for (const courtesy of COURTESY) for (const verb of VERBS) for (const object of OBJECTS) all.push(`${courtesy}${verb} ${object}`.trim());
  // A fixed shuffle (fast-check's seeded sample), so the 200 cover every verb and object.
  return fc.sample(fc.shuffledSubarray(all, { minLength: 200, maxLength: 200 }), { seed: 17, numRuns: 1 })[0]!;
}

function destructiveAnswers(npc: Npc, messages: readonly string[], withConversation: boolean): string[] {
  const destructive = new Set(npc.payload.intents.filter((i) => i.destructive).map((i) => i.id));
  const answered = (r: NpcResponse): boolean => (r.parts ?? [r]).some((p) => p.tools.length > 0 && p.intent !== null && destructive.has(p.intent));
  return messages.filter((m) => answered(npc.session(withConversation ? { conversation } : {}).process(m)));
}

describe("pronoun safety: nothing to refer to, nothing destructive", () => {
  const messages = unboundRequests();
  it("generates 200 distinct requests", () => {
    expect(new Set(messages).size).toBe(200);
  });

  it("datasets/termy: 0 of 200 answered with a destructive tool, and each asks", () => {
    expect(destructiveAnswers(termy, messages, true)).toEqual([]);
    const statuses = messages.map((m) => termy.session({ conversation }).process(m).status);
    expect(statuses.filter((s) => s === "elicit").length).toBeGreaterThanOrEqual(150);
  });

  it.skipIf(!hasTermy)("TERMy (NPC-Forge): 0 of 200 answered with a destructive tool", async () => {
    const corpus = await loadNpc(compileNpc(lintSources([termyDir]).ir).bytes);
    expect(destructiveAnswers(corpus, messages, true)).toEqual([]);
  });
});
