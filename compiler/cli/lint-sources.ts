// The source front end for the commands that read sources (lint, build), loaded only by them:
// it brings the JSON and DSL parsers and the schema validator, which other commands never need.
import { fixUntilStable } from "../fix.js";
import { lintSources } from "../lint.js";
import { SourceInputError } from "../sources/load.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { CliIO } from "./io.js";

/** lintSources for commands: an unusable input path is a usage error (exit 2), not a crash. */
export function lintForCli(inputs: string[]) {
  try {
    return lintSources(inputs);
  } catch (error) {
    if (error instanceof SourceInputError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

/** `--fix` for one group: fix until stable, then the diagnostics of the fixed files (no extra lint when the last round already read them). */
export function fixThenLint(group: string[], io: CliIO) {
  const fixed = fixUntilStable(() => lintForCli(group));
  io.stderr(`fixed ${fixed.applied} problem(s) in ${fixed.files.length} file(s)${fixed.changedOnDisk.length > 0 ? `; left alone, changed while linting: ${fixed.changedOnDisk.join(", ")}` : ""}\n`);
  return fixed.final ?? lintForCli(group);
}

