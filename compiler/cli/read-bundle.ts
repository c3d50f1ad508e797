// Reading the files the commands are given (a bundle, eval cases): I/O and format problems become CliErrors.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LoadOptions, Npc } from "../../runtime/index.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import { cliRuntime } from "./runtime.js";

/** The bytes of `file` (relative to `cwd`); `what` names it in the error ("cannot read bundle x.npc: ENOENT"). */
export function readCliFile(file: string, cwd: string, what: string): Buffer {
  try {
    return readFileSync(resolve(cwd, file));
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new CliError(`cannot read ${what} ${file}: ${reason}`, EXIT_USAGE);
  }
}

/** A bundle path that is missing or a directory is a newcomer's first mistake: say what to run, not ENOENT. */
function readBundleBytes(file: string, cwd: string): Uint8Array {
  const path = resolve(cwd, file);
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) throw new CliError(`no bundle at ${file}: build it first: ndfc build DIR (it writes dist-npcs/NAME.npc)`, EXIT_USAGE);
  if (stat.isDirectory()) {
    const hint = isNpcSources(path) ? `build it first: ndfc build ${file}, then give the .npc it writes` : "give a .npc file (ndfc build DIR writes one)";
    throw new CliError(`${file} is a directory, not a bundle: ${hint}`, EXIT_USAGE);
  }
  return new Uint8Array(readCliFile(file, cwd, "bundle"));
}

/** An NDF directory (config.json) or one holding rule DSL files. */
function isNpcSources(dir: string): boolean {
  if (existsSync(join(dir, "config.json"))) return true;
  try {
    return readdirSync(dir).some((name) => name.endsWith(".rules") || name.endsWith(".rb"));
  } catch {
    return false;
  }
}

/**
 * `options.verify`: "full" for the commands that read every intent or serve for long (inspect,
 * list, serve, web), so that a malformed record is refused now; the default checks each record
 * when it first answers (ask, chat, eval start sooner).
 */
export async function loadBundleFile(file: string, cwd: string, options?: LoadOptions): Promise<{ npc: Npc; bytes: Uint8Array }> {
  const bytes = readBundleBytes(file, cwd);
  const { loadNpc, InvalidBundleError } = await cliRuntime();
  try {
    return { npc: await loadNpc(bytes, options), bytes };
  } catch (error) {
    if (error instanceof InvalidBundleError) throw new CliError(`${file}: ${error.message}`, EXIT_USAGE);
    throw error;
  }
}
