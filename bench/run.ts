// ndfc benchmark: per-stage latency on an NPC's own messages, bundle load time and heap growth,
// build time and size, and the cost curve on deterministic synthetic datasets (1k, 10k, 100k
// inputs, plus 20k). Writes bench/results/<name>.json and regenerates bench/results/README.md.
//
//   npm run bench                         TERMy from ../shared/corpus/npc-forge/termy
//   node --expose-gc build/bench/run.js <npc-dir> [--quick]
//   node --expose-gc build/bench/run.js [<npc-dir>] --curve-only   the cost curve alone, into existing results
//   node build/bench/run.js [<npc-dir>] --size   only the runtime size, into the NPC's existing results
//   node build/bench/run.js --hot-path           only what a user gets per message (bench/hot-path.ts), into hot-path.json
//   node build/bench/run.js --cold [--runs N]    only the fresh-process start-up figures (bench/cold-start.ts)
//
// Timing: each message is answered in batches; a sample is the batch time / batch size, so timer
// overhead stays out of microsecond figures. Medians and p99 are over all samples of a stage.

import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { swapMiddleOfLongestWord } from "./matching-inputs.js";
import { cpus, loadavg } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileNpc } from "../compiler/compile.js";
import { lintSources } from "../compiler/lint.js";
import type { NpcIR } from "../compiler/ir/types.js";
import { loadNpc, type Npc, type NpcSession } from "../runtime/index.js";
import { TypeMatcher } from "../runtime/text/regex-vm.js";
import { impliedWords } from "../compiler/passes/compute-vocab.js";
import { hotPathBench, hotPathReadme } from "./hot-path.js";
import { CORE_BUDGET_BYTES, runtimeBundleSize, type RuntimeBundleSize } from "./runtime-size.js";
import { measure, percentile, round, type Latency } from "./stats.js";
import { syntheticNpc } from "./synthetic.js";
import { coldStartReport } from "./cold-start.js";
import { templateSequences } from "../compiler/ir/template-parts.js";

const STATUSES = ["exact match", "template match", "probabilistic match", "rejected"] as const;
type Stage = (typeof STATUSES)[number];

interface CurvePoint {
  inputs: number;
  intents: number;
  buildMs: number;
  bytes: number;
  loadMs: number;
  stages: Partial<Record<Stage, Latency>>;
}

// Run from build/bench/: the repository is two levels up.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const sizeOnly = args.includes("--size");
const curveOnly = args.includes("--curve-only");
const hotPathOnly = args.includes("--hot-path");
const coldOnly = args.includes("--cold");
const coldRuns = Number(args[args.indexOf("--runs") + 1] ?? 5) || 5;
const npcDir = resolve(args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs") ?? resolve(repoRoot, "../shared/corpus/npc-forge/termy"));
const resultsDir = join(repoRoot, "bench/results");
/** Results file name: the NPC directory relative to the repository ("datasets-termy", "shared-corpus-npc-forge-termy"), so two NPCs named alike never overwrite each other. */
const resultName = relative(repoRoot, npcDir).replace(/^(\.\.[\\/])+/, "").replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "").toLowerCase();

/** A deterministic typo of a message (the message itself when it has no word to misspell). */
const typoOrSame = (text: string) => swapMiddleOfLongestWord(text) ?? text;

function timeMs<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

/** Median and p99 per-call latency over `messages`, answered in batches. */
function measureSession(session: NpcSession, messages: string[], batch: number, rounds: number): Latency {
  return measure(messages, (message) => session.process(message), batch, rounds);
}

/** Messages bucketed by the status they actually get (first `cap` per status, in candidate order). */
function bucketByStatus(npc: Npc, candidates: string[], cap: number): Record<Stage, string[]> {
  const buckets: Record<Stage, string[]> = { "exact match": [], "template match": [], "probabilistic match": [], rejected: [] };
  const seen = new Set<string>();
  for (const message of candidates) {
    if (seen.has(message)) continue;
    seen.add(message);
    const status = npc.session().process(message).status;
    const bucket = buckets[status as Stage];
    if (bucket && bucket.length < cap) bucket.push(message);
  }
  return buckets;
}

const SAMPLE_VALUES = ["notes.txt", "42", "/tmp/demo", "example.com", "a", "hello", "192.168.1.10", "8080", "me@example.com", "10mb", "docs"];

/** One message per template path: first synonym of each required vocab node, a sample value per slot. */
function templateMessages(ir: NpcIR, npc: Npc): string[] {
  const synonyms = new Map(ir.synonyms.map((s) => [s.tag, s.words[0] ?? impliedWords(s.tag)]));
  const matchers = new Map(npc.payload.types.map((t) => [t.name, new TypeMatcher(t)]));
  const messages: string[] = [];
  for (const intent of ir.intents) {
    for (const path of intent.paths) {
      // one message per template: its first node sequence
      const words = templateSequences(path.nodes, 1)
        .sequences[0]!.filter((n) => n.required)
        .map((n) => {
          if (n.type === "vocab") return synonyms.get(n.tags[0]!) ?? impliedWords(n.tags[0]!);
          if (n.type === "string") return "hello world";
          const matcher = matchers.get(n.type);
          return SAMPLE_VALUES.find((v) => matcher?.test(v)) ?? "x";
        });
      messages.push(words.join(" "));
    }
  }
  return messages;
}

function gibberish(count: number): string[] {
  const syllables = ["zor", "quib", "flen", "brax", "muv", "tesh", "plo", "gri"];
  return Array.from({ length: count }, (_, i) =>
    Array.from({ length: 2 + (i % 4) }, (_, k) => syllables[(i * 7 + k * 3) % syllables.length]! + syllables[(i + k) % syllables.length]!).join(" "),
  );
}

/** Bundles loaded for the heap measurement stay referenced here, so the GC cannot take them back. */
const retained: Npc[] = [];
const HEAP_SAMPLES = 5;

function heapUsedAfterGc(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function loadStats(bytes: Uint8Array, runs: number): Promise<{ medianMs: number; p99Ms: number; heapGrowthMB: number | null }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await loadNpc(bytes);
    times.push(performance.now() - start);
  }
  // Several bundles kept alive, growth divided by their number: one load alone is within the
  // noise of what the decoder and the previous loads leave behind.
  const before = heapUsedAfterGc();
  for (let i = 0; i < HEAP_SAMPLES; i++) {
    retained.push(await loadNpc(bytes));
    retained.at(-1)!.session().process("hello");
  }
  const after = heapUsedAfterGc();
  const heapGrowthMB = before === null || after === null ? null : round((after - before) / HEAP_SAMPLES / 1024 / 1024, 2);
  retained.length = 0;
  return { medianMs: round(percentile(times, 50), 3), p99Ms: round(percentile(times, 99), 3), heapGrowthMB };
}

async function benchNpc(): Promise<Record<string, unknown>> {
  const lintRuns = [1, 2, 3].map(() => timeMs(() => lintSources([npcDir])));
  const lint = lintRuns.at(-1)!.value;
  const compileRuns = [1, 2, 3].map(() => timeMs(() => compileNpc(lint.ir)));
  const built = compileRuns.at(-1)!.value;
  const load = await loadStats(built.bytes, quick ? 20 : 100);
  const npc = await loadNpc(built.bytes);
  const evalFile = join(npcDir, "dataset/eval.json");
  const evalInputs: string[] = existsSync(evalFile)
    ? (JSON.parse(readFileSync(evalFile, "utf8")) as { input?: string | string[] }[]).flatMap((e) => e.input ?? [])
    : [];
  const training = lint.ir.intents.flatMap((i) => i.inputs.map((input) => input.value));
  const candidates = [...training, ...templateMessages(lint.ir, npc), ...training.map(typoOrSame), ...evalInputs, ...gibberish(100)];
  const buckets = bucketByStatus(npc, candidates, quick ? 60 : 300);
  const stages: Partial<Record<Stage, Latency>> = {};
  for (const status of STATUSES) {
    if (buckets[status].length > 0) stages[status] = measureSession(npc.session({ seed: 1 }), buckets[status], 20, quick ? 3 : 10);
  }
  return {
    name: built.summary.name,
    source: resultName,
    bundle: {
      bytes: built.bytes.length,
      intents: built.summary.intents,
      inputs: built.summary.inputs,
      templatePaths: built.summary.templatePaths,
      vocabularyWords: built.summary.vocabularyWords,
    },
    build: {
      lintMs: round(percentile(lintRuns.map((r) => r.ms), 50), 2),
      compileMs: round(percentile(compileRuns.map((r) => r.ms), 50), 2),
    },
    load,
    stages,
  };
}

async function costCurve(): Promise<CurvePoint[]> {
  const points: CurvePoint[] = [];
  // 20k: the size docs/architecture.md's speed targets sets a probabilistic target for (≤ 300 µs median).
  for (const size of quick ? [1_000, 10_000] : [1_000, 10_000, 20_000, 100_000]) {
    const synthetic = syntheticNpc(size);
    const { value: built, ms: buildMs } = timeMs(() => compileNpc(synthetic.ir));
    const load = await loadStats(built.bytes, 20);
    const npc = await loadNpc(built.bytes);
    const sample = synthetic.inputs.filter((_, i) => i % Math.ceil(synthetic.inputs.length / 200) === 0).map((x) => x.text);
    const candidates = [...sample, ...sample.map(typoOrSame), ...sample.map((t) => `${t} ${synthetic.vocabulary.at(-1)} zorbly`), ...gibberish(50)];
    const buckets = bucketByStatus(npc, candidates, 100);
    const stages: Partial<Record<Stage, Latency>> = {};
    for (const status of STATUSES) {
      if (buckets[status].length > 0) stages[status] = measureSession(npc.session(), buckets[status], 10, 5);
    }
    points.push({ inputs: synthetic.inputs.length, intents: synthetic.ir.intents.length, buildMs: round(buildMs, 2), bytes: built.bytes.length, loadMs: load.medianMs, stages });
    console.log(`  synthetic ${size}: built in ${round(buildMs, 2)} ms, ${built.bytes.length} bytes, load ${load.medianMs} ms`);
  }
  return points;
}

interface RuntimeSize {
  bytes: number;
  strippedBytes: number;
  /** The core entry chunk, minified (docs/architecture.md's speed targets budget); null when rolldown cannot be loaded. */
  minifiedBytes: number | null;
  /** Chunks the core loads on demand (SHA-256 without Web Crypto, the learned stage), and each optional entry beyond the core (minified). */
  lazy: RuntimeBundleSize["lazy"] | null;
  termy?: RuntimeBundleSize["termy"] | null;
  optional: RuntimeBundleSize["optional"] | null;
  modules: number;
}

/**
 * Size of the runtime as shipped: the built JS modules statically reachable from
 * runtime/index.js (its msgpack decoder included), as is, without comments and whitespace runs, and minified
 * (bench/runtime-size.ts). null when not run from the build output.
 */
async function runtimeSize(): Promise<RuntimeSize | null> {
  const runtimeDir = join(dirname(fileURLToPath(import.meta.url)), "../runtime");
  const entry = join(runtimeDir, "index.js");
  if (!existsSync(entry)) return null;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/from\s+"(\.[^"]+)"/g)) visit(resolve(dirname(file), m[1]!));
  };
  visit(entry);
  let bytes = 0;
  let strippedBytes = 0;
  for (const file of seen) {
    const text = readFileSync(file, "utf8");
    bytes += Buffer.byteLength(text);
    strippedBytes += Buffer.byteLength(text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "").replace(/\s+/g, " "));
  }
  const minified = await runtimeBundleSize(runtimeDir, "js");
  return {
    bytes,
    strippedBytes,
    minifiedBytes: minified?.core ?? null,
    lazy: minified?.lazy ?? null,
    termy: minified?.termy ?? null,
    optional: minified?.optional ?? null,
    modules: seen.size,
  };
}

function cell(stage: Latency | undefined): string {
  return stage ? `${stage.medianUs} / ${stage.p99Us} (${stage.messages})` : "—";
}

/** Results of this harness (other benchmarks, e.g. dsl-parse, write their own JSON beside them). */
function isNpcResult(result: Record<string, unknown>): boolean {
  return typeof result.bundle === "object" && typeof result.stages === "object";
}

function readmeFrom(all: Record<string, unknown>[]): string {
  const results = all.filter(isNpcResult);
  const others = all.filter((r) => !isNpcResult(r));
  const lines = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts). Latencies are per message, in µs, as `median / p99 (messages)`;",
    "messages are bucketed by the status they actually get. Targets (docs/architecture.md's speed targets): exact ≤ 2 µs, template ≤ 20 µs,",
    "probabilistic and rejection ≤ 100 µs median (≤ 1 ms p99), load ≤ 10 ms, heap growth ≤ 10 MB, build ≤ 1 s.",
    "",
    "| NPC | bundle bytes | lint ms | compile ms | load ms (median) | heap MB | exact | template | probabilistic | rejected |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const stages = r.stages as Partial<Record<Stage, Latency>>;
    const bundle = r.bundle as { bytes: number };
    const build = r.build as { lintMs: number; compileMs: number };
    const load = r.load as { medianMs: number; heapGrowthMB: number | null };
    lines.push(
      `| ${r.name} (${r.source}) | ${bundle.bytes} | ${build.lintMs} | ${build.compileMs} | ${load.medianMs} | ${load.heapGrowthMB ?? "n/a"} | ` +
        `${cell(stages["exact match"])} | ${cell(stages["template match"])} | ${cell(stages["probabilistic match"])} | ${cell(stages.rejected)} |`,
    );
  }
  for (const r of results) {
    const curve = r.costCurve as CurvePoint[] | undefined;
    if (!curve) continue;
    lines.push(
      "",
      `## Cost curve (synthetic datasets, run with ${r.name} (${r.source})${r.curveLoadAverage1m === undefined ? "" : `; load average ${r.curveLoadAverage1m} after it`})`,
      "",
      "Target (docs/architecture.md's speed targets): probabilistic ≤ 300 µs median on the 20,000-input dataset.",
      "",
      "| inputs | intents | build ms | bundle bytes | load ms | exact | probabilistic | rejected |",
      "|---|---|---|---|---|---|---|---|",
      ...curve.map(
        (p) =>
          `| ${p.inputs} | ${p.intents} | ${p.buildMs} | ${p.bytes} | ${p.loadMs} | ${cell(p.stages["exact match"])} | ${cell(p.stages["probabilistic match"])} | ${cell(p.stages.rejected)} |`,
      ),
    );
  }
  for (const other of others) {
    if (other.benchmark === "hot-path") {
      lines.push("", ...hotPathReadme(other));
      continue;
    }
    const name = String(other.benchmark ?? other.name ?? other.file);
    const values = Object.entries(other).filter(([, v]) => typeof v === "number" || typeof v === "string");
    lines.push("", `## ${name}`, "", "| key | value |", "|---|---|", ...values.map(([k, v]) => `| ${k} | ${v} |`));
  }
  for (const r of results) {
    const size = r.runtime as RuntimeSize | null | undefined;
    if (size) {
      const minified = size.minifiedBytes === null ? "minifier unavailable" : `core ${size.minifiedBytes} bytes minified, msgpack decoder included (test/runtime/size.test.ts holds the sources, which minify a little smaller, to ${CORE_BUDGET_BYTES} bytes; issue 15 asks for 40 KB)`;
      const apart = size.optional
        ? `; apart from the core, loaded on demand: ${(size.lazy ?? []).map((chunk) => `${chunk.bytes} (${chunk.modules.join(", ")})`).join(", ")}; ${Object.entries(size.optional)
            .map(([name, n]) => `ndfc/runtime/${name} ${n}`)
            .join(", ")} (beyond the core)`
        : "";
      const termy = size.termy ? ` A host answering with dist-npcs/termy.npc loads ${size.termy.bytes} bytes minified: the core and the chunks of its stages (${size.termy.stages.join(", ")}).` : "";
      lines.push("", `Runtime (${r.name} run): ${size.modules} modules, ${size.bytes} bytes of built JS, ${minified}${apart}.${termy}`);
    }
  }
  const env = results[0]?.environment as Record<string, unknown> | undefined;
  if (env) {
    lines.push(
      "",
      `Machine: ${env.cpu} × ${env.cores}, Node ${env.node} (${env.platform}/${env.arch}); load average ${env.loadAverage1m ?? "?"} during the run` +
        " (p99 figures include the pauses other processes cause on a shared machine; medians are the stable figures).",
    );
  }
  return lines.join("\n") + "\n";
}

/** The fresh-process start-up figures, into bench/results/cold-start.json. */
function writeColdStart(): void {
  console.log(`bench: cold start, ${coldRuns} fresh processes per figure`);
  writeResults(join(resultsDir, "cold-start.json"), coldStartReport(repoRoot, coldRuns));
}

async function main(): Promise<void> {
  if (coldOnly) {
    writeColdStart();
    return;
  }
  if (!existsSync(join(npcDir, "config.json"))) {
    console.error(`bench: no NPC at ${npcDir} (give an NPC directory, or put the NPC-Forge corpus at ../shared/corpus)`);
    process.exitCode = 2;
    return;
  }
  mkdirSync(resultsDir, { recursive: true });
  if (hotPathOnly) {
    writeHotPath();
    return;
  }
  if (sizeOnly || curveOnly) {
    // One part re-measured into the NPC's existing results: the runtime size, or the cost curve.
    const flag = sizeOnly ? "--size" : "--curve-only";
    const file = join(resultsDir, `${resultName}.json`);
    if (!existsSync(file)) {
      console.error(`bench ${flag}: no results at ${file} yet (run the whole bench first)`);
      process.exitCode = 2;
      return;
    }
    const part = sizeOnly ? { runtime: await runtimeSize() } : { costCurve: await costCurve(), curveLoadAverage1m: round(loadavg()[0]!, 2) };
    const previous = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeResults(file, { ...previous, ...part });
    console.log(JSON.stringify(part, null, 2));
    return;
  }
  if (!(globalThis as { gc?: unknown }).gc) console.warn("bench: run node with --expose-gc to measure heap growth");
  console.log(`bench: ${npcDir}${quick ? " (quick)" : ""}`);
  const result: Record<string, unknown> = {
    ...(await benchNpc()),
    runtime: await runtimeSize(),
    costCurve: await costCurve(),
    curveLoadAverage1m: round(loadavg()[0]!, 2),
    environment: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpu: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      // Other processes competing for the cores show up in p99 first.
      loadAverage1m: round(loadavg()[0]!, 2),
    },
  };
  const file = join(resultsDir, `${resultName}.json`);
  writeResults(file, result);
  console.log(JSON.stringify({ bundle: result.bundle, build: result.build, load: result.load, stages: result.stages }, null, 2));
  writeHotPath();
  writeColdStart();
}

/** Fresh-process figures per message (bench/hot-path.ts), into hot-path.json; nothing without the TERMy corpus. */
function writeHotPath(): void {
  const result = hotPathBench(quick);
  if (result) writeResults(join(resultsDir, "hot-path.json"), result);
}

/** Writes one NPC's results and regenerates bench/results/README.md from every result file. */
function writeResults(file: string, result: Record<string, unknown>): void {
  writeFileAtomic(file, `${JSON.stringify(result, null, 2)}\n`);
  const all = readdirSync(resultsDir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: basename(f, ".json"), ...(JSON.parse(readFileSync(join(resultsDir, f), "utf8")) as Record<string, unknown>) }));
  writeFileAtomic(join(resultsDir, "README.md"), readmeFrom(all));
  console.log(`bench: wrote ${file} and bench/results/README.md`);
}

await main();
