// What `ndfc serve` adds for browsers and deployments: the index and chat pages (public, with
// their files), /health, CORS only for --cors origins, the server's own pages accepted beyond
// loopback, /api/chat's explain trace, and one log line per request with the message only on request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeAnswer } from "../../compiler/serve/host.js";
import type { WebAssets } from "../../compiler/web/assets.js";
import { postJson, serveDatasets, type TestServer } from "./support.js";

const FAKE_ASSETS: WebAssets = new Map([
  ["chat.js", new TextEncoder().encode("/* chat */")],
  ["chat.css", new TextEncoder().encode("/* css */")],
  ["ndfc-runtime.js", new TextEncoder().encode("/* runtime */")],
]);

describe("pages, health, CORS and the request log", () => {
  let served: TestServer;
  let url: string;
  const lines: string[] = [];
  beforeAll(async () => {
    served = await serveDatasets({ withStore: false, webAssets: FAKE_ASSETS, allowOrigins: ["https://app.example.com"], logRequest: (line) => void lines.push(line) });
    url = served.server.url;
  });
  afterAll(async () => served.close());

  it("links each NPC's chat page from /, and the page talks to that NPC's API", async () => {
    const index = await (await fetch(`${url}/`)).text();
    expect(index).toContain('href="/chat/termy"');
    expect(index).toContain('href="/chat/example"');
    const page = await fetch(`${url}/chat/termy`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain('data-api="/api/chat/termy"');
    expect(html).toContain('<label for="message">Message to Termy</label>');
    expect(html).not.toMatch(/(src|href)="https?:/); // nothing from another origin
    expect(await (await fetch(`${url}/chat/assets/chat.js`)).text()).toBe("/* chat */");
    // The runtime is for exported sites; the served page never needs it.
    expect((await fetch(`${url}/chat/assets/ndfc-runtime.js`)).status).toBe(404);
    expect((await fetch(`${url}/chat/nobody`)).status).toBe(404);
  });

  it("answers /health", async () => {
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", models: 2, store: "none" });
  });

  it("sends CORS headers to --cors origins only, not to loopback pages", async () => {
    const cors = await postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: "list files" }, { Origin: "https://app.example.com" });
    expect(cors.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const loopback = await postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: "list files" }, { Origin: "http://localhost:3000" });
    expect(loopback.status).toBe(200);
    expect(loopback.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(`${url}/api/chat/termy`, { method: "OPTIONS", headers: { Origin: "http://localhost:3000" } });
    expect(preflight.status).not.toBe(204);
  });

  it("returns the explain trace when asked, and refuses an explain that is not a boolean", async () => {
    const explained = await postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: "shwo disk spcae", explain: true });
    expect(explained.json.trace?.map((step) => step.stage)).toContain("decision");
    const plain = await postJson<ServeAnswer>(`${url}/api/chat/termy`, { message: "shwo disk spcae" });
    expect(plain.json.trace).toBeUndefined();
    const bad = await postJson<{ error: { param: string } }>(`${url}/api/chat/termy`, { message: "x", explain: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("explain");
  });

  it("logs one line per request (method, path without query, status, ms) and never the message by default", async () => {
    lines.length = 0;
    await postJson(`${url}/api/chat/termy?debug=1`, { message: "my secret plan" });
    await fetch(`${url}/nowhere`);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z POST \/api\/chat\/termy 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/ GET \/nowhere 404 \d+\.\dms$/);
    expect(lines.join("\n")).not.toContain("secret");
  });
});

describe("beyond loopback", () => {
  let served: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    served = await serveDatasets({
      withStore: false,
      webAssets: FAKE_ASSETS,
      apiKeys: ["k1"],
      allowHosts: ["npc.lan"],
      logMessages: true,
      logRequest: (line) => void lines.push(line),
    });
  });
  afterAll(async () => served.close());

  it("shows pages and /health without a key; the API still needs it", async () => {
    const { url } = served.server;
    for (const path of ["/", "/chat/termy", "/chat/assets/chat.css", "/health"]) expect((await fetch(`${url}${path}`)).status).toBe(200);
    expect((await postJson(`${url}/api/chat/termy`, { message: "list files" })).status).toBe(401);
    expect((await fetch(`${url}/v1/models`)).status).toBe(401);
  });

  it("accepts its own page's Origin (the allowed Host), without CORS headers, and logs the message when asked", async () => {
    const { port } = served.server;
    // fetch() does not let a test set Host: node:http does.
    const { request } = await import("node:http");
    const status = await new Promise<{ code: number; cors: string | undefined }>((resolve, reject) => {
      const body = JSON.stringify({ message: "list files" });
      const req = request(
        { host: "127.0.0.1", port, path: "/api/chat/termy", method: "POST", headers: { Host: `npc.lan:${port}`, Origin: `http://npc.lan:${port}`, Authorization: "Bearer k1", "Content-Type": "application/json" } },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ code: res.statusCode ?? 0, cors: res.headers["access-control-allow-origin"] as string | undefined }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(status).toEqual({ code: 200, cors: undefined });
    expect(lines.some((line) => line.endsWith('ms message="list files"'))).toBe(true);
  });
});

describe("without built page files", () => {
  it("answers the chat page with a 503 that says to build them", async () => {
    const served = await serveDatasets({ withStore: false, webAssets: new Map() });
    try {
      const page = await fetch(`${served.server.url}/chat/termy`);
      expect(page.status).toBe(503);
      expect(((await page.json()) as { error: { message: string } }).error.message).toContain("npm run build");
    } finally {
      await served.close();
    }
  });
});
