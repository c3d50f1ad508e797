// One measurement of bench/hot-path.ts in a process of its own, so "first message" really is the
// first message this process answers. Prints one JSON object on stdout.
//
//   node build/bench/hot-path-child.js <mode> <bundle.npc> <messages.json> <seed> [rounds]
//   mode first   import + load, then the first 100 distinct messages in shuffled order: per call µs
//                (p50, p99 by nearest rank: of 100 calls the 99th smallest, max, and the first call)
//   mode steady  every message answered `rounds` times first, then once per round in shuffled
//                order, each call timed alone: per stage (the status it gets, "learned" when the
//                learned stage answered) median and p99 µs
//   mode alloc   after warm-up, 10,000 calls: heap bytes allocated per call (heapUsed before and
//                after; a call during which a GC ran is left out; the cost of the probe itself is
//                subtracted)
//   mode gc      after warm-up, 10,000 calls timed with performance.now(): the share of calls a
//                young-generation GC (PerformanceObserver "gc", kind minor) overlaps
//
// Every call gets a fresh session made before its timer starts: a session's cost is not a
// message's, and no call reads another's context.

import { readFileSync } from "node:fs";
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { quantileOfSorted } from "./stats.js";

type Mode = "first" | "steady" | "alloc" | "gc";
type Answer = { status: string; witness: { stage: string }[] };
type Session = { process(message: string): Answer };
type Npc = { session(options?: { seed?: number }): Session };

const CALLS = 10_000;
const FIRST = 100;

/** A deterministic permutation of `items` (mulberry32 seeded Fisher–Yates). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = items.slice();
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const summary = (values: number[]) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return { calls: sorted.length, medianUs: quantileOfSorted(sorted, 0.5), p99Us: quantileOfSorted(sorted, 0.99), maxUs: sorted.at(-1) ?? 0 };
};

/** The stage that answered: the status, except that an answer of the learned stage is "learned". */
function stageOf(answer: Answer): string {
  return answer.witness.some((w) => w.stage === "learned") ? "learned" : answer.status;
}

function timeCall(npc: Npc, message: string, seed: number): { us: number; answer: Answer } {
  const session = npc.session({ seed });
  const start = process.hrtime.bigint();
  const answer = session.process(message);
  return { us: Number(process.hrtime.bigint() - start) / 1000, answer };
}

function warmUp(npc: Npc, messages: readonly string[], rounds: number): void {
  for (let r = 0; r < rounds; r++) for (const message of messages) npc.session({ seed: r }).process(message);
}

function first(npc: Npc, messages: readonly string[], seed: number, importMs: number, loadMs: number) {
  const times: number[] = [];
  for (const message of messages.slice(0, FIRST)) times.push(timeCall(npc, message, seed).us);
  return { importMs, loadMs, firstUs: times[0], ...summary(times) };
}

function steady(npc: Npc, messages: readonly string[], seed: number, rounds: number) {
  warmUp(npc, messages, rounds);
  const byStage = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (const message of shuffled(messages, seed + r)) {
      const { us, answer } = timeCall(npc, message, seed + r);
      const stage = stageOf(answer);
      const list = byStage.get(stage) ?? [];
      list.push(us);
      byStage.set(stage, list);
    }
  }
  return { stages: Object.fromEntries([...byStage].sort(([a], [b]) => (a < b ? -1 : 1)).map(([stage, us]) => [stage, summary(us)])) };
}

/** The next `count` messages of the stream, cycling, and a fresh session for each made beforehand. */
function calls(npc: Npc, messages: readonly string[], seed: number, count: number): { sessions: Session[]; texts: string[] } {
  const order = shuffled(messages, seed);
  const texts = Array.from({ length: count }, (_, i) => order[i % order.length]!);
  return { sessions: texts.map((_, i) => npc.session({ seed: i })), texts };
}

function alloc(npc: Npc, messages: readonly string[], seed: number) {
  warmUp(npc, messages, 3);
  const { sessions, texts } = calls(npc, messages, seed, CALLS);
  const probe = new Float64Array(CALLS);
  const bytes = new Float64Array(CALLS);
  // The probe alone (two heapUsed reads) allocates a little: measured the same way, then subtracted.
  for (let i = 0; i < CALLS; i++) {
    const before = process.memoryUsage().heapUsed;
    probe[i] = process.memoryUsage().heapUsed - before;
  }
  for (let i = 0; i < CALLS; i++) {
    const before = process.memoryUsage().heapUsed;
    sessions[i]!.process(texts[i]!);
    bytes[i] = process.memoryUsage().heapUsed - before;
  }
  const overhead = quantileOfSorted(Array.from(probe).filter((b) => b >= 0).sort((a, b) => a - b), 0.5);
  // A negative difference: a GC ran during the call, so the call's allocation is unknown.
  const kept = Array.from(bytes).filter((b) => b >= 0).map((b) => Math.max(0, b - overhead)).sort((a, b) => a - b);
  return { calls: CALLS, measured: kept.length, probeBytes: overhead, medianBytes: quantileOfSorted(kept, 0.5), p90Bytes: quantileOfSorted(kept, 0.9), maxBytes: kept.at(-1) ?? 0 };
}

async function gc(npc: Npc, messages: readonly string[], seed: number) {
  warmUp(npc, messages, 3);
  const { sessions, texts } = calls(npc, messages, seed, CALLS);
  const pauses: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  const starts = new Float64Array(CALLS);
  const ends = new Float64Array(CALLS);
  for (let i = 0; i < CALLS; i++) {
    starts[i] = performance.now();
    sessions[i]!.process(texts[i]!);
    ends[i] = performance.now();
  }
  await new Promise((done) => setTimeout(done, 50)); // gc entries are delivered asynchronously
  observer.disconnect();
  // Node 20 sets `detail.kind`; the DOM typing of PerformanceEntry does not declare it.
  const young = pauses.filter((p) => (p as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR);
  const hit = (kind: PerformanceEntry[]) => {
    let count = 0;
    for (let i = 0; i < CALLS; i++) if (kind.some((p) => p.startTime < ends[i]! && p.startTime + p.duration > starts[i]!)) count++;
    return count;
  };
  return { calls: CALLS, youngGcs: young.length, gcs: pauses.length, callsWithYoungGc: hit(young), callsWithAnyGc: hit(pauses) };
}

async function main(): Promise<void> {
  const [mode, bundleFile, messagesFile, seedText, roundsText] = process.argv.slice(2) as [Mode, string, string, string, string?];
  const seed = Number(seedText);
  const messages = shuffled(JSON.parse(readFileSync(messagesFile, "utf8")) as string[], seed);
  const bytes = readFileSync(bundleFile);
  const t0 = performance.now();
  const { loadNpc } = await import("../runtime/index.js");
  const t1 = performance.now();
  const npc: Npc = await loadNpc(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const t2 = performance.now();
  const rounds = Number(roundsText ?? 5);
  const result =
    mode === "first" ? first(npc, messages, seed, t1 - t0, t2 - t1) : mode === "steady" ? steady(npc, messages, seed, rounds) : mode === "alloc" ? alloc(npc, messages, seed) : await gc(npc, messages, seed);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
