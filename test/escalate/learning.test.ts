// The NPC learns from its fallback: a confirmed escalated answer becomes a provisional input of
// its intent (answered here without the model, tier "learned"), trusted after TRUST_AFTER
// confirmers (the learner first), and folded by `ndfc build --taught` into a bundle that answers it exactly.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { createEscalation } from "../../compiler/escalate/escalator.js";
import { lintSources } from "../../compiler/lint.js";
import { applyLearned } from "../../compiler/passes/apply-learned.js";
import { TRUST_AFTER } from "../../compiler/store/store.js";
import type { ServeAnswer } from "../../compiler/serve/host.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { conversations, serveDatasets, type TestServer } from "../serve/support.js";
import { keeperDir, keeperNpc } from "./keeper-npc.js";
import { pick, startStandIn, type StandIn } from "./stand-in.js";

const OVERVIEW = "Gimme an overview of my stuff";
const LESSON = "gimme an overview of my stuff";

describe("learning confirmed escalated answers", () => {
  let model: StandIn;
  let served: TestServer;
  let talk: ReturnType<typeof conversations>;

  beforeAll(async () => {
    model = await startStandIn();
    const npc = await keeperNpc();
    served = await serveDatasets({ npcs: [npc], escalation: (n) => createEscalation(n, { url: model.url, api: "ollama", model: "m", timeoutMs: 2000, below: 0.8 }) });
    talk = conversations(served.server.url, "keeper");
  });
  afterAll(async () => {
    await served.close();
    await model.close();
  });

  it("records a confirmed answer as a provisional input, answered in that conversation without the model", async () => {
    model.script(pick("list_files"));
    expect((await talk.say(OVERVIEW, "a")).status).toBe("escalated");
    const confirmed = await talk.say("yes", "a");
    expect(confirmed).toMatchObject({ status: "teaching confirmed", teaching: { word: LESSON, meaning: "list_files", state: "provisional", confirmations: 1 } });
    const asked = model.requests.length;
    const again = await talk.say(OVERVIEW, "a");
    expect(again).toMatchObject({ status: "exact match", intent: "list_files", taught: [{ word: LESSON, meaning: "list_files", state: "provisional" }] });
    expect(model.requests.length).toBe(asked);
    // Another conversation still goes to the model: a provisional lesson stays where it was taught.
    expect((await talk.say(OVERVIEW, "b")).status).toBe("escalated");
  });

  it("trusts it once other confirmers agree, then answers it everywhere", async () => {
    const { json } = await talk.confirm("b");
    expect(json.teachings[0]).toMatchObject({ word: LESSON, state: "provisional", confirmations: 2 });
    let last: ServeAnswer | undefined;
    for (const name of ["c", "d"].slice(0, TRUST_AFTER - 2)) {
      expect((await talk.say(OVERVIEW, name)).status).toBe("escalated");
      last = await talk.say("yes", name);
    }
    expect(last!.teaching).toMatchObject({ state: "trusted", confirmations: TRUST_AFTER });
    const asked = model.requests.length;
    expect(await talk.say(OVERVIEW, "e")).toMatchObject({ status: "exact match", intent: "list_files" });
    expect(model.requests.length).toBe(asked);
  });

  it("learns nothing from a denied answer or an answer with slots", async () => {
    model.script(pick("greet"));
    await talk.say("yo buddy", "f");
    expect((await talk.say("no", "f")).status).toBe("teaching denied");
    model.script(pick("delete_file", { target: "a.txt" }));
    expect((await talk.say("please trash a.txt", "g")).status).toBe("escalated");
    expect((await talk.say("yes", "g")).status).not.toBe("teaching confirmed");
    expect(served.store!.teachings("keeper").map((t) => [t.kind, t.word, t.meaning])).toEqual([["input", LESSON, "list_files"]]);
  });

  it("audits each message under the tier that answered", () => {
    const db = new Database(served.storePath, { readonly: true });
    const rows = db.prepare(`SELECT tier FROM audit WHERE input = ? ORDER BY id`).all(OVERVIEW) as { tier: string }[];
    db.close();
    expect(rows.map((r) => r.tier)).toEqual(["escalated", "learned", "escalated", "escalated", "learned"]);
  });

  it("ndfc audit --tier escalated lists what the model had to answer", async () => {
    const result = await runCaptured(["audit", "--store", served.storePath, "--tier", "escalated", "--json"], process.cwd());
    expect(result.code).toBe(0);
    const groups = JSON.parse(result.out) as { input: string; count: number; statuses: string[]; latencyMs: number }[];
    expect(groups[0]).toMatchObject({ input: LESSON, count: 3, statuses: ["escalated"] });
    // The "yes" after an answer that cannot be learned is an ordinary message: rejected, so escalated.
    expect(groups.map((g) => g.input).sort()).toEqual([LESSON, "please trash a.txt", "yes", "yo buddy"]);
    expect(groups.every((g) => g.latencyMs >= 0)).toBe(true);
  });

  it("build --taught folds the trusted lesson: the bundle answers the message exactly, without a server", async () => {
    const dir = tempDir("learned-build");
    const source = keeperDir();
    const out = join(dir, "keeper.npc");
    const build = await runCaptured(["build", source, "-o", out, "--taught", served.storePath], process.cwd());
    expect(build.code).toBe(0);
    expect(build.err).toContain("folded 0 trusted teaching(s) and 1 learned input(s) of keeper");
    const ask = JSON.parse((await runCaptured(["ask", out, OVERVIEW, "--json"], process.cwd())).out) as ServeAnswer;
    expect(ask).toMatchObject({ status: "exact match", intent: "list_files" });
  });
});

describe("applyLearned", () => {
  const ir = lintSources([keeperDir()]).ir;

  it("adds an input to its intent and skips what must not become one, saying why", () => {
    const result = applyLearned(ir, [
      { input: "Show me my stuff", intent: "list_files" },
      { input: "bin the file", intent: "delete_file" },
      { input: "don't show my stuff", intent: "list_files" },
      { input: "hello", intent: "list_files" },
      { input: "make coffee", intent: "brew" },
    ]);
    expect(result.applied).toEqual([{ input: "show me my stuff", intent: "list_files" }]);
    expect(result.ir.intents.find((i) => i.id === "list_files")!.inputs.map((i) => i.value)).toContain("show me my stuff");
    const reason = (input: RegExp) => result.skipped.find((s) => input.test(s.lesson.input))?.reason;
    expect(reason(/^bin the file$/)).toMatch(/destructive with permission yolo/);
    expect(reason(/show my stuff$/)).toMatch(/negated/);
    expect(reason(/^hello$/)).toMatch(/already an input of greet/);
    expect(reason(/^make coffee$/)).toMatch(/not an intent/);
    expect(result.skipped).toHaveLength(4);
  });

  it("gives the same IR whatever the order of the lessons", () => {
    const lessons = [
      { input: "b thing", intent: "list_files" },
      { input: "a thing", intent: "greet" },
    ];
    expect(applyLearned(ir, lessons).ir).toEqual(applyLearned(ir, [...lessons].reverse()).ir);
  });
});
