#!/usr/bin/env node
// The `ndfc` command line: one file per command, registered here.
import { Command, CommanderError } from "commander";
import { COMPILER_VERSION } from "../version.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import { registerLint } from "./lint.js";
import { registerSchema } from "./schema.js";

const program = new Command();
program
  .name("ndfc")
  .description(
    "Compile NPC datasets (NDF JSON or the rule DSL) into reproducible .npc bundles, lint them, and talk to them.",
  )
  .version(COMPILER_VERSION, "-V, --version", "print the compiler version")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

for (const register of [registerLint, registerSchema]) register(program);

program.addHelpText(
  "after",
  `
Exit codes: 0 success, 1 diagnostics with errors (or a failed check), 2 usage or I/O error.

Examples:
  ndfc lint datasets/termy                 check a dataset (file:line:col diagnostics)
  ndfc lint datasets/termy --format sarif  for code-scanning UIs
  ndfc schema --out .schemas               JSON Schemas for editor completion`,
);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version end through here with exit code 0.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (error instanceof CliError) {
    process.stderr.write(`ndfc: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`ndfc: internal error: ${message}\nPlease report this with the command you ran.\n`);
  return 70;
}
