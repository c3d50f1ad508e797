// Reading a bundle file for `ask` and `inspect`: I/O and format problems become CliErrors.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { InvalidBundleError, loadNpc, type Npc } from "../../runtime/index.js";
import { CliError, EXIT_USAGE } from "./errors.js";

export function readBundleBytes(file: string, cwd: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(resolve(cwd, file)));
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new CliError(`cannot read bundle ${file}: ${reason}`, EXIT_USAGE);
  }
}

export async function loadBundleFile(file: string, cwd: string): Promise<{ npc: Npc; bytes: Uint8Array }> {
  const bytes = readBundleBytes(file, cwd);
  try {
    return { npc: await loadNpc(bytes), bytes };
  } catch (error) {
    if (error instanceof InvalidBundleError) throw new CliError(`${file}: ${error.message}`, EXIT_USAGE);
    throw error;
  }
}
