// Teachings never get past the guards: a taught phrase reaching a destructive entry that answers
// without asking makes it ask (at serve time) or is not folded (build --taught); a typo of a known
// word is refused (it would turn a guarded guess into an exact match).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTaught } from "../../compiler/passes/apply-taught.js";
import type { ServeAnswer } from "../../compiler/serve/host.js";
import { guardNpc, guardNpcIr } from "./guard-npc.js";
import { conversations, serveDatasets, type TestServer } from "./support.js";

describe("serving Sweeper (a destructive entry with permission yolo)", () => {
  let served: TestServer;
  let chat: ReturnType<typeof conversations>;
  beforeAll(async () => {
    served = await serveDatasets({ npcs: [await guardNpc()] });
    chat = conversations(served.server.url, "sweeper");
  });
  afterAll(async () => served.close());

  it("a taught phrase that reaches the destructive entry answers with ask, and says why", async () => {
    expect(await chat.say("delete empty directories", "t")).toMatchObject({ status: "exact match", intent: "sweep_empty", permission: "yolo" });
    expect((await chat.say("teach: show my stuff means delete empty directories", "t")).status).toBe("teaching recorded");
    const taught: ServeAnswer = await chat.say("show my stuff", "t");
    expect(taught).toMatchObject({ status: "exact match", intent: "sweep_empty", permission: "ask" });
    expect(taught.notice).toContain("A taught word led to this destructive answer");
    expect(taught.tools[0]!.arguments).toMatchObject({ command: "find . -type d -empty -delete" });
    // A harmless entry reached through a taught word keeps its permission.
    await chat.say("teach: browse means list", "t");
    expect(await chat.say("browse files", "t")).toMatchObject({ intent: "list_files", permission: "yolo" });
  });

  it("so does an operator's teaching, which applies in every conversation", async () => {
    served.store!.teachSynonym({ npc: "sweeper", word: "tidy up", meaning: "delete empty directories", source: "cli" });
    expect(await chat.say("tidy up", "anyone")).toMatchObject({ intent: "sweep_empty", permission: "ask" });
  });

  it("refuses a typo of a known word, which the NPC already answers as a guess that asks", async () => {
    expect(await chat.say("delte empty directories", "u")).toMatchObject({ status: "probabilistic match", intent: "sweep_empty", permission: "ask" });
    const refused = await chat.say("teach: delte means delete", "u");
    expect(refused.status).toBe("teaching refused");
    expect(refused.response).toContain('"delte" looks like a typo of "delete", which Sweeper already knows');
    expect(await chat.say("delte empty directories", "u")).toMatchObject({ status: "probabilistic match", permission: "ask" });
  });
});

describe("applyTaught (build --taught)", () => {
  it("never folds a teaching that reaches an unguarded destructive entry, nor a negated one", () => {
    const ir = guardNpcIr();
    const result = applyTaught(ir, [
      { word: "show my stuff", meaning: "delete empty directories" },
      { word: "zap", meaning: "delete" },
      { word: "never delete empty directories", meaning: "delete empty directories" },
      { word: "browse", meaning: "list" },
    ]);
    expect(result.applied).toEqual([{ word: "browse", meaning: "list" }]);
    expect(Object.fromEntries(result.skipped.map((s) => [s.teaching.word, s.reason]))).toEqual({
      "show my stuff": '"delete empty directories" leads to sweep_empty, destructive with permission yolo; a taught word never runs a destructive command without asking',
      zap: '"delete" leads to sweep_empty, destructive with permission yolo; a taught word never runs a destructive command without asking',
      "never delete empty directories": '"never delete empty directories" is negated; a teaching never maps a request not to do something',
    });
    expect(JSON.stringify(result.ir.synonyms)).not.toContain("show my stuff");
  });
});
