// A stand-in for a local model server, on loopback, started by the tests: it speaks OpenAI's
// /v1/chat/completions and Ollama's /api/chat, records every request, and answers as the test
// says: a reply text (good JSON, invalid JSON, an unknown intent), or a stall past any deadline.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInRequest {
  path: string;
  body: Record<string, unknown>;
}

/** What to answer one request with: the message content, or "stall" (never answer). */
export type StandInReply = string | "stall";

export interface StandIn {
  url: string;
  /** The model name the stand-in reports in its replies. */
  model: string;
  requests: StandInRequest[];
  /** Replies to give, in order; the last one repeats. */
  script(...replies: StandInReply[]): void;
  close(): Promise<void>;
}

export const STAND_IN_MODEL = "stand-in-7b";

/** A model answer naming an intent and its slots, as the schema asks. */
export const pick = (intent: string, slots: Record<string, string> = {}): string => JSON.stringify({ answer: { intent, slots } });

function envelope(path: string, content: string): Record<string, unknown> {
  if (path === "/api/chat") return { model: STAND_IN_MODEL, created_at: "2026-12-01T00:00:00Z", message: { role: "assistant", content }, done: true };
  return { id: "cmpl-1", object: "chat.completion", model: STAND_IN_MODEL, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] };
}

export async function startStandIn(): Promise<StandIn> {
  let replies: StandInReply[] = [pick("none")];
  let served = 0;
  const requests: StandInRequest[] = [];
  const stalled = new Set<ServerResponse>();
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path !== "/api/chat" && path !== "/v1/chat/completions") {
      res.writeHead(404).end("no such route");
      return;
    }
    requests.push({ path, body: JSON.parse(text) as Record<string, unknown> });
    const reply = replies[Math.min(served++, replies.length - 1)]!;
    if (reply === "stall") {
      stalled.add(res);
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(envelope(path, reply)));
  };
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => handle(req, res, text));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    model: STAND_IN_MODEL,
    requests,
    script: (...next) => {
      replies = next;
      served = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const res of stalled) res.destroy();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A loopback URL nothing listens on: a port just freed. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return `http://127.0.0.1:${port}`;
}
