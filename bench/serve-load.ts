// Load on `ndfc serve` over loopback: C concurrent clients send R chat completions each, one
// after another, each request naming no session (so the server creates one per request and
// returns its id in X-Session-Id); we count errors, measure latency per request and check that
// the audit log holds exactly one row per request, under the session the server returned. Server and clients share one process
// (and this machine's 2 cores), so the figures are a floor for the server alone.
//
//   npx tsc -p tsconfig.json && node build/bench/serve-load.js [clients] [requests-per-client]
//   → bench/results/serve-load.json
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compileNpc } from "../compiler/compile.js";
import { lintSources } from "../compiler/lint.js";
import { startServer } from "../compiler/serve/server.js";
import { openStore } from "../compiler/store/store.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { loadNpc } from "../runtime/index.js";
import { percentile, round } from "./stats.js";

/** Messages that reach every stage of TERMy: exact, template, probabilistic, rejected. */
export const LOAD_MESSAGES = ["list files", "delete file notes.txt", "show disk space", "create a folder demo", "blorp quux", "hello"];

export interface LoadOptions {
  /** Base URL of the server (http://host:port). */
  url: string;
  model: string;
  clients: number;
  requestsPerClient: number;
  messages?: readonly string[];
  /** Once aborted, clients send no more requests (a test kills the server mid-load). */
  stop?: AbortSignal;
  /** Sent as Authorization: Bearer KEY. */
  apiKey?: string;
}

export interface LoadResult {
  requests: number;
  ok: number;
  errors: number;
  /** Session ids (from X-Session-Id) of the requests answered 200. */
  okSessions: string[];
  durationMs: number;
  latenciesMs: number[];
}

/** Runs the load; never throws for a failed request (it counts as an error). */
export async function runServeLoad(options: LoadOptions): Promise<LoadResult> {
  const messages = options.messages ?? LOAD_MESSAGES;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (options.apiKey !== undefined) headers.Authorization = `Bearer ${options.apiKey}`;
  const latenciesMs: number[] = [];
  const okSessions: string[] = [];
  let errors = 0;
  const started = performance.now();
  const client = async (k: number) => {
    for (let r = 0; r < options.requestsPerClient && !options.stop?.aborted; r++) {
      const body = JSON.stringify({ model: options.model, messages: [{ role: "user", content: messages[(k + r) % messages.length] }] });
      const t0 = performance.now();
      try {
        const response = await fetch(`${options.url}/v1/chat/completions`, {
          method: "POST",
          headers,
          body,
        });
        const json = (await response.json()) as { object?: string };
        const session = response.headers.get("x-session-id");
        if (response.status === 200 && json.object === "chat.completion" && session !== null) okSessions.push(session);
        else errors++;
      } catch {
        errors++;
      }
      latenciesMs.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, k) => client(k)));
  return {
    requests: latenciesMs.length,
    ok: okSessions.length,
    errors,
    okSessions,
    durationMs: performance.now() - started,
    latenciesMs: latenciesMs.sort((a, b) => a - b),
  };
}

async function main(): Promise<void> {
  const clients = Number(process.argv[2] ?? 50);
  const requestsPerClient = Number(process.argv[3] ?? 200);
  const repo = resolve(import.meta.dirname, "../..");
  const lint = lintSources([join(repo, "datasets", "termy")]);
  const npc = await loadNpc(compileNpc(lint).bytes);
  const runs = [];
  for (const withStore of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), "ndfc-serve-load-"));
    const store = withStore ? openStore(join(dir, "ndfc.db")) : null;
    const server = await startServer({ npcs: [npc], port: 0, store });
    await runServeLoad({ url: server.url, model: "termy", clients: 2, requestsPerClient: 50 }); // warm-up
    const before = store?.auditCount() ?? 0;
    const result = await runServeLoad({ url: server.url, model: "termy", clients, requestsPerClient });
    await server.close();
    const auditRows = store ? store.auditCount() - before : null;
    store?.close();
    rmSync(dir, { recursive: true, force: true });
    runs.push({
      store: withStore,
      requests: result.requests,
      errors: result.errors,
      auditRows,
      requestsPerSecond: round(result.requests / (result.durationMs / 1000), 1),
      p50Ms: round(percentile(result.latenciesMs, 50), 3),
      p90Ms: round(percentile(result.latenciesMs, 90), 3),
      p99Ms: round(percentile(result.latenciesMs, 99), 3),
      maxMs: round(result.latenciesMs[result.latenciesMs.length - 1] ?? 0, 3),
      durationMs: round(result.durationMs, 1),
    });
  }
  const report = {
    benchmark: "serve-load",
    clients,
    requestsPerClient,
    node: process.version,
    note: "loopback, clients and server in one process; each client one session, requests in sequence; audit in WAL, synchronous=NORMAL",
    runs,
  };
  const out = join(repo, "bench", "results");
  mkdirSync(out, { recursive: true });
  writeFileAtomic(join(out, "serve-load.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const failed = runs.some((r) => r.errors > 0 || (r.auditRows !== null && r.auditRows !== r.requests));
  if (failed) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
