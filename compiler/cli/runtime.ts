// The runtime a CLI process loads bundles with, chosen once per process: every command takes
// loadNpc and InvalidBundleError from here (read-bundle.ts), so a class is one class in a process
// and `instanceof InvalidBundleError` holds whoever loaded the bundle.
//
// Two copies of the same code exist: tsc's per-file modules (build/runtime/, ~40 files) and the
// packaged build (build/runtime-bundled/, a handful of minified files: about 30 ms less CPU to
// import, most of what an `ndfc ask` spends beyond node's own start). Commands that hand a loaded
// bundle to compiler modules (serve, chat, eval, teach…: those import runtime internals per file)
// must use the per-file modules, the default. A command whose whole work is load and answer (ask)
// asks for the package first (preferPackagedRuntime) and then imports nothing else of the runtime.
//
// The package is used only where it is at least as new as the per-file modules it was bundled
// from: sources run by the tests have none beside them, and a `tsc`-only rebuild leaves an old one
// behind (`npm run build` makes both).

import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as PerFileRuntime from "../../runtime/index.js";
import type { Explainer } from "../../runtime/explain.js";

export interface CliRuntime {
  loadNpc: typeof PerFileRuntime.loadNpc;
  InvalidBundleError: typeof PerFileRuntime.InvalidBundleError;
  /** The explain entry of the same copy (imported on demand: most asks do not explain). */
  loadExplain(): Promise<Explainer>;
  /** "packaged" or "per-file": which copy this process runs. */
  kind: "packaged" | "per-file";
}

const PACKAGED_INDEX = new URL("../../runtime-bundled/index.js", import.meta.url);
const PACKAGED_EXPLAIN = new URL("../../runtime-bundled/explain.js", import.meta.url);
const PER_FILE_INDEX = new URL("../../runtime/index.js", import.meta.url);

let chosen: Promise<CliRuntime> | undefined;

/** The modification time of `url`'s file in ms, or undefined when it is absent. */
function modifiedMs(url: URL): number | undefined {
  return statSync(fileURLToPath(url), { throwIfNoEntry: false })?.mtimeMs;
}

/** Whether a packaged build sits beside these modules and is not older than the per-file runtime. */
export function packagedRuntimeIsCurrent(): boolean {
  const packaged = modifiedMs(PACKAGED_INDEX);
  const perFile = modifiedMs(PER_FILE_INDEX);
  return packaged !== undefined && (perFile === undefined || packaged >= perFile);
}

async function packagedRuntime(): Promise<CliRuntime> {
  const { loadNpc, InvalidBundleError } = (await import(PACKAGED_INDEX.href)) as typeof PerFileRuntime;
  const loadExplain = async () => ((await import(PACKAGED_EXPLAIN.href)) as typeof import("../../runtime/explain.js")).explain;
  return { loadNpc, InvalidBundleError, loadExplain, kind: "packaged" };
}

async function perFileRuntime(): Promise<CliRuntime> {
  const { loadNpc, InvalidBundleError } = await import("../../runtime/index.js");
  const loadExplain = async () => (await import("../../runtime/explain.js")).explain;
  return { loadNpc, InvalidBundleError, loadExplain, kind: "per-file" };
}

/** The runtime of this process: the per-file modules unless a command asked for the package first. */
export function cliRuntime(): Promise<CliRuntime> {
  return (chosen ??= perFileRuntime());
}

/**
 * For a command that only loads and answers (it hands the bundle to no compiler module): the
 * packaged runtime when a current one is there. Call it before anything loads a bundle; once the
 * process has a runtime, it keeps it.
 */
export function preferPackagedRuntime(): Promise<CliRuntime> {
  return (chosen ??= packagedRuntimeIsCurrent() ? packagedRuntime() : perFileRuntime());
}
