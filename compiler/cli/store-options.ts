// The --store option shared by `audit`, `teach` (and `build --taught`): the path, resolved, and
// opening it with store problems turned into CliErrors; and the --store/--no-store pair of
// `serve` and `chat`, whose store is optional.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Option } from "commander";
import { bundleSlug } from "../emit/write-bundle.js";
import { defaultStorePath, openStore, StoreError, type Store } from "../store/store.js";
import { CliError, EXIT_USAGE } from "./errors.js";

export function storePath(option: string | undefined, cwd: string): string {
  return option === undefined ? defaultStorePath() : resolve(cwd, option);
}

/** Opens the store; `readonly` requires it to exist (reading must not create an empty one). */
export function openStoreForCli(path: string, readonly: boolean): Store {
  if (readonly && !existsSync(path)) throw new CliError(`no store at ${path} (ndfc serve creates it; --store picks another)`, EXIT_USAGE);
  try {
    return openStore(path, { readonly });
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

/** --store <file> of serve and chat (paired with noStoreOption). */
export function optionalStoreOption(): Option {
  return new Option("--store <file>", `SQLite audit log and teach store (default ${defaultStorePath()})`);
}

export function noStoreOption(): Option {
  return new Option("--no-store", "keep no audit log and accept no teaching");
}

/** Opens the store of --store (a path, undefined for the default) for writing, or none for --no-store (false). */
export function openOptionalStore(option: string | false | undefined, cwd: string): Store | null {
  return option === false ? null : openStoreForCli(storePath(option, cwd), false);
}

/** The store's key of an NPC name: its slug ("TERMy" → "termy"). */
export function npcKey(name: string): string {
  const slug = bundleSlug(name);
  if (slug === "") throw new CliError(`"${name}" is not an NPC name`, EXIT_USAGE);
  return slug;
}
