// `ndfc lint` wall time on TERMy, Node start included, as a pre-commit hook sees it:
// a cold run (empty ReDoS cache) and the median of warm runs. Writes bench/results/lint.json.
//
//   npm run build && node build/bench/lint-cli.js [npc-dir] [--runs N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { percentile } from "./stats.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const runsFlag = args.indexOf("--runs");
const runs = runsFlag >= 0 ? Number(args[runsFlag + 1]) : 9;
const npcDir = resolve(args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs") ?? join(repoRoot, "../shared/corpus/npc-forge/termy"));
const cli = join(repoRoot, "build/compiler/cli/main.js");

function timeLint(cacheDir: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [cli, "lint", npcDir, "--format", "json"], { env: { ...process.env, NDFC_CACHE_DIR: cacheDir }, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status === null || result.status > 1) throw new Error(`lint failed: ${result.stderr}`);
  return ms;
}

const cacheDir = mkdtempSync(join(tmpdir(), "ndfc-bench-cache-"));
try {
  const cold = timeLint(cacheDir);
  const warm = Array.from({ length: runs }, () => timeLint(cacheDir));
  const nodeStart = percentile(Array.from({ length: 5 }, () => {
    const start = process.hrtime.bigint();
    spawnSync(process.execPath, ["-e", ""]);
    return Number(process.hrtime.bigint() - start) / 1e6;
  }), 50);
  const result = {
    npc: npcDir.split("/").slice(-2).join("/"),
    runs,
    coldMs: Math.round(cold),
    warmMedianMs: Math.round(percentile(warm, 50)),
    warmMinMs: Math.round(Math.min(...warm)),
    nodeStartMedianMs: Math.round(nodeStart),
    targetMs: 500,
    machine: `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Node ${process.version}`,
    // Other work on the machine inflates wall times; a load average near 0 is a clean run.
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
  };
  writeFileAtomic(join(repoRoot, "bench/results/lint.json"), JSON.stringify(result, null, 2) + "\n");
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
