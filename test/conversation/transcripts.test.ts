// Scripted conversations (test/conversation/transcripts/*.jsonl), each run twice: through the
// runtime (a session with ndfc/runtime/conversation) and through `ndfc serve` with the official
// `openai` client, one server session per transcript. A file's first line names the NPC; each
// next line is a turn: `say` (or `reset`: a new conversation) and what the answer must show:
// `status`, `intent`, `slots` (all of them), `elicit` (the slot asked for), `tools` (one
// substring per command, in order: [] means none runs), `permission`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversation } from "../../runtime/conversation/conversation.js";
import type { Npc } from "../../runtime/index.js";
import { serveDatasets, type TestServer } from "../serve/support.js";
import { datasetNpc } from "../support/datasets.js";
import { loadShelly } from "./shelly.js";

interface Turn {
  say?: string;
  reset?: true;
  status?: string;
  intent?: string | null;
  slots?: Record<string, string>;
  elicit?: string;
  tools?: string[];
  permission?: string;
}

/** What an answer showed, in the transcript's terms. */
interface Seen {
  status: string;
  intent: string | null;
  slots: Record<string, string>;
  elicit?: string;
  tools: string[];
  permission: string;
}

const dir = join(import.meta.dirname, "transcripts");
const transcripts = readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl"))
  .sort()
  .map((file) => {
    const [head, ...turns] = readFileSync(join(dir, file), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Turn & { npc?: string; about?: string });
    return { file, npc: head!.npc!, about: head!.about!, turns: turns as Turn[] };
  });

function check(turn: Turn, seen: Seen, where: string): void {
  const { say: _say, reset: _reset, ...expected } = turn;
  const shown: Partial<Seen> = {};
  for (const key of Object.keys(expected) as (keyof Seen)[]) (shown as Record<string, unknown>)[key] = seen[key];
  const asExpected = { ...expected, tools: expected.tools?.map((part, i) => (seen.tools[i]?.includes(part) ? seen.tools[i] : `a command containing ${part}`)) };
  if (expected.tools === undefined) delete asExpected.tools;
  expect(shown, where).toEqual(asExpected);
}

const commandOf = (args: unknown): string => String((args as { command?: unknown } | null)?.command ?? JSON.stringify(args));

let npcs: Record<string, Npc>;
let served: TestServer;
let client: OpenAI;
beforeAll(async () => {
  const shelly = await loadShelly();
  npcs = { termy: await datasetNpc("termy"), shelly };
  served = await serveDatasets({ npcs: [npcs.termy!, shelly] });
  client = new OpenAI({ baseURL: `${served.server.url}/v1`, apiKey: "x", maxRetries: 0 });
});
afterAll(async () => served?.close());

it("has at least 40 transcripts, each with turns", () => {
  expect(transcripts.length).toBeGreaterThanOrEqual(40);
  for (const t of transcripts) expect(t.turns.length, t.file).toBeGreaterThan(0);
});

describe.each(transcripts)("$file: $about", ({ file, npc, turns }) => {
  it("through the runtime", () => {
    let session = npcs[npc]!.session({ conversation });
    turns.forEach((turn, i) => {
      if (turn.reset) return void (session = npcs[npc]!.session({ conversation }));
      const r = session.process(turn.say!);
      const seen: Seen = { status: r.status, intent: r.intent, slots: r.slots, tools: r.tools.map((t) => commandOf(t.arguments)), permission: r.permission };
      if (r.elicit) seen.elicit = r.elicit.slot;
      check(turn, seen, `${file} turn ${i + 1} "${turn.say}"`);
    });
  });

  it("through serve with the openai client", async () => {
    const model = npc === "termy" ? "termy" : npcs[npc]!.name.toLowerCase();
    let sessionId: string | null = null;
    for (const [i, turn] of turns.entries()) {
      if (turn.reset) {
        sessionId = null;
        continue;
      }
      const headers: Record<string, string> = sessionId === null ? {} : { "X-Session-Id": sessionId };
      const completion: ChatCompletion = await client.chat.completions.create({ model, messages: [{ role: "user", content: turn.say! }] }, { headers });
      const message = completion.choices[0]!.message as ChatCompletion["choices"][number]["message"] & { ndfc: Record<string, unknown> };
      const ndfc = message.ndfc as { status: string; intent: string | null; slots: Record<string, string>; permission: string; session: string; elicit?: { slot: string } };
      sessionId = ndfc.session;
      const tools = (message.tool_calls ?? []).map((call) => (call.type === "function" ? commandOf(JSON.parse(call.function.arguments)) : ""));
      const seen: Seen = { status: ndfc.status, intent: ndfc.intent, slots: ndfc.slots, tools, permission: ndfc.permission };
      if (ndfc.elicit) seen.elicit = ndfc.elicit.slot;
      if (ndfc.status === "elicit") expect(message.content).toMatch(/\?/);
      check(turn, seen, `${file} turn ${i + 1} "${turn.say}" (serve)`);
    }
  });
});
