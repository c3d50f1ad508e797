// A bounded load on loopback (the small version of bench/serve-load.ts): no request fails and
// the audit log holds one row per request, each under the session that sent it.
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runServeLoad } from "../../bench/serve-load.js";
import { serveDatasets, type TestServer } from "./support.js";

let served: TestServer;
beforeAll(async () => {
  served = await serveDatasets();
});
afterAll(async () => served.close());

it("10 concurrent clients × 20 requests: no errors, one audit row per request", async () => {
  const result = await runServeLoad({ url: served.server.url, model: "termy", clients: 10, requestsPerClient: 20 });
  expect(result).toMatchObject({ requests: 200, ok: 200, errors: 0 });
  const db = new Database(served.storePath, { readonly: true });
  try {
    const sessions = (db.prepare(`SELECT session FROM audit ORDER BY session`).all() as { session: string }[]).map((r) => r.session);
    expect(sessions).toEqual([...result.okSessions].sort());
  } finally {
    db.close();
  }
});
