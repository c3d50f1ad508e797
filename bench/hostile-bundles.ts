// Hostile bundles (issue 13): the same seeded mutations of datasets/example's payload as
// test/runtime/hostile-bundles.test.ts; for each, the time to refuse or load it, and for each one
// that loads, the time of every one of the 100 messages (target: each ≤ 50 ms). Records the
// median and max per message, the slowest load or refusal, and the slowest cases' mutations.
// Each message is answered by two sessions of the same seed (so in the same state) and timed as
// the faster of the two: a scheduler pause on this shared machine is not billed to the bundle.
//
//   npx tsc -p tsconfig.json && node build/bench/hostile-bundles.js [bundles]
//   → bench/results/hostile-bundles.json

import { mkdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { InvalidBundleError, loadNpc } from "../runtime/index.js";
import { HOSTILE_SEED, examplePayload, hostileMessages, internalErrorOf, mutatedBundle, mutationsArbitrary, type Mutation } from "./hostile-payloads.js";
import { median, percentile, round } from "./stats.js";

interface Slowest {
  ms: number;
  message?: string;
  mutations: Mutation[];
}

async function main(): Promise<void> {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  const bundles = Number(process.argv[2] ?? 20_000);
  const base = examplePayload(repoRoot);
  const messages = hostileMessages(base);
  const perMessage: number[] = [];
  const perLoad: number[] = [];
  let refused = 0;
  const internalErrors: { note: string; message: string; mutations: Mutation[] }[] = [];
  let slowestMessage: Slowest = { ms: 0, mutations: [] };
  let slowestLoad: Slowest = { ms: 0, mutations: [] };
  for (const mutations of fc.sample(mutationsArbitrary, { seed: HOSTILE_SEED, numRuns: bundles })) {
    const bytes = mutatedBundle(base, mutations);
    const start = performance.now();
    let npc;
    try {
      npc = await loadNpc(bytes);
    } catch (error) {
      if (!(error instanceof InvalidBundleError)) throw error;
      refused++;
    }
    const loadMs = performance.now() - start;
    perLoad.push(loadMs);
    if (loadMs > slowestLoad.ms) slowestLoad = { ms: loadMs, mutations };
    if (!npc) continue;
    const sessions = [npc.session({ seed: 13 }), npc.session({ seed: 13 })];
    for (const message of messages) {
      const ms = Math.min(
        ...sessions.map((session) => {
          const t = performance.now();
          const note = internalErrorOf(session.process(message));
          const ms = performance.now() - t;
          if (note !== null) internalErrors.push({ note, message, mutations });
          return ms;
        }),
      );
      perMessage.push(ms);
      if (ms > slowestMessage.ms) slowestMessage = { ms, message, mutations };
    }
  }
  const report = {
    benchmark: "hostile-bundles",
    node: process.version,
    cpus: cpus().length,
    loadAverage: round(loadavg()[0]!, 2),
    seed: HOSTILE_SEED,
    bundles,
    refused,
    loaded: bundles - refused,
    messagesAnswered: perMessage.length,
    internalErrors: internalErrors.length,
    firstInternalErrors: internalErrors.slice(0, 3),
    messageMs: { median: round(median(perMessage), 4), p99: round(percentile(perMessage, 99), 4), max: round(percentile(perMessage, 100), 3) },
    loadOrRefuseMs: { median: round(median(perLoad), 4), p99: round(percentile(perLoad, 99), 4), max: round(percentile(perLoad, 100), 3) },
    targetMessageMs: 50,
    slowestMessage,
    slowestLoad,
  };
  const out = join(repoRoot, "bench", "results");
  mkdirSync(out, { recursive: true });
  writeFileAtomic(join(out, "hostile-bundles.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (report.messageMs.max > report.targetMessageMs || internalErrors.length > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
