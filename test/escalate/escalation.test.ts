// Serve with --escalate against a stand-in model server on loopback (stand-in.ts), through both
// APIs: a good answer, invalid JSON, an unknown intent, a stall past the deadline, a refused
// connection. Each message keeps exactly one audit row, with its tier and latency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { createEscalation } from "../../compiler/escalate/escalator.js";
import type { EscalationApi } from "../../compiler/escalate/types.js";
import { conversations, serveDatasets, type TestServer } from "../serve/support.js";
import { keeperNpc } from "./keeper-npc.js";
import { pick, refusingUrl, startStandIn, STAND_IN_MODEL, type StandIn } from "./stand-in.js";

const TIMEOUT_MS = 400;
const OVERVIEW = "gimme an overview of my stuff";

interface AuditRow {
  input: string;
  status: string;
  intent: string | null;
  tier: string | null;
  latency_ms: number | null;
  model: string | null;
}

async function serveKeeper(url: string, api: EscalationApi): Promise<TestServer> {
  const npc = await keeperNpc();
  return serveDatasets({ npcs: [npc], escalation: (n) => createEscalation(n, { url, api, model: "asked-model", timeoutMs: TIMEOUT_MS, below: 0.8 }) });
}

function auditRows(path: string): AuditRow[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(`SELECT input, status, intent, tier, latency_ms, model FROM audit ORDER BY id`).all() as AuditRow[];
  } finally {
    db.close();
  }
}

describe.each<EscalationApi>(["openai", "ollama"])("escalation through the %s API", (api) => {
  let model: StandIn;
  let served: TestServer;
  let sent = 0;
  let say: (message: string, name: string) => ReturnType<ReturnType<typeof conversations>["say"]>;

  beforeAll(async () => {
    model = await startStandIn();
    served = await serveKeeper(model.url, api);
    const talk = conversations(served.server.url, "keeper");
    say = (message, name) => {
      sent++;
      return talk.say(message, name);
    };
  });
  afterAll(async () => {
    await served.close();
    await model.close();
  });

  it("sends a rejection with the schema of the NPC's actions to the API's endpoint, and answers with the model's pick", async () => {
    model.script(pick("list_files"));
    const before = model.requests.length;
    const answer = await say(OVERVIEW, "a");
    expect(answer).toMatchObject({ status: "escalated", intent: "list_files", response: "Here are your files.", permission: "yolo" });
    expect(answer.escalation).toEqual({ model: STAND_IN_MODEL, outcome: "answered" });
    const [request] = model.requests.slice(before);
    expect(request!.path).toBe(api === "openai" ? "/v1/chat/completions" : "/api/chat");
    const schema = (api === "openai" ? (request!.body.response_format as { json_schema: { schema: unknown } }).json_schema.schema : request!.body.format) as {
      properties: { answer: { anyOf: { properties: { intent: { const: string } } }[] } };
    };
    expect(schema.properties.answer.anyOf.map((c) => c.properties.intent.const).sort()).toEqual(["delete_file", "greet", "list_files", "none"]);
    expect(request!.body.model).toBe("asked-model");
  });

  it("renders a destructive pick with its slot, escaped, and always asks", async () => {
    model.script(pick("delete_file", { target: "old-notes.txt" }));
    const answer = await say("please trash old-notes.txt for me", "b");
    expect(answer).toMatchObject({ status: "escalated", intent: "delete_file", permission: "ask", slots: { target: "old-notes.txt" } });
    expect(answer.tools[0]).toMatchObject({ arguments: { command: "rm -- 'old-notes.txt'" } });
  });

  it("retries once after invalid JSON, with a reminder, then says it couldn't resolve", async () => {
    model.script("Sure! I think you want list_files.");
    const before = model.requests.length;
    const answer = await say("what is going on in here", "c");
    expect(answer).toMatchObject({ status: "rejected", notice: "couldn't resolve" });
    expect(answer.escalation).toMatchObject({ model: STAND_IN_MODEL, outcome: "invalid" });
    const tries = model.requests.slice(before);
    expect(tries).toHaveLength(2);
    const reminder = (tries[1]!.body.messages as { role: string; content: string }[]).at(-1)!;
    expect(reminder).toMatchObject({ role: "user" });
    expect(reminder.content).toMatch(/not valid: it is not JSON/);
  });

  it("takes the second try's answer when it is valid", async () => {
    model.script("{oops", pick("greet"));
    const answer = await say("yo there buddy", "d");
    expect(answer).toMatchObject({ status: "escalated", intent: "greet" });
  });

  it("refuses an intent the NPC does not have (after the retry)", async () => {
    model.script(pick("format_disk"));
    const answer = await say("wipe the whole machine clean", "e");
    expect(answer).toMatchObject({ status: "rejected", intent: null, tools: [], notice: "couldn't resolve" });
    expect(answer.escalation!.detail).toMatch(/"format_disk" is not one of the actions/);
  });

  it("gives up on a model that stalls past the timeout: the model is unavailable", async () => {
    model.script("stall");
    const answer = await say("tell me a long story", "f");
    expect(answer).toMatchObject({ status: "rejected", notice: "couldn't resolve, and the model is unavailable" });
    expect(answer.escalation).toMatchObject({ model: "asked-model", outcome: "unavailable" });
    expect(answer.escalation!.detail).toMatch(/in time/);
  });

  it("never asks the model what the NPC answers itself", async () => {
    const before = model.requests.length;
    expect(await say("list files", "g")).toMatchObject({ status: "exact match", intent: "list_files" });
    expect(await say("remove notes.txt", "g")).toMatchObject({ status: "template match", permission: "yolo" });
    expect(model.requests.length).toBe(before);
  });

  it("keeps one audit row per message, each with its tier, latency and the model asked", () => {
    const rows = auditRows(served.storePath);
    expect(rows).toHaveLength(sent);
    for (const row of rows) {
      expect(row.tier).not.toBeNull();
      expect(row.latency_ms).toBeGreaterThanOrEqual(0);
    }
    const escalated = rows.filter((r) => r.tier === "escalated");
    expect(escalated.map((r) => [r.input, r.status])).toEqual([
      [OVERVIEW, "escalated"],
      ["please trash old-notes.txt for me", "escalated"],
      ["what is going on in here", "rejected"],
      ["yo there buddy", "escalated"],
      ["wipe the whole machine clean", "rejected"],
      ["tell me a long story", "rejected"],
    ]);
    expect(escalated.every((r) => r.model !== null)).toBe(true);
    expect(rows.filter((r) => r.tier !== "escalated").map((r) => r.tier)).toEqual(["exact", "template"]);
  });
});

describe("escalation to an endpoint that refuses the connection", () => {
  it("answers that the model is unavailable, at once, and audits the message", async () => {
    const served = await serveKeeper(await refusingUrl(), "openai");
    try {
      const answer = await conversations(served.server.url, "keeper").say(OVERVIEW, "a");
      expect(answer).toMatchObject({ status: "rejected", notice: "couldn't resolve, and the model is unavailable" });
      expect(answer.escalation!.detail).toMatch(/cannot reach .*ECONNREFUSED/);
      expect(auditRows(served.storePath).map((r) => [r.tier, r.status])).toEqual([["escalated", "rejected"]]);
    } finally {
      await served.close();
    }
  });
});
