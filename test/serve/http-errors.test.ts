// Raw HTTP against `ndfc serve`: the native /api/chat/:npc, every error status with its OpenAI
// shape (400, 404, 405 + Allow, 413, 500 without a stack), the session cap, and no 500 on any body.
import fc from "fast-check";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeAnswer } from "../../compiler/serve/host.js";
import type { ErrorBody } from "../../compiler/serve/http-error.js";
import { datasetNpc } from "../support/datasets.js";
import { conversations, postJson, serveDatasets, type TestServer } from "./support.js";

let served: TestServer;
let url: string;
const MAX_BODY = 2000;

beforeAll(async () => {
  served = await serveDatasets({ maxBodyBytes: MAX_BODY, maxSessions: 2 });
  url = served.server.url;
});
afterAll(async () => served.close());

function expectError(json: ErrorBody, type = "invalid_request_error") {
  expect(Object.keys(json)).toEqual(["error"]);
  expect(Object.keys(json.error).sort()).toEqual(["code", "message", "param", "type"]);
  expect(json.error.type).toBe(type);
  expect(json.error.message).not.toMatch(/\n\s+at /); // never a stack trace
}

async function rawPost(path: string, body: string): Promise<{ status: number; json: ErrorBody }> {
  const response = await fetch(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  return { status: response.status, json: (await response.json()) as ErrorBody };
}

describe("POST /api/chat/:npc", () => {
  it("returns the native response object, with the session the server created", async () => {
    const first = await postJson<ServeAnswer>(`${url}/api/chat/example`, { message: "are you ready" });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: "exact match", intent: "ready_check", tools: [], permission: "yolo" });
    expect(Array.isArray(first.json.witness)).toBe(true);
    expect(first.json.session).toMatch(/^sess_[\w-]{22}$/);
    expect(first.headers.get("x-session-id")).toBe(first.json.session);
    const second = await postJson<ServeAnswer>(`${url}/api/chat/example`, { message: "go", session: first.json.session });
    expect(second.json).toMatchObject({ status: "context match", intent: "ready_go", session: first.json.session });
  });

  it("an unknown NPC is a 404 on param npc", async () => {
    const { status, json } = await postJson<ErrorBody>(`${url}/api/chat/nobody`, { message: "hi" });
    expect(status).toBe(404);
    expectError(json);
    expect(json.error.param).toBe("npc");
  });

  it("/api/confirm without an npc is a 400 on param npc", async () => {
    const { status, json } = await postJson<ErrorBody>(`${url}/api/confirm`, { session: "x" });
    expect(status).toBe(400);
    expect(json.error.param).toBe("npc");
  });

  it("a malformed escape in the NPC name is a 404, not a 500", async () => {
    const { status, json } = await postJson<ErrorBody>(`${url}/api/chat/%E0%A4%A`, { message: "hi" });
    expect(status).toBe(404);
    expectError(json);
  });

  it("a message that is not a string is a 400 on param message", async () => {
    const { status, json } = await postJson<ErrorBody>(`${url}/api/chat/termy`, { message: 42 });
    expect(status).toBe(400);
    expect(json.error.param).toBe("message");
  });
});

describe("error statuses", () => {
  it("malformed JSON is a 400", async () => {
    const { status, json } = await rawPost("/v1/chat/completions", '{"model": "termy", "messages": [');
    expect(status).toBe(400);
    expectError(json);
    expect(json.error.message).toContain("not valid JSON");
  });

  it.each([
    ["a JSON array", "[]", null],
    ["no model", '{"messages":[{"role":"user","content":"hi"}]}', "model"],
    ["messages not an array", '{"model":"termy","messages":"hi"}', "messages"],
    ["empty messages", '{"model":"termy","messages":[]}', "messages"],
    ["a message that is not an object", '{"model":"termy","messages":["hi"]}', "messages[0]"],
    ["an unknown role", '{"model":"termy","messages":[{"role":"robot","content":"hi"}]}', "messages[0].role"],
    ["content of the wrong type", '{"model":"termy","messages":[{"role":"user","content":7}]}', "messages[0].content"],
    ["stream not a boolean", '{"model":"termy","stream":"yes","messages":[{"role":"user","content":"hi"}]}', "stream"],
    ["no user message", '{"model":"termy","messages":[{"role":"assistant","content":"hi"}]}', "messages"],
  ])("%s is a 400 naming the field", async (_name, body, param) => {
    const { status, json } = await rawPost("/v1/chat/completions", body);
    expect(status).toBe(400);
    expectError(json);
    expect(json.error.param).toBe(param);
  });

  it("an unknown model is a 404 model_not_found", async () => {
    const { status, json } = await rawPost("/v1/chat/completions", '{"model":"nobody","messages":[{"role":"user","content":"hi"}]}');
    expect(status).toBe(404);
    expect(json.error.code).toBe("model_not_found");
  });

  it("a wrong method on a known route is a 405 with Allow", async () => {
    for (const [method, path, allow] of [
      ["GET", "/v1/chat/completions", "POST"],
      ["DELETE", "/v1/models", "GET"],
      ["GET", "/api/chat/termy", "POST"],
    ] as const) {
      const response = await fetch(`${url}${path}`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
      expectError((await response.json()) as ErrorBody);
    }
  });

  it("an unknown route is a 404", async () => {
    const response = await fetch(`${url}/v2/anything`);
    expect(response.status).toBe(404);
    expectError((await response.json()) as ErrorBody);
  });

  it("an oversized body is a 413, declared or streamed without a length", async () => {
    const big = JSON.stringify({ model: "termy", messages: [{ role: "user", content: "x".repeat(3_000_000) }] });
    const declared = await rawPost("/v1/chat/completions", big);
    expect(declared.status).toBe(413);
    expectError(declared.json);
    // Chunked (no Content-Length), megabytes past the limit: the client still reads the 413.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${url}/v1/chat/completions`, { method: "POST", headers: { "Transfer-Encoding": "chunked", "Content-Type": "application/json" } }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      let sent = 0;
      const pump = () => {
        while (sent++ < 80) if (!req.write(Buffer.alloc(65536, 120))) return void req.once("drain", pump);
        req.end();
      };
      pump();
    });
    expect(chunked.status).toBe(413);
    expectError(JSON.parse(chunked.body) as ErrorBody);
    // The server still answers afterwards.
    expect((await fetch(`${url}/v1/models`)).status).toBe(200);
  });
});

describe("sessions", () => {
  it("keeps at most maxSessions per NPC and client, dropping the least recently used", async () => {
    const chat = conversations(url, "example");
    const say = async (name: string, message: string) => (await chat.say(message, name)).status;
    expect(await say("a", "are you ready")).toBe("exact match");
    expect(await say("b", "are you ready")).toBe("exact match");
    expect(await say("a", "go")).toBe("context match"); // a is the most recent again
    expect(await say("b", "are you ready")).toBe("exact match");
    await say("c", "hello"); // the cap is 2: a (least recent) goes
    expect(await say("b", "go")).toBe("context match");
    const dropped = await postJson<ErrorBody>(`${url}/api/chat/example`, { message: "go", session: chat.ids.get("a") });
    expect(dropped.status).toBe(404);
    expect(dropped.json.error).toMatchObject({ code: "session_not_found", param: "session" });
  });
});

describe("robustness", () => {
  it("no request body makes the server answer 500", async () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("model", "messages", "role", "content", "stream", "user", "x"), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    const bodies = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc.string(),
      fc.record({ model: fc.constantFrom("termy", "example", "x"), messages: fc.array(fc.record({ role: fc.constantFrom("user", "tool", "assistant"), content: json }), { maxLength: 3 }) }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom("/v1/chat/completions", "/api/chat/termy", "/api/confirm"), async (body, path) => {
        const response = await fetch(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        await response.text();
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it("an internal error is a 500 with a generic message, logged to stderr", async () => {
    const npc = await datasetNpc("example");
    const broken = Object.create(npc) as typeof npc;
    Object.defineProperty(broken, "session", { value: () => ({ process: () => { throw new Error("kaboom"); } }) });
    const logged: string[] = [];
    const own = await serveDatasets({ npcs: [broken], withStore: false, logError: (m) => void logged.push(m) });
    try {
      const { status, json } = await postJson<ErrorBody>(`${own.server.url}/api/chat/example`, { message: "hi" });
      expect(status).toBe(500);
      expectError(json, "server_error");
      expect(json.error.message).toBe("internal server error");
      expect(logged.join("\n")).toContain("kaboom");
    } finally {
      await own.close();
    }
  });
});
