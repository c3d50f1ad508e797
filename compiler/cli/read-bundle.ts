// Reading the files the commands are given (a bundle, eval cases): I/O and format problems become CliErrors.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { InvalidBundleError, loadNpc, type Npc } from "../../runtime/index.js";
import { CliError, EXIT_USAGE } from "./errors.js";

/** The bytes of `file` (relative to `cwd`); `what` names it in the error ("cannot read bundle x.npc: ENOENT"). */
export function readCliFile(file: string, cwd: string, what: string): Buffer {
  try {
    return readFileSync(resolve(cwd, file));
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new CliError(`cannot read ${what} ${file}: ${reason}`, EXIT_USAGE);
  }
}

export async function loadBundleFile(file: string, cwd: string): Promise<{ npc: Npc; bytes: Uint8Array }> {
  const bytes = new Uint8Array(readCliFile(file, cwd, "bundle"));
  try {
    return { npc: await loadNpc(bytes), bytes };
  } catch (error) {
    if (error instanceof InvalidBundleError) throw new CliError(`${file}: ${error.message}`, EXIT_USAGE);
    throw error;
  }
}
