// The --store option shared by `audit`, `teach` (and `build --taught`): the path, resolved, and
// opening it with store problems turned into CliErrors.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
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

/** The store's key of an NPC name: its slug ("TERMy" → "termy"). */
export function npcKey(name: string): string {
  const slug = bundleSlug(name);
  if (slug === "") throw new CliError(`"${name}" is not an NPC name`, EXIT_USAGE);
  return slug;
}
