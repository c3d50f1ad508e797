// Load on `ndfc serve` over loopback: C concurrent clients send R chat completions each, one
// after another, each request naming no session (so the server creates one per request and
// returns its id in X-Session-Id); we count errors, measure latency per request and check that
// the audit log holds exactly one row per request, under the session the server returned. Server and clients share one process
// (and this machine's 2 cores), so the figures are a floor for the server alone.
//
// Runs: with the store, without it, and with API keys (the cost of the checks). Then the hostile
// teach message of issue 13 ("teach:" + 2,000 spaces + "x", once a 10.9 s stall): its latency on
// an idle server, among the load's clients (against theirs at the same time), and in-process.
//
//   npx tsc -p tsconfig.json && node build/bench/serve-load.js [clients] [requests-per-client]
//   → bench/results/serve-load.json
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compileNpc } from "../compiler/compile.js";
import { lintSources } from "../compiler/lint.js";
import { NpcHost } from "../compiler/serve/host.js";
import { startServer } from "../compiler/serve/server.js";
import { openStore } from "../compiler/store/store.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { loadNpc } from "../runtime/index.js";
import { median, percentile, round } from "./stats.js";

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

/** The message of issue 13 item 5. */
export const HOSTILE_TEACH = `teach:${" ".repeat(2000)}x`;

/** Latencies (ms) of `count` hostile teach requests sent one after another, each answered 200. */
async function hostileTeachLatencies(url: string, count: number, headers: Record<string, string>): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const response = await fetch(`${url}/api/chat/termy`, { method: "POST", headers, body: JSON.stringify({ message: HOSTILE_TEACH }) });
    await response.json();
    if (response.status !== 200) throw new Error(`hostile teach answered ${response.status}`);
    latencies.push(performance.now() - t0);
  }
  return latencies.sort((a, b) => a - b);
}

const summary = (ms: readonly number[]) => ({ count: ms.length, medianMs: round(median(ms), 3), p99Ms: round(percentile(ms, 99), 3), maxMs: round(ms[ms.length - 1] ?? 0, 3) });

async function main(): Promise<void> {
  const clients = Number(process.argv[2] ?? 50);
  const requestsPerClient = Number(process.argv[3] ?? 200);
  const repo = resolve(import.meta.dirname, "../..");
  const lint = lintSources([join(repo, "datasets", "termy")]);
  const npc = await loadNpc(compileNpc(lint.ir).bytes);
  const runs = [];
  let hostileTeach: Record<string, unknown> = {};
  for (const [withStore, apiKey] of [[true, undefined], [false, undefined], [true, "bench-key"]] as const) {
    const dir = mkdtempSync(join(tmpdir(), "ndfc-serve-load-"));
    const store = withStore ? openStore(join(dir, "ndfc.db")) : null;
    const server = await startServer({ npcs: [npc], port: 0, store, apiKeys: apiKey === undefined ? [] : [apiKey] });
    await runServeLoad({ url: server.url, model: "termy", clients: 2, requestsPerClient: 50, apiKey }); // warm-up
    const before = store?.auditCount() ?? 0;
    const result = await runServeLoad({ url: server.url, model: "termy", clients, requestsPerClient, apiKey });
    const auditRows = store ? store.auditCount() - before : null;
    if (withStore && apiKey === undefined) {
      // The hostile teach: idle, then among `clients` clients (their latencies over the same time).
      const headers = { "Content-Type": "application/json" };
      const idle = await hostileTeachLatencies(server.url, 200, headers);
      const stop = new AbortController();
      const background = runServeLoad({ url: server.url, model: "termy", clients, requestsPerClient: 1_000_000, stop: stop.signal });
      await new Promise((r) => setTimeout(r, 200));
      const underLoad = await hostileTeachLatencies(server.url, 100, headers);
      stop.abort();
      const others = await background;
      const host = new NpcHost(npc, null, 1);
      const session = host.openSession(null);
      const inProcess: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const t0 = performance.now();
        host.message(null, session, HOSTILE_TEACH);
        inProcess.push(performance.now() - t0);
      }
      hostileTeach = {
        message: "teach: + 2,000 spaces + x (2,007 characters)",
        idle: summary(idle),
        underLoad: { ...summary(underLoad), clients, otherClients: { ...summary(others.latenciesMs), errors: others.errors } },
        inProcessUs: { medianUs: round(median(inProcess) * 1000, 2), maxUs: round(Math.max(...inProcess) * 1000, 2) },
      };
    }
    await server.close();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
    runs.push({
      store: withStore,
      apiKey: apiKey !== undefined,
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
    loadAverage: round(loadavg()[0]!, 2),
    note: "loopback, clients and server in one process; each request a new server-made session, requests of a client in sequence; audit in WAL, synchronous=NORMAL",
    runs,
    hostileTeach,
  };
  const out = join(repo, "bench", "results");
  mkdirSync(out, { recursive: true });
  writeFileAtomic(join(out, "serve-load.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const failed = runs.some((r) => r.errors > 0 || (r.auditRows !== null && r.auditRows !== r.requests));
  if (failed) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
