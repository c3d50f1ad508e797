// Who may talk to `ndfc serve` and in which conversation: foreign Origin and Host refused, a POST
// that is not JSON refused, API keys, sessions the server creates and binds to the key that made
// them, the per-key session cap, a client leaving mid-body, and a 2 KB "teach:" answered among
// other clients.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyId } from "../../compiler/serve/access.js";
import type { ServeAnswer } from "../../compiler/serve/host.js";
import type { ErrorBody } from "../../compiler/serve/http-error.js";
import { startServer } from "../../compiler/serve/server.js";
import { datasetNpc } from "../support/datasets.js";
import { conversations, postJson, serveDatasets, type TestServer } from "./support.js";

const KEYS = ["key-alice", "key-bob", "key-carol", "key-dave"];
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

function expectOpenAiError(json: unknown, code: string) {
  expect(json).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", param: null, code } });
}

describe("without keys (loopback)", () => {
  let served: TestServer;
  let url: string;
  const logged: string[] = [];
  beforeAll(async () => {
    served = await serveDatasets({ allowOrigins: ["https://app.example.com"], logError: (m) => void logged.push(m) });
    url = served.server.url;
  });
  afterAll(async () => served.close());

  it("refuses a request from a foreign Origin with a 403, before it can teach", async () => {
    for (const path of ["/api/chat/termy", "/v1/chat/completions"]) {
      const { status, json } = await postJson(`${url}${path}`, { message: "teach: zap means delete" }, { Origin: "https://evil.example" });
      expect(status).toBe(403);
      expectOpenAiError(json, "forbidden_origin");
    }
    const models = await fetch(`${url}/v1/models`, { headers: { Origin: "null" } });
    expect(models.status).toBe(403);
    expect(served.store!.teachings()).toEqual([]);
    expect(served.store!.auditCount()).toBe(0);
  });

  it("refuses a foreign Host (DNS rebinding) with a 403", async () => {
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(served.server.port, "127.0.0.1", () => socket.end("GET /v1/models HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"));
      let text = "";
      socket.on("data", (d: Buffer) => (text += d.toString()));
      socket.on("end", () => resolve(text.split("\r\n", 1)[0]!));
      socket.on("error", reject);
    });
    expect(status).toBe("HTTP/1.1 403 Forbidden");
  });

  it("accepts loopback and allowed origins, with CORS headers and a preflight answer", async () => {
    const allowed = await postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: "list files" }, { Origin: "https://app.example.com" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(allowed.headers.get("access-control-expose-headers")).toBe("X-Session-Id");
    expect((await postJson(`${url}/api/chat/termy`, { message: "list files" }, { Origin: "http://localhost:3000" })).status).toBe(200);
    const preflight = await fetch(`${url}/v1/chat/completions`, { method: "OPTIONS", headers: { Origin: "https://app.example.com" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
  });

  it("refuses a POST whose body is not declared JSON (a cross-origin text/plain form) with a 415", async () => {
    for (const type of ["text/plain", null]) {
      const response = await fetch(`${url}/api/chat/termy`, {
        method: "POST",
        headers: type === null ? {} : { "Content-Type": type },
        body: JSON.stringify({ message: "teach: zap means delete" }),
      });
      expect(response.status).toBe(415);
      expectOpenAiError(await response.json(), "unsupported_media_type");
    }
    expect(served.store!.teachings()).toEqual([]);
  });

  it("gives each header-less client its own session: no shared anonymous conversation", async () => {
    const first = await postJson<ServeAnswer>(`${url}/api/chat/example`, { message: "are you ready" });
    const second = await postJson<ServeAnswer>(`${url}/api/chat/example`, { message: "go" });
    expect(second.json.status).toBe("rejected"); // the first one's context is not here
    expect(second.json.session).not.toBe(first.json.session);
    const guessed = await postJson<ErrorBody>(`${url}/api/chat/example`, { message: "go" }, { "X-Session-Id": "alice" });
    expect(guessed.status).toBe(404);
    expect(guessed.headers.get("x-session-id")).toBeNull();
  });

  it("answers a 2 KB teach: message while serving 20 other clients, and it teaches nothing", async () => {
    const others = Array.from({ length: 20 }, () => postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: "list files" }));
    const teach = postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: `teach:${" ".repeat(2000)}x` });
    const [hostile, ...rest] = await Promise.all([teach, ...others]);
    expect(hostile!.status).toBe(200);
    expect(hostile!.json).toMatchObject({ status: "rejected", notice: expect.stringContaining("I read at most 500") });
    expect(rest.map((r) => r.json.intent)).toEqual(Array(20).fill("files_list"));
    expect(served.store!.teachings()).toEqual([]);
  });

  it("notes a client that leaves mid-body in one line, not as an internal error", async () => {
    logged.length = 0;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(served.server.port, "127.0.0.1", () => {
        socket.write(`POST /api/chat/termy HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"message": "li`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    await expect.poll(() => logged.length).toBeGreaterThan(0);
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toContain("\n");
    expect(logged[0]).not.toMatch(/internal error/);
    expect(logged[0]).toContain("closed the connection");
  });
});

describe("with API keys", () => {
  let served: TestServer;
  let url: string;
  beforeAll(async () => {
    served = await serveDatasets({ apiKeys: KEYS, maxSessions: 8 });
    url = served.server.url;
  });
  afterAll(async () => served.close());

  it("refuses a request without a key or with a wrong one (401)", async () => {
    for (const headers of [{}, bearer("key-mallory"), { Authorization: "key-alice" }]) {
      const { status, json, headers: h } = await postJson(`${url}/api/chat/termy`, { message: "list files" }, headers);
      expect(status).toBe(401);
      expectOpenAiError(json, "invalid_api_key");
      expect(h.get("www-authenticate")).toMatch(/^Bearer/);
    }
    expect((await fetch(`${url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${url}/v1/models`, { headers: bearer("key-bob") })).status).toBe(200);
  });

  it("refuses a session id of another key, for chat and for /api/confirm", async () => {
    const alice = conversations(url, "termy", "key-alice");
    await alice.say("delete file notes.txt", "main");
    const stolen = alice.ids.get("main")!;
    const asBob = await postJson<ErrorBody>(`${url}/api/chat/termy`, { message: "delete it" }, { ...bearer("key-bob"), "X-Session-Id": stolen });
    expect(asBob.status).toBe(404);
    expect(asBob.json.error.code).toBe("session_not_found");
    const confirm = await postJson<ErrorBody>(`${url}/api/confirm`, { npc: "termy", session: stolen }, bearer("key-bob"));
    expect(confirm.status).toBe(404);
    expect((await alice.say("list files", "main")).session).toBe(stolen); // still alice's
  });

  it("caps sessions per key: 1,000 sessions of one key do not evict another key's", async () => {
    const alice = conversations(url, "example", "key-alice");
    expect((await alice.say("are you ready", "kept")).status).toBe("exact match");
    const junk: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => postJson<ServeAnswer>(`${url}/api/chat/example`, { message: "hello" }, bearer("key-bob"))));
      junk.push(...answers.map((a) => a.json.session!));
    }
    expect(new Set(junk).size).toBe(1000);
    expect((await alice.say("go", "kept")).status).toBe("context match");
    // Bob keeps his 8 most recent only.
    const oldest = await postJson(`${url}/api/chat/example`, { message: "hello", session: junk[0] }, bearer("key-bob"));
    expect(oldest.status).toBe(404);
  });

  it("trusts a teaching once two other keys confirm it; its own key counts once, whatever its sessions; the store holds key ids, never keys", async () => {
    const alice = conversations(url, "termy", "key-alice");
    expect((await alice.say("teach: zap means delete", "a1")).status).toBe("teaching recorded");
    for (const name of ["a2", "a3", "a4"]) expect((await alice.say("teach: zap means delete", name)).teaching).toMatchObject({ confirmations: 1, state: "provisional" });
    for (let i = 0; i < 3; i++) {
      await alice.say("zap file notes.txt", "a1");
      expect((await alice.say("yes", "a1")).teaching).toMatchObject({ confirmations: 1, state: "provisional" });
    }
    const bobStranger = conversations(url, "termy", "key-bob");
    expect((await bobStranger.say("zap file notes.txt", "b0")).status).toBe("rejected");
    let last: ServeAnswer | undefined;
    for (const key of ["key-bob", "key-carol"]) {
      const other = conversations(url, "termy", key);
      last = await other.say("teach: zap means delete", "x");
      await other.say("teach: zap means delete", "y"); // a second session of the same key adds nothing
    }
    expect(last!.teaching).toEqual({ word: "zap", meaning: "delete", confirmations: 3, state: "trusted" });
    const [zap] = served.store!.teachings("termy");
    expect(zap!.client).toBe(keyId("key-alice"));
    expect(served.store!.confirmations(zap!.id).filter((c) => c.counted).map((c) => c.client)).toEqual(["key-alice", "key-bob", "key-carol"].map(keyId));
    const everything = JSON.stringify([served.store!.teachings(), served.store!.confirmations(zap!.id), served.store!.notUnderstood()]);
    for (const key of KEYS) expect(everything).not.toContain(key);
  });
});

it("refuses to listen beyond loopback without an API key", async () => {
  const npcs = [await datasetNpc("example")];
  await expect(startServer({ npcs, host: "0.0.0.0", port: 0 })).rejects.toThrow(/0\.0\.0\.0 is reachable from other machines: give an API key/);
  const keyed = await startServer({ npcs, host: "0.0.0.0", port: 0, apiKeys: ["k1"] });
  await keyed.close();
});
