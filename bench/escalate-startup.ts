// What escalation costs when it is off, and what it costs when on. `ndfc serve dist-npcs/termy.npc
// --no-store --port 0` started N times without --escalate and N times with it (to a refused
// port: the server never calls it here), alternating; the time to its "listening" line, median
// and spread, and the modules of compiler/escalate/ each start loaded (via a resolve hook, on in
// both, which slows every start alike: compare the two, not with a start without it). Then,
// in this process, the escalation's first import and its set-up for TERMy (catalogue, schema,
// render model), which serve pays once per NPC only with --escalate; and the in-process
// NpcHost.reply against NpcHost.message on a rejected message with escalation off.
//
//   npx tsc -p tsconfig.json && node build/bench/escalate-startup.js [runs]
//   → bench/results/escalate-startup.json
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { NpcHost } from "../compiler/serve/host.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { loadNpc } from "../runtime/index.js";
import { median, percentile, round } from "./stats.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const cli = join(repoRoot, "build/compiler/cli/main.js");
const bundle = join(repoRoot, "dist-npcs/termy.npc");

async function freedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** One serve start: ms from spawn to its listening line, and how many compiler/escalate/ modules it resolved. */
function startOnce(register: string, extra: string[]): Promise<{ ms: number; escalateModules: number }> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["--import", register, cli, "serve", bundle, "--no-store", "--port", "0", ...extra], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let ms = 0;
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (ms === 0 && chunk.includes("listening on")) {
        ms = performance.now() - t0;
        child.kill("SIGTERM");
      }
    });
    child.on("exit", () => {
      if (ms === 0) fail(new Error(`serve did not start: ${stderr}`));
      else done({ ms, escalateModules: new Set(stderr.match(/\/compiler\/escalate\/\S+/g) ?? []).size });
    });
  });
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 15);
  const dir = mkdtempSync(join(tmpdir(), "ndfc-escalate-bench-"));
  writeFileSync(join(dir, "hooks.mjs"), `export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write(r.url + "\\n"); return r; }\n`);
  const register = join(dir, "register.mjs");
  writeFileSync(register, `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`);
  const on = ["--escalate", `http://127.0.0.1:${await freedPort()}`, "--escalate-model", "m"];
  const off: { ms: number; escalateModules: number }[] = [];
  const withIt: { ms: number; escalateModules: number }[] = [];
  await startOnce(register, []); // warm the file cache
  for (let i = 0; i < runs; i++) {
    off.push(await startOnce(register, []));
    withIt.push(await startOnce(register, on));
  }
  rmSync(dir, { recursive: true, force: true });

  const t0 = performance.now();
  const { createEscalation } = await import("../compiler/escalate/escalator.js");
  const importMs = performance.now() - t0;
  const npc = await loadNpc(readFileSync(bundle));
  const setup: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    createEscalation(npc, { url: "http://127.0.0.1:9", api: "openai", model: "m", timeoutMs: 3000, below: 0.8 });
    setup.push(performance.now() - t);
  }
  const host = new NpcHost(npc, null, 1);
  const session = host.openSession(null);
  const sync: number[] = [];
  const viaReply: number[] = [];
  for (let i = 0; i < 2000; i++) {
    let t = performance.now();
    host.message(null, session, "blorp quux");
    sync.push(performance.now() - t);
    t = performance.now();
    await host.reply(null, session, "blorp quux");
    viaReply.push(performance.now() - t);
  }
  const summary = (values: number[]) => ({ medianMs: round(median(values), 2), p90Ms: round(percentile(values, 90), 2) });
  const report = {
    benchmark: "escalate-startup",
    node: process.version,
    loadAverage: round(loadavg()[0]!, 2),
    runs,
    serveStartOff: { ...summary(off.map((r) => r.ms)), escalateModulesLoaded: Math.max(...off.map((r) => r.escalateModules)) },
    serveStartOn: { ...summary(withIt.map((r) => r.ms)), escalateModulesLoaded: Math.min(...withIt.map((r) => r.escalateModules)) },
    escalationImportMs: round(importMs, 2),
    escalationSetupTermyMs: summary(setup),
    rejectedMessageUs: { message: round(median(sync) * 1000, 2), reply: round(median(viaReply) * 1000, 2) },
  };
  writeFileAtomic(join(repoRoot, "bench/results/escalate-startup.json"), JSON.stringify(report, null, 2) + "\n");
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

await main();
