// The `ndfc` command line: one file per command, each exporting a register function listed here.
import { Command, CommanderError } from "commander";
import { COMPILER_VERSION } from "../version.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { CliIO, RegisterCommand } from "./io.js";

/**
 * Each command's module, imported only when needed: `ndfc ask` loads the runtime and ask.ts, not
 * the compiler, the server and SQLite (start-up was half of an `ndfc ask`). In help order.
 */
const COMMANDS: [name: string, load: () => Promise<RegisterCommand>][] = [
  ["lint", async () => (await import("./lint.js")).registerLint],
  ["schema", async () => (await import("./schema.js")).registerSchema],
  ["build", async () => (await import("./build.js")).registerBuild],
  ["inspect", async () => (await import("./inspect.js")).registerInspect],
  ["ask", async () => (await import("./ask.js")).registerAsk],
  ["serve", async () => (await import("./serve.js")).registerServe],
  ["audit", async () => (await import("./audit.js")).registerAudit],
  ["teach", async () => (await import("./teach.js")).registerTeach],
  ["chat", async () => (await import("./chat.js")).registerChat],
  ["eval", async () => (await import("./eval.js")).registerEval],
  ["create", async () => (await import("./create.js")).registerCreate],
  ["web", async () => (await import("./web.js")).registerWeb],
  ["list", async () => (await import("./list.js")).registerList],
  ["sample", async () => (await import("./sample.js")).registerSample],
  ["graph", async () => (await import("./graph.js")).registerGraph],
];

/** The commands `argv` needs: the one it names, or all (help, a typo, no command: commander lists them). */
function commandsFor(argv: readonly string[]): (() => Promise<RegisterCommand>)[] {
  const named = argv.find((arg) => !arg.startsWith("-"));
  const only = COMMANDS.find(([name]) => name === named);
  return only ? [only[1]] : COMMANDS.map(([, load]) => load);
}

const EXAMPLES = `
Exit codes: 0 success, 1 diagnostics with errors (or a failed check), 2 usage or I/O error.

A typical loop:
  ndfc create mybot --dir datasets          start from the example NPC
  ndfc lint datasets/mybot --strict         file:line:col diagnostics (a pre-commit hook)
  ndfc sample datasets/mybot -n 3           sentences each template accepts, checked against the built NPC
  ndfc graph datasets/mybot -o mybot.mmd    a Mermaid diagram of its intents, follow-ups and shadowing
  ndfc build datasets/mybot                 → dist-npcs/mybot.npc, reproducible bytes
  ndfc ask dist-npcs/mybot.npc "hello"      one answer (--json for the whole response, --explain for the trace)
  ndfc chat dist-npcs/mybot.npc             talk to it in the terminal
  ndfc eval dist-npcs/mybot.npc cases.jsonl accuracy, rejection rate, latency, failures
  ndfc list                                 the bundles in dist-npcs/: name, creator, intents, size, tools
  ndfc serve dist-npcs                      OpenAI-compatible HTTP and a chat page per bundle on 127.0.0.1:5000
  ndfc web dist-npcs/mybot.npc -o site      a static chat site answering in the browser

Run ndfc <command> --help for a command's options and examples.`;

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
  for (const register of await Promise.all(commandsFor(argv).map((load) => load()))) register(program, io, exitCode);
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
