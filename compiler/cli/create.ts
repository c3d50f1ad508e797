// `ndfc create <name> [--dsl] [--dir datasets]`: a new NPC directory holding a small starter
// (starter-npc.ts) named after <name>: NDF JSON by default, the rule DSL with --dsl, each with its
// own README. Refuses to write over an existing directory. The starter lints clean with --strict
// and builds (test/newcomer/create.test.ts).
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { bundleSlug } from "../emit/write-bundle.js";
import { writeFileAtomic } from "../write-atomic.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { RegisterCommand } from "./io.js";
import { dslStarter, ndfStarter } from "./starter-npc.js";

/** Creates the NPC directory and returns its path. */
function createNpc(name: string, parent: string, dsl: boolean, cwd: string): string {
  const slug = bundleSlug(name);
  if (slug === "") throw new CliError(`"${name}" cannot name an NPC: use letters or digits`, EXIT_USAGE);
  const target = resolve(parent, slug);
  if (existsSync(target)) throw new CliError(`${target} already exists; nothing was written (pick another name or --dir)`, EXIT_USAGE);
  const shown = relative(cwd, target) || ".";
  const files = dsl ? dslStarter(name, slug, shown) : ndfStarter(name, slug, shown);
  mkdirSync(parent, { recursive: true });
  // Write into a temporary sibling, then rename: a failed write never leaves half an NPC behind.
  const staging = `${target}.tmp-${process.pid}`;
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(staging, file)), { recursive: true });
      writeFileAtomic(join(staging, file), text);
    }
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
    .description("start a new NPC: a small named starter (greetings, help, a template with a slot) and its README")
    .argument("<name>", "the NPC's name (its directory is the name's slug)")
    .option("--dir <directory>", "where to create it", "datasets")
    .option("--dsl", "write it in the rule DSL (one .rules file) instead of NDF JSON")
    .addHelpText(
      "after",
      `
Examples:
  ndfc create mybot               datasets/mybot: config.json, dataset/*.json, README.md
  ndfc create "My Bot" --dsl      datasets/my-bot: my-bot.rules, README.md
  ndfc create mybot --dir npcs    npcs/mybot`,
    )
    .action((name: string, options: { dir: string; dsl?: boolean }) => {
      const target = createNpc(name, resolve(io.cwd, options.dir), options.dsl === true, io.cwd);
      const shown = relative(io.cwd, target) || ".";
      io.stdout(`created ${shown} (${options.dsl ? "rule DSL" : "NDF JSON"}; see ${join(shown, "README.md")})\nnext: ndfc lint ${shown} && ndfc build ${shown}\n`);
    });
};
