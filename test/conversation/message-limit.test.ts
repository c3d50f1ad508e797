// Issue 13 item 5, runtime side: the length limit is the first thing a message meets, before
// lexing, clauses, sentiment or matching, and no bundle can lift it past MAX_MESSAGE_CHARS (a
// bundle saying 1e12 used to make the runtime read any message whole).
import { beforeAll, describe, expect, it } from "vitest";
import { explain } from "../../runtime/explain.js";
import { Npc } from "../../runtime/index.js";
import { MAX_MESSAGE_CHARS } from "../../runtime/conversation/session.js";
import { datasetNpc } from "../support/datasets.js";

let npc: Npc;
beforeAll(async () => {
  npc = await datasetNpc("example");
});

/** The example NPC with its configured limit replaced (as a hostile or careless bundle would). */
function withLimit(maxMessageChars: number): Npc {
  const { payload } = npc;
  return new Npc({ ...payload, config: { ...payload.config, maxMessageChars } });
}

describe("the message length limit comes first", () => {
  it("refuses an over-long message unread: the trace holds the refusal and no lexing", () => {
    const limit = npc.payload.config.maxMessageChars;
    // An open quote and more clauses than allowed: each would be refused for its own reason once read.
    const message = `"${"list files then ".repeat(40)}`.padEnd(limit + 1, "x");
    const answer = npc.session().process(message, { explain });
    expect(answer.tooLong).toEqual({ unit: "characters", limit, length: message.length });
    expect(answer.trace!.map((step) => step.stage)).toEqual(["limits", "decision"]);
  });

  it("answers a message of exactly the limit", () => {
    const limit = npc.payload.config.maxMessageChars;
    const answer = npc.session().process("list files ".repeat(limit).slice(0, limit));
    expect(answer.tooLong).toBeUndefined();
  });

  it.each([1e12, Number.POSITIVE_INFINITY, Number.NaN])("reads at most MAX_MESSAGE_CHARS whatever the bundle says (maxMessageChars %s)", (configured) => {
    const message = "list files ".repeat(1000);
    const answer = withLimit(configured).session().process(message);
    expect(answer.status).toBe("rejected");
    expect(answer.tooLong).toEqual({ unit: "characters", limit: MAX_MESSAGE_CHARS, length: message.length });
    expect(answer.response).toMatch(/I read at most 1000\. Split it into shorter messages/);
  });

  it("keeps a bundle's smaller limit", () => {
    expect(withLimit(20).session().process("list files in this folder please").tooLong).toEqual({ unit: "characters", limit: 20, length: 32 });
  });
});
