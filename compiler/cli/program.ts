// The `ndfc` command line: one file per command, each exporting a register function listed here.
import { Command, CommanderError } from "commander";
import { COMPILER_VERSION } from "../version.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { CliIO } from "./io.js";
import { registerLint } from "./lint.js";
import { registerSchema } from "./schema.js";
import { registerBuild } from "./build.js";
import { registerInspect } from "./inspect.js";
import { registerAsk } from "./ask.js";
import { registerServe } from "./serve.js";
import { registerAudit } from "./audit.js";
import { registerTeach } from "./teach.js";
import { registerChat } from "./chat.js";
import { registerEval } from "./eval.js";
import { registerCreate } from "./create.js";

/** A command registers itself on the program; it sets `exitCode.value` when it does not exit 0. */
export type RegisterCommand = (program: Command, io: CliIO, exitCode: { value: number }) => void;

const COMMANDS: RegisterCommand[] = [registerLint, registerSchema, registerBuild, registerInspect, registerAsk, registerServe, registerAudit, registerTeach, registerChat, registerEval, registerCreate];

const EXAMPLES = `
Exit codes: 0 success, 1 diagnostics with errors (or a failed check), 2 usage or I/O error.

Examples:
  ndfc lint datasets/termy                 check a dataset (file:line:col diagnostics)
  ndfc lint datasets/termy --format sarif  for code-scanning UIs
  ndfc schema --out .schemas               JSON Schemas for editor completion`;

/** Runs the CLI with `argv` (without node and script) and resolves to the exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const exitCode = { value: 0 };
  const program = new Command();
  program
    .name("ndfc")
    .description(
      "Compile NPC datasets (NDF JSON or the rule DSL) into reproducible .npc bundles, lint them, and talk to them.",
    )
    .version(COMPILER_VERSION, "-V, --version", "print the compiler version")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .addHelpText("after", EXAMPLES);
  for (const register of COMMANDS) register(program, io, exitCode);
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode.value;
  } catch (error) {
    return exitCodeFor(error, io);
  }
}

function exitCodeFor(error: unknown, io: CliIO): number {
  if (error instanceof CommanderError) {
    // --help and --version end through here with exit code 0; usage mistakes were already printed.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (error instanceof CliError) {
    io.stderr(`ndfc: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`ndfc: internal error (a bug in ndfc, please report it with the command you ran):\n${message}\n`);
  return 70;
}
