// A directory of bundles (`ndfc serve DIR`, `ndfc list DIR`): every `*.npc` directly inside it,
// in name order, each loaded on its own so one bad bundle is reported by name and the others load.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Npc } from "../../runtime/index.js";
import { compareStrings } from "../order.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import { loadBundleFile } from "./read-bundle.js";

export interface LoadedBundle {
  /** The path as the user would write it: the directory argument joined with the file name. */
  file: string;
  npc: Npc;
  bytes: Uint8Array;
}

export interface FailedBundle {
  file: string;
  reason: string;
}

export function isDirectory(path: string, cwd: string): boolean {
  try {
    return statSync(resolve(cwd, path)).isDirectory();
  } catch {
    return false;
  }
}

/** Loads every `*.npc` in `dir`, every intent record checked (serve, list); a directory that cannot be read is a usage error. */
export async function loadBundleDir(dir: string, cwd: string): Promise<{ loaded: LoadedBundle[]; failed: FailedBundle[] }> {
  let names: string[];
  try {
    names = readdirSync(resolve(cwd, dir), { withFileTypes: true })
      .filter((entry) => entry.name.endsWith(".npc") && !entry.isDirectory())
      .map((entry) => entry.name)
      .sort(compareStrings);
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new CliError(`cannot read the bundle directory ${dir}: ${reason}${reason === "ENOENT" ? " (ndfc build DATASET writes dist-npcs/NAME.npc)" : ""}`, EXIT_USAGE);
  }
  const loaded: LoadedBundle[] = [];
  const failed: FailedBundle[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      loaded.push({ file, ...(await loadBundleFile(file, cwd, { verify: "full" })) });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      failed.push({ file, reason: error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message });
    }
  }
  return { loaded, failed };
}
