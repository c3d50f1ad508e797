// How `ndfc lint` grows with the size of one rule DSL file (issue 13: 16k rules took 114 s):
// whole CLI processes, Node start included, on generated files of 4k, 8k and 16k rules. Records
// the median and max wall time of each size and the growth exponent (time ∝ rules^k; 1 is
// linear) in bench/results/lint-scaling.json. The CPU time the process used (all its threads,
// reported by the child itself at exit) is recorded beside it: on a shared machine it moves far
// less than wall time.
//
//   npm run build && node build/bench/lint-scaling.js [--runs N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { generateLintRuleFile } from "./lint-rules.js";
import { median, round } from "./stats.js";

const SIZES = [4000, 8000, 16000];
const TARGET_MS_AT_16K = 3000;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(repoRoot, "build/compiler/cli/main.js");
const runsFlag = process.argv.indexOf("--runs");
const runs = runsFlag >= 0 ? Number(process.argv[runsFlag + 1]) : 5;

interface SizeResult {
  rules: number;
  bytes: number;
  /** Diagnostics of the generated file (shadowed paths among them). */
  diagnostics: number;
  shadowedWritten: number;
  shadowedReported: number;
  medianMs: number;
  maxMs: number;
  cpuMedianMs: number;
}

/** Preloaded into the linted process: prints the CPU time it used when it exits. */
const REPORT_CPU = `data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("\\ncpu-us "+(u.user+u.system)+"\\n")})`;

function lintOnce(file: string, cacheDir: string): { ms: number; cpuMs: number; diagnostics: { code: string }[] } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [`--import=${REPORT_CPU}`, cli, "lint", file, "--format", "json"], {
    env: { ...process.env, NDFC_CACHE_DIR: cacheDir },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status === null || result.status > 1) throw new Error(`lint of ${file} failed (exit ${result.status}): ${result.stderr}`);
  const cpu = /cpu-us (\d+)\s*$/.exec(result.stderr);
  if (!cpu) throw new Error(`lint of ${file} did not report its CPU time: ${result.stderr}`);
  return { ms, cpuMs: Number(cpu[1]) / 1000, diagnostics: JSON.parse(result.stdout) as { code: string }[] };
}

/** The least-squares slope of log(time) over log(rules). */
function growthExponent(points: SizeResult[], time: (point: SizeResult) => number): number {
  const xs = points.map((p) => Math.log(p.rules));
  const ys = points.map((p) => Math.log(time(p)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return num / den;
}

const work = mkdtempSync(join(tmpdir(), "ndfc-lint-scaling-"));
try {
  const sizes = SIZES.map((rules): SizeResult => {
    const { text, shadowed } = generateLintRuleFile(rules);
    const file = join(work, `rules-${rules}.rules`);
    writeFileSync(file, text);
    const cacheDir = join(work, `cache-${rules}`);
    const first = lintOnce(file, cacheDir); // fills the ReDoS cache; not timed
    const timed = Array.from({ length: runs }, () => lintOnce(file, cacheDir));
    const times = timed.map((run) => run.ms);
    return {
      rules,
      bytes: Buffer.byteLength(text),
      diagnostics: first.diagnostics.length,
      shadowedWritten: shadowed,
      shadowedReported: first.diagnostics.filter((d) => d.code === "CON004").length,
      medianMs: Math.round(median(times)),
      maxMs: Math.round(Math.max(...times)),
      cpuMedianMs: Math.round(median(timed.map((run) => run.cpuMs))),
    };
  });
  const largest = sizes[sizes.length - 1]!;
  const result = {
    benchmark: "lint-scaling",
    runs,
    sizes,
    // the same figures flat, for the key/value table of bench/results/README.md
    ...Object.fromEntries(sizes.flatMap((s) => [[`medianMs${s.rules}`, s.medianMs], [`maxMs${s.rules}`, s.maxMs], [`cpuMedianMs${s.rules}`, s.cpuMedianMs]])),
    growthExponent: round(growthExponent(sizes, (p) => p.medianMs), 2),
    cpuGrowthExponent: round(growthExponent(sizes, (p) => p.cpuMedianMs), 2),
    targetMsAt16k: TARGET_MS_AT_16K,
    meetsTarget: largest.medianMs <= TARGET_MS_AT_16K,
    machine: `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Node ${process.version}`,
    // Other work on the machine inflates wall times; a load average near 0 is a clean run.
    loadAverage: round(loadavg()[0]!, 2),
  };
  writeFileAtomic(join(repoRoot, "bench/results/lint-scaling.json"), JSON.stringify(result, null, 2) + "\n");
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
