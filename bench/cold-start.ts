// What a user gets at start-up, from fresh processes (issue 15): for TERMy (the NPC-Forge corpus,
// skipped with a note when absent, and datasets/termy) the import of the runtime, a cold loadNpc,
// the first answer, all three together, heap and RSS after the load (bench/cold-start-child.ts),
// with the packaged ndfc/runtime (build/runtime-bundled, what a host imports), and the import alone
// of tsc's per-file modules beside it (`…PerFileImport…`);
// `ndfc ask`, `ndfc lint` and `ndfc build` as whole CLI processes; and the 100k-input synthetic
// bundle (bench/synthetic.ts) loaded and answered under --max-old-space-size=64. Medians over
// `runs` processes each (≥ 5), in wall ms and in CPU ms (user + system: what the process itself
// spent, the steadier figure on a shared machine). Nothing here is warm: every figure includes V8
// compiling the code it runs.
//
//   npx tsc -p tsconfig.json && node build/bench/run.js --cold [--runs N]   → bench/results/cold-start.json
//   (npm run bench runs it too, after the NPC's results)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compileNpc } from "../compiler/compile.js";
import { median, round } from "./stats.js";
import { syntheticNpc } from "./synthetic.js";

interface Span {
  wall: number;
  cpu: number;
}

interface ChildReport {
  import: Span;
  load: Span;
  firstAnswer: Span;
  importLoadAnswer: Span;
  heapMB: number;
  rssMB: number;
  status: string;
}

/** Prints the process's CPU time at exit (to stderr), for whole CLI processes. */
const CPU_AT_EXIT = `data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu-ms:"+(u.user+u.system)/1000)})`;

/** The fewest fresh processes a median is taken over. */
const MIN_RUNS = 5;

/** One `node <args>` process: its wall ms, its CPU ms (user + system, worker threads included), its stdout. */
export function timedProcess(args: string[], what: string): { ms: number; cpuMs: number; stdout: string } {
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--import", CPU_AT_EXIT, ...args], { encoding: "utf8", maxBuffer: 1 << 24 });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`${what} failed (exit ${child.status}): ${child.stderr}`);
  return { ms, cpuMs: Number(/cpu-ms:([\d.]+)/.exec(child.stderr)?.[1] ?? NaN), stdout: child.stdout };
}

/** Medians of the child's figures over `runs` fresh processes (with `nodeFlags`). */
function coldLoads(child: string, bundle: string, message: string, runs: number, nodeFlags: string[] = [], entry: string[] = []): Record<string, number | string> {
  const reports = Array.from({ length: runs }, () => JSON.parse(timedProcess([...nodeFlags, child, bundle, message, ...entry], `cold load of ${bundle}`).stdout) as ChildReport);
  const mid = (pick: (r: ChildReport) => number, digits = 2) => round(median(reports.map(pick)), digits);
  const out: Record<string, number | string> = {};
  for (const step of ["import", "load", "firstAnswer", "importLoadAnswer"] as const) {
    out[`${step}Ms`] = mid((r) => r[step].wall);
    out[`${step}CpuMs`] = mid((r) => r[step].cpu);
  }
  return { ...out, heapAfterLoadMB: mid((r) => r.heapMB), rssAfterLoadMB: mid((r) => r.rssMB), firstAnswerStatus: reports[0]!.status };
}

/** Median wall and CPU ms of a whole `node <args>` process over `runs` runs, as `${key}Ms` and `${key}CpuMs`. */
function processMs(key: string, args: string[], runs: number, what: string): Record<string, number> {
  const runsDone = Array.from({ length: runs }, () => timedProcess(args, what));
  return { [`${key}Ms`]: round(median(runsDone.map((r) => r.ms)), 1), [`${key}CpuMs`]: round(median(runsDone.map((r) => r.cpuMs)), 1) };
}

export function coldStartReport(repoRoot: string, runs = MIN_RUNS): Record<string, number | string> {
  runs = Math.max(MIN_RUNS, runs);
  const cli = join(repoRoot, "build/compiler/cli/main.js");
  const child = join(repoRoot, "build/bench/cold-start-child.js");
  const scratch = mkdtempSync(join(tmpdir(), "ndfc-cold-"));
  const report: Record<string, number | string> = {
    benchmark: "cold-start",
    runs,
    node: process.version,
    loadAverageBefore: round(loadavg()[0]!, 2),
    ...processMs("nodeStart", ["-e", "0"], runs, "node -e 0"),
  };
  try {
    const npcs: [string, string][] = [["datasetsTermy", join(repoRoot, "datasets/termy")]];
    const corpus = resolve(repoRoot, "../shared/corpus/npc-forge/termy");
    if (existsSync(join(corpus, "config.json"))) npcs.unshift(["corpusTermy", corpus]);
    else report.corpusTermy = "skipped: ../shared/corpus/npc-forge/termy is absent";
    for (const [key, dir] of npcs) {
      const bundle = join(scratch, `${key}.npc`);
      Object.assign(report, processMs(`${key}BuildProcess`, [cli, "build", dir, "-o", bundle], runs, `ndfc build ${dir}`));
      Object.assign(report, processMs(`${key}LintProcess`, [cli, "lint", dir], runs, `ndfc lint ${dir}`));
      for (const [name, value] of Object.entries(coldLoads(child, bundle, "list files", runs))) report[`${key}${name[0]!.toUpperCase()}${name.slice(1)}`] = value;
      const perFile = coldLoads(child, bundle, "list files", runs, [], [join(repoRoot, "build/runtime/index.js")]);
      report[`${key}PerFileImportMs`] = perFile.importMs!;
      report[`${key}PerFileImportCpuMs`] = perFile.importCpuMs!;
      Object.assign(report, processMs(`${key}AskProcess`, [cli, "ask", bundle, "list files"], runs, "ndfc ask"));
    }
    const synthetic = syntheticNpc(100_000);
    const bundle = join(scratch, "synthetic-100k.npc");
    // Lexical: the lexical tables at 100k inputs are the load being measured (training the learned stage on them takes minutes).
    const ir = { ...synthetic.ir, config: { ...synthetic.ir.config, extra: { ...synthetic.ir.config.extra, matcher: "lexical" } } };
    const { bytes } = compileNpc(ir);
    writeFileSync(bundle, bytes);
    report.synthetic100kBytes = bytes.length;
    for (const [name, value] of Object.entries(coldLoads(child, bundle, synthetic.inputs[0]!.text, runs, ["--max-old-space-size=64"]))) {
      report[`synthetic100kHeap64${name[0]!.toUpperCase()}${name.slice(1)}`] = value;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  report.loadAverageAfter = round(loadavg()[0]!, 2);
  return report;
}
