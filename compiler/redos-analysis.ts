// ReDoS analysis with recheck, behind a persistent cache: the analysis costs about half a second
// on a cold start, far too much for a pre-commit hook that lints the same regexes every time.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Diagnostics as RecheckResult } from "recheck";
import { writeFileAtomic } from "./write-atomic.js";

export interface RedosVerdict {
  complexity: "safe" | "polynomial" | "exponential" | "unknown";
  /** An input that makes the regex slow, when one was found. */
  attack?: string;
}

const ANALYSIS_VERSION = "recheck-4.5.0-automaton-v1";

export function cacheFile(): string {
  const base = process.env["NDFC_CACHE_DIR"] ?? join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "ndfc");
  return join(base, "redos.json");
}

type Cache = Record<string, RedosVerdict>;

let memory: Cache | undefined;

function loadCache(): Cache {
  if (memory) return memory;
  try {
    const parsed: unknown = JSON.parse(readFileSync(cacheFile(), "utf8"));
    memory = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Cache) : {};
  } catch {
    memory = {};
  }
  return memory;
}

function saveCache(cache: Cache): void {
  try {
    mkdirSync(join(cacheFile(), ".."), { recursive: true });
    writeFileAtomic(cacheFile(), JSON.stringify(cache));
  } catch {
    // A cache that cannot be written only costs time on the next run.
  }
}

/** Analyses a JavaScript-valid regex; results are cached by pattern, flags and analyser version. */
export function analyseRedos(pattern: string, flags: string): RedosVerdict {
  const key = createHash("sha256").update(`${ANALYSIS_VERSION}\0${flags}\0${pattern}`).digest("hex").slice(0, 32);
  const cache = loadCache();
  const cached = cache[key];
  if (cached) return cached;
  const verdict = runRecheck(pattern, flags);
  cache[key] = verdict;
  saveCache(cache);
  return verdict;
}

function runRecheck(pattern: string, flags: string): RedosVerdict {
  // Loaded on demand: importing recheck alone takes ~100 ms.
  const { checkSync } = createRequire(import.meta.url)("recheck") as typeof import("recheck");
  const result: RecheckResult = checkSync(pattern, flags.replace(/[^dgimsuy]/g, ""), { checker: "automaton", timeout: 2000 });
  if (result.status === "safe") return { complexity: "safe" };
  if (result.status !== "vulnerable") return { complexity: "unknown" };
  const verdict: RedosVerdict = { complexity: result.complexity.type === "exponential" ? "exponential" : "polynomial" };
  if (result.attack) verdict.attack = result.attack.string.slice(0, 60);
  return verdict;
}
