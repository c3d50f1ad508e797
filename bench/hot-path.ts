// What a user gets per message (issue #15): every figure from fresh processes
// (bench/hot-path-child.ts), for TERMy from the NPC-Forge corpus (its eval.json prompts are the
// stream of distinct messages) and datasets/termy (the same prompts, plus each NPC's own inputs
// so that every stage is reached). Per NPC:
//   - first 100 distinct messages in a fresh process: p50/p99 (nearest rank)/max per call and the first call, median over the processes;
//   - steady state, single distinct calls in shuffled order, per stage: median and p99;
//   - bytes allocated per message (median over 10,000 calls) and the share of calls a young GC lands on;
//   - the steady state again under `node --jitless` (a proxy for small CPUs), and its ratio;
//   - `ndfc eval` of the corpus eval.json on the NPC's bundle: its reported p99 (corpus TERMy only).
// Medians over the processes of each kind; the load average is recorded beside them.
//
//   npx tsc -p tsconfig.json && node build/bench/run.js --hot-path [--quick]   (npm run bench runs it too)
//   → bench/results/hot-path.json and its lines in bench/results/README.md

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compileNpc } from "../compiler/compile.js";
import { lintSources } from "../compiler/lint.js";
import { median, round } from "./stats.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const child = join(import.meta.dirname, "hot-path-child.js");
const cli = join(repoRoot, "build/compiler/cli/main.js");
const corpusTermy = resolve(repoRoot, "../shared/corpus/npc-forge/termy");

interface Plan {
  processes: number;
  rounds: number;
  jitlessRounds: number;
}

type StageFigures = Record<string, { calls: number; medianUs: number; p99Us: number; maxUs: number }>;

function runChild(flags: string[], args: (string | number)[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [...flags, child, ...args.map(String)], { encoding: "utf8", maxBuffer: 16 << 20 });
  return JSON.parse(out) as Record<string, unknown>;
}

/** The median of one numeric field over several child results. */
const medianOf = (results: Record<string, unknown>[], field: string) => round(median(results.map((r) => r[field] as number)), 2);

/** Per stage, the median over processes of each figure. */
function stagesMedian(results: { stages: StageFigures }[]): StageFigures {
  const names = [...new Set(results.flatMap((r) => Object.keys(r.stages)))].sort();
  return Object.fromEntries(
    names.map((name) => {
      const runs = results.map((r) => r.stages[name]).filter((s) => s !== undefined);
      return [name, { calls: runs[0]!.calls, medianUs: round(median(runs.map((s) => s.medianUs)), 2), p99Us: round(median(runs.map((s) => s.p99Us)), 2), maxUs: round(median(runs.map((s) => s.maxUs)), 2) }];
    }),
  );
}

function trainingInputs(npcDir: string): { bytes: Uint8Array; inputs: string[] } {
  const lint = lintSources([npcDir]);
  const built = compileNpc(lint.ir);
  return { bytes: built.bytes, inputs: lint.ir.intents.flatMap((i) => i.inputs.map((input) => input.value)) };
}

/** `ndfc eval` on the bundle, `runs` times: the p99 each run reports (µs) and its wall time (ms). */
function evalRuns(bundle: string, cases: string, runs: number): { p99Us: number; p50Us: number; wallMs: number } {
  const reports = Array.from({ length: runs }, () => {
    const start = performance.now();
    const report = JSON.parse(execFileSync(process.execPath, [cli, "eval", bundle, cases, "--json"], { encoding: "utf8", maxBuffer: 64 << 20 })) as { latencyUs: { p50: number; p99: number } };
    return { ...report.latencyUs, wallMs: performance.now() - start };
  });
  return { p50Us: round(median(reports.map((r) => r.p50)), 2), p99Us: round(median(reports.map((r) => r.p99)), 2), wallMs: round(median(reports.map((r) => r.wallMs)), 1) };
}

function benchNpc(name: string, npcDir: string, prompts: string[], dir: string, plan: Plan, evalCases: string | null): Record<string, unknown> {
  const { bytes, inputs } = trainingInputs(npcDir);
  const bundle = join(dir, `${name}.npc`);
  writeFileSync(bundle, bytes);
  const promptsFile = join(dir, `${name}-prompts.json`);
  writeFileSync(promptsFile, JSON.stringify(prompts));
  const streamFile = join(dir, `${name}-stream.json`);
  const stream = [...new Set([...prompts, ...inputs])];
  writeFileSync(streamFile, JSON.stringify(stream));
  const seeds = Array.from({ length: plan.processes }, (_, i) => i + 1);
  console.log(`hot-path ${name}: ${prompts.length} prompts, ${stream.length} distinct messages in the steady stream`);
  const first = seeds.map((seed) => runChild([], ["first", bundle, promptsFile, seed]));
  const steady = seeds.map((seed) => runChild([], ["steady", bundle, streamFile, seed, plan.rounds])) as unknown as { stages: StageFigures }[];
  const alloc = seeds.map((seed) => runChild([], ["alloc", bundle, promptsFile, seed]));
  const gc = seeds.map((seed) => runChild([], ["gc", bundle, promptsFile, seed]));
  const jitless = seeds.slice(0, Math.min(3, seeds.length)).map((seed) => runChild(["--jitless"], ["steady", bundle, streamFile, seed, plan.jitlessRounds])) as unknown as { stages: StageFigures }[];
  const steadyStages = stagesMedian(steady);
  const jitlessStages = stagesMedian(jitless);
  const youngShare = gc.map((r) => (r.callsWithYoungGc as number) / (r.calls as number));
  return {
    name,
    source: npcDir.startsWith(repoRoot) ? npcDir.slice(repoRoot.length + 1) : "../shared/corpus/npc-forge/termy",
    bundleBytes: bytes.length,
    firstHundred: { processes: first.length, importMs: medianOf(first, "importMs"), loadMs: medianOf(first, "loadMs"), firstUs: medianOf(first, "firstUs"), medianUs: medianOf(first, "medianUs"), p99Us: medianOf(first, "p99Us"), maxUs: medianOf(first, "maxUs") },
    steady: { processes: steady.length, rounds: plan.rounds, stages: steadyStages },
    allocation: { processes: alloc.length, callsEach: alloc[0]!.calls, medianBytes: medianOf(alloc, "medianBytes"), p90Bytes: medianOf(alloc, "p90Bytes"), maxBytes: medianOf(alloc, "maxBytes") },
    youngGc: { processes: gc.length, callsEach: gc[0]!.calls, youngGcsEach: medianOf(gc, "youngGcs"), shareOfCallsPercent: round(median(youngShare) * 100, 3) },
    jitless: {
      processes: jitless.length,
      rounds: plan.jitlessRounds,
      stages: jitlessStages,
      ratioToJit: Object.fromEntries(Object.entries(jitlessStages).map(([stage, s]) => [stage, steadyStages[stage] ? round(s.medianUs / steadyStages[stage].medianUs, 1) : null])),
    },
    ...(evalCases && existsSync(cli) ? { eval: evalRuns(bundle, evalCases, plan.processes) } : {}),
  };
}

/** Runs the whole hot-path bench; null (with one note) when the TERMy corpus is absent. */
export function hotPathBench(quick: boolean): Record<string, unknown> | null {
  const evalFile = join(corpusTermy, "dataset/eval.json");
  if (!existsSync(evalFile)) {
    console.warn(`hot-path: skipped, no TERMy corpus at ${corpusTermy} (its eval.json prompts are the message stream)`);
    return null;
  }
  const prompts = (JSON.parse(readFileSync(evalFile, "utf8")) as { input?: string | string[] }[]).flatMap((e) => e.input ?? []);
  const plan: Plan = quick ? { processes: 3, rounds: 3, jitlessRounds: 1 } : { processes: 5, rounds: 5, jitlessRounds: 2 };
  const dir = mkdtempSync(join(tmpdir(), "ndfc-hot-path-"));
  const loadBefore = round(loadavg()[0]!, 2);
  try {
    const npcs = [benchNpc("termy-corpus", corpusTermy, prompts, dir, plan, evalFile), benchNpc("termy", join(repoRoot, "datasets/termy"), prompts, dir, plan, null)];
    return { benchmark: "hot-path", node: process.version, loadAverage1mBefore: loadBefore, loadAverage1mAfter: round(loadavg()[0]!, 2), npcs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** README lines of a hot-path result. */
export function hotPathReadme(result: Record<string, unknown>): string[] {
  const npcs = result.npcs as Record<string, Record<string, unknown>>[];
  const lines = [
    `## Hot path: what a user gets per message (bench/hot-path.ts; load average ${result.loadAverage1mBefore} → ${result.loadAverage1mAfter})`,
    "",
    "Fresh processes, medians over them. Targets (#15): first 100 distinct messages p99 ≤ 1 ms; steady-state p99 ≤ 300 µs every stage;",
    "≤ 4 KB allocated per message (median); a young GC on ≤ 0.2 % of calls; --jitless exact ≤ 20 µs, probabilistic ≤ 200 µs median.",
    "",
    "| NPC | first 100: p50 / p99 / max µs (first call) | steady µs median / p99 per stage | bytes per message (median / p90) | young GC on calls | --jitless µs median (× JIT) | ndfc eval p99 µs |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const npc of npcs) {
    const first = npc.firstHundred as Record<string, number>;
    const steady = (npc.steady as { stages: StageFigures }).stages;
    const jitless = npc.jitless as { stages: StageFigures; ratioToJit: Record<string, number | null> };
    const allocation = npc.allocation as Record<string, number>;
    const gc = npc.youngGc as Record<string, number>;
    const evalFigures = npc.eval as Record<string, number> | undefined;
    const perStage = Object.entries(steady).map(([stage, s]) => `${stage} ${s.medianUs} / ${s.p99Us}`).join("; ");
    const slow = Object.entries(jitless.stages).map(([stage, s]) => `${stage} ${s.medianUs} (×${jitless.ratioToJit[stage]})`).join("; ");
    lines.push(
      `| ${npc.name} | ${first.medianUs} / ${first.p99Us} / ${first.maxUs} (${first.firstUs}) | ${perStage} | ${allocation.medianBytes} / ${allocation.p90Bytes} | ${gc.shareOfCallsPercent} % | ${slow} | ${evalFigures ? evalFigures.p99Us : "—"} |`,
    );
  }
  return lines;
}
