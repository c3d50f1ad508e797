// The template language of issue 18 on datasets/home: template-match latency with single distinct
// calls in shuffled order (no batch of one message, which a warm loop would flatter), build time,
// bundle size, path, state and key counts (and datasets/termy's template answers measured the same way,
// as a reference taken at the same load); and a synthetic value list of 2 and of 5,000 values, to show
// that a list is one automaton edge whatever its size; and, last (so its garbage is not billed to
// the latencies; the process's peak RSS is then its build's, the rest being far smaller), the build of a synthetic 4 MB NDF templates file shaped like the hassil port of issue
// 18 (250 intents, 7,000 paths, 2,433 vocab tags), in-process and as whole `ndfc build` processes
// (wall and CPU: on this shared machine CPU time is what other processes inflate least). Writes
// bench/results/template-language.json.
//
//   npm run build && node --expose-gc build/bench/template-language.js

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileNpc } from "../compiler/compile.js";
import { parseCases } from "../compiler/eval/cases.js";
import { lintSources } from "../compiler/lint.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { loadNpc, type Npc } from "../runtime/index.js";
import { framesOf } from "../runtime/bundle/automaton-frames.js";
import { mulberry32 } from "../runtime/render/rng.js";
import { percentile, round } from "./stats.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ROUNDS = 30;
const CLI_RUNS = 5;
const cli = join(repoRoot, "build/compiler/cli/main.js");
/** Preloaded into each `ndfc build` process: prints its own CPU time (user + system) and peak RSS (KB) as it exits. */
const CPU_AT_EXIT =
  "data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write(`\\ncpu-ms ${(u.user+u.system)/1000} rss-kb ${process.resourceUsage().maxRSS}\\n`)})";

/** A seeded shuffle (xorshift32), so every run times the same order. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = (state >>> 0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Per-call µs of `messages`, each call timed alone, in a new shuffled order every round. */
function singleCalls(npc: Npc, messages: readonly string[]): { calls: number; medianUs: number; p90Us: number; p99Us: number } {
  const session = npc.session({ seed: 1 });
  for (const message of messages) session.process(message); // one warm-up pass (JIT)
  (globalThis as { gc?: () => void }).gc?.();
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const message of shuffled(messages, r + 1)) {
      const start = process.hrtime.bigint();
      session.process(message);
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  return { calls: samples.length, medianUs: round(percentile(samples, 50), 2), p90Us: round(percentile(samples, 90), 2), p99Us: round(percentile(samples, 99), 2) };
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: round(performance.now() - start, 1) };
}

/** Medians of CLI_RUNS whole `ndfc build` processes on `dir`: what a user waits for, Node start included. */
function cliBuilds(dir: string): { runs: number; loadAverageAtStart: number; wallMedianMs: number; cpuMedianMs: number; peakRssMedianMB: number } {
  const loadAverageAtStart = round(loadavg()[0]!, 2);
  const wall: number[] = [];
  const cpu: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < CLI_RUNS; i++) {
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, ["--import", CPU_AT_EXIT, cli, "build", dir, "--output", join(dir, "out.npc"), "--force"], { encoding: "utf8" });
    wall.push(Number(process.hrtime.bigint() - start) / 1e6);
    const measured = /cpu-ms ([\d.]+) rss-kb (\d+)/.exec(run.stderr);
    if (run.status !== 0 || measured === null) throw new Error(`ndfc build ${dir} failed: ${run.stderr}`);
    cpu.push(Number(measured[1]));
    rss.push(Number(measured[2]) / 1024);
  }
  const median = (values: number[]) => round(percentile(values, 50), 1);
  return { runs: CLI_RUNS, loadAverageAtStart, wallMedianMs: median(wall), cpuMedianMs: median(cpu), peakRssMedianMB: median(rss) };
}

function buildNpc(dir: string) {
  const lint = timed(() => lintSources([dir]));
  const compiled = timed(() => compileNpc(lint.value.ir));
  const { counts } = compiled.value.payload;
  // keys: the (state, return stack) pairs the matcher walks, as many as states with every rule call written out
  return { lintMs: lint.ms, compileMs: compiled.ms, bytes: compiled.value.bytes, paths: counts.templatePaths, states: counts.automatonStates, keys: framesOf(compiled.value.payload.automaton).count, intents: counts.intents };
}

/** A rule file with one list of `values` two-word values used by three rules. */
function listNpc(values: number): string {
  const dir = mkdtempSync(join(tmpdir(), "ndfc-bench-list-"));
  const list = Array.from({ length: values }, (_, i) => `"item ${i}" => "i${i}"`).join(", ");
  writeFileSync(join(dir, "s.rules"), `list :thing, ${list}\nrule("buy [the] :thing") {}\nrule("sell :thing [now]") {}\nrule("where is [the] :thing") {}\n`);
  return dir;
}

/** A deterministic NDF NPC whose templates file is about 4 MB. */
function largeTemplatesNpc(): string {
  const random = mulberry32(18);
  const dir = mkdtempSync(join(tmpdir(), "ndfc-bench-4mb-"));
  mkdirSync(join(dir, "dataset/vocabulary"), { recursive: true });
  const tags = 2_433;
  const vocab = Object.fromEntries(Array.from({ length: tags }, (_, i) => [`<||vocab_${i}||>`, [`v${i}a`, `v${i}b`, `v${i} c${i % 7}`]]));
  const entries = Array.from({ length: 250 }, (_, i) => ({
    intent: `intent_${i}`,
    type: "template",
    structure: Array.from({ length: 28 }, () =>
      Array.from({ length: 3 + Math.floor(random() * 5) }, () =>
        random() < 0.2 ? { tag: "<||name||>", type: "string", required: true } : { tag: `<||vocab_${Math.floor(random() * tags)}||>`, type: "vocab", required: random() < 0.8 },
      ),
    ),
    output: ["Done <||name||>."],
    tools: [{ name: "t", arguments: { x: "<||name||>" } }],
    permission: "yolo",
  }));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ npc_name: "large" }));
  writeFileSync(join(dir, "dataset/vocabulary/templates.json"), JSON.stringify(vocab, null, 2));
  writeFileSync(join(dir, "dataset/templates_large.json"), JSON.stringify(entries, null, 2));
  return dir;
}

async function main(): Promise<void> {
  const home = buildNpc(join(repoRoot, "datasets/home"));
  const npc = await loadNpc(home.bytes);
  const inputs = parseCases(readFileSync(join(repoRoot, "datasets/home/eval.jsonl"), "utf8"), "eval.jsonl").map((c) => c.input);
  const template = inputs.filter((input) => npc.session().process(input).status === "template match");
  const lists = [];
  for (const values of [2, 5_000]) {
    const built = buildNpc(listNpc(values));
    const listed = await loadNpc(built.bytes);
    const messages = Array.from({ length: 200 }, (_, i) => `${["buy the", "sell", "where is the"][i % 3]} item ${(i * 7919) % values}${i % 3 === 1 ? " now" : ""}`);
    lists.push({ values, paths: built.paths, states: built.states, bytes: built.bytes.length, compileMs: built.compileMs, template: singleCalls(listed, messages) });
  }
  const homeTemplate = singleCalls(npc, template);
  // The same measure on datasets/termy's template answers, at the same moment: on this shared
  // machine the load moves every figure, so the ratio says more than the absolute value.
  const termy = await loadNpc(buildNpc(join(repoRoot, "datasets/termy")).bytes);
  const termyInputs = parseCases(readFileSync(join(repoRoot, "datasets/termy/eval.jsonl"), "utf8"), "eval.jsonl").map((c) => c.input);
  const termyTemplate = singleCalls(termy, termyInputs.filter((input) => termy.session().process(input).status === "template match"));
  const [small, large] = lists as [(typeof lists)[number], (typeof lists)[number]];
  const largeDir = largeTemplatesNpc();
  const large4mb = buildNpc(largeDir);
  const largeTemplates = {
    templatesBytes: statSync(join(largeDir, "dataset/templates_large.json")).size,
    paths: large4mb.paths,
    lintMs: large4mb.lintMs,
    compileMs: large4mb.compileMs,
    buildMs: round(large4mb.lintMs + large4mb.compileMs, 1),
    peakRssMB: round(process.resourceUsage().maxRSS / 1024, 1),
    states: large4mb.states,
    cli: cliBuilds(largeDir),
  };
  const result = {
    benchmark: "template-language",
    loadAverage: round(loadavg()[0]!, 2),
    // the headline figures flat, for the key/value table of bench/results/README.md
    homeTemplateMedianUs: homeTemplate.medianUs,
    homeTemplateP99Us: homeTemplate.p99Us,
    termyTemplateMedianUs: termyTemplate.medianUs,
    homeCompileMs: home.compileMs,
    homeBundleBytes: home.bytes.length,
    homePaths: home.paths,
    list2Paths: small.paths,
    list5000Paths: large.paths,
    list5000TemplateMedianUs: large.template.medianUs,
    large4mbBuildMs: largeTemplates.buildMs,
    large4mbPeakRssMB: largeTemplates.peakRssMB,
    large4mbCliBuildMs: largeTemplates.cli.wallMedianMs,
    large4mbCliBuildCpuMs: largeTemplates.cli.cpuMedianMs,
    large4mbCliPeakRssMB: largeTemplates.cli.peakRssMedianMB,
    largeTemplates,
    home: {
      intents: home.intents,
      paths: home.paths,
      states: home.states,
      keys: home.keys,
      bundleBytes: home.bytes.length,
      lintMs: home.lintMs,
      compileMs: home.compileMs,
      templateMessages: template.length,
      template: homeTemplate,
      allEvalMessages: singleCalls(npc, inputs),
    },
    lists,
  };
  writeFileAtomic(join(repoRoot, "bench/results/template-language.json"), JSON.stringify(result, null, 2) + "\n");
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}

await main();
