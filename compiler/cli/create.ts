// `ndfc create <name> [--dir datasets]`: a new NPC directory copied from datasets/example, with
// the NPC's name set in config.json. Refuses to write over an existing directory. The copy lints
// clean with --strict and builds (test/conversation/create.test.ts).
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleSlug } from "../emit/write-bundle.js";
import { writeFileAtomic } from "../write-atomic.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { RegisterCommand } from "./program.js";

const TEMPLATE = join("datasets", "example");

/** datasets/example of this checkout, found from this module (source or build/ tree). */
function templateDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, TEMPLATE);
    if (existsSync(join(candidate, "config.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new CliError(`cannot find the template NPC (${TEMPLATE}) next to this ndfc`, EXIT_USAGE);
    dir = parent;
  }
}

/** config.json with the NPC's name set (the key the template uses: `npc_name`, else `name`). */
function renamedConfig(text: string, name: string): string {
  const config = JSON.parse(text) as Record<string, unknown>;
  const key = "npc_name" in config || !("name" in config) ? "npc_name" : "name";
  config[key] = name;
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Creates the NPC directory and returns its path. */
function createNpc(name: string, parent: string): string {
  const slug = bundleSlug(name);
  if (slug === "") throw new CliError(`"${name}" cannot name an NPC: use letters or digits`, EXIT_USAGE);
  const target = resolve(parent, slug);
  if (existsSync(target)) throw new CliError(`${target} already exists; nothing was written (pick another name or --dir)`, EXIT_USAGE);
  const template = templateDirectory();
  mkdirSync(parent, { recursive: true });
  // Copy into a temporary sibling, then rename: a failed copy never leaves half an NPC behind.
  const staging = `${target}.tmp-${process.pid}`;
  try {
    cpSync(template, staging, { recursive: true, errorOnExist: true, force: false });
    const configPath = join(staging, "config.json");
    writeFileAtomic(configPath, renamedConfig(readFileSync(configPath, "utf8"), name));
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new CliError(`cannot create ${target}: ${error instanceof Error ? error.message : String(error)}`, EXIT_USAGE);
  }
  return target;
}

export const registerCreate: RegisterCommand = (program, io) => {
  program
    .command("create")
    .description("start a new NPC from the example (config, entries, a template, vocabulary)")
    .argument("<name>", "the NPC's name (its directory is the name's slug)")
    .option("--dir <directory>", "where to create it", "datasets")
    .action((name: string, options: { dir: string }) => {
      const target = createNpc(name, resolve(io.cwd, options.dir));
      const shown = relative(io.cwd, target) || ".";
      io.stdout(`created ${shown} (from ${TEMPLATE})\nnext: ndfc lint ${shown} && ndfc build ${shown}\n`);
    });
};
