// `ndfc lint`: check NPC sources and print located diagnostics.
import { Option } from "commander";
import { resolve } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { isDslFile } from "../sources/ndf/files.js";
import { CliError, EXIT_FAILED } from "./errors.js";
import { formatJson, formatSarif, formatText, summaryLine, type DiagnosticFormat } from "./format-diagnostics.js";
import type { RegisterCommand } from "./io.js";

interface LintOptions {
  format: DiagnosticFormat;
  strict?: boolean;
  maxWarnings?: number;
  fix?: boolean;
}

export const registerLint: RegisterCommand = (program, io, exitCode) => {
  program
    .command("lint")
    .description("check NPC sources: schema, references, conflicts, regexes; prints file:line:col diagnostics")
    .argument("<npc-dir...>", "NPC directories (or rule DSL files, which are linted together)")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "sarif"]).default("text"))
    .option("--strict", "treat warnings as errors (exit 1 when there is any)")
    .option("--max-warnings <n>", "exit 1 when there are more than n warnings", parseCount)
    .option("--fix", "rewrite the sources with the mechanical fixes (quote a placeholder, add --), then lint again")
    .addHelpText(
      "after",
      `
Exit codes: 0 clean, 1 errors (or warnings with --strict / over --max-warnings), 2 usage or I/O error.

Examples:
  ndfc lint datasets/termy
  ndfc lint datasets/termy --strict              as a pre-commit hook
  ndfc lint datasets/termy --fix                 quote placeholders, add -- (TCS), in place
  ndfc lint datasets/shell/shell.rules
  ndfc lint datasets/* --format json | jq '.[] | select(.severity=="error")'`,
    )
    .action(async (inputs: string[], options: LintOptions) => {
      const { fixThenLint, lintForCli } = await import("./lint-sources.js");
      const groups = groupInputs(inputs, io.cwd);
      const all: Diagnostic[] = [];
      const texts = new Map<string, string>();
      for (const group of groups) {
        const result = options.fix ? fixThenLint(group, io) : lintForCli(group);
        all.push(...result.diagnostics);
        for (const [file, text] of result.texts) texts.set(file, text);
      }
      if (options.format === "json") io.stdout(formatJson(all, io.cwd));
      else if (options.format === "sarif") io.stdout(formatSarif(all, io.cwd));
      else {
        io.stdout(formatText(all, texts, io.cwd, io.isTTY));
        io.stderr(`${summaryLine(all)}\n`);
      }
      exitCode.value = lintExitCode(all, options);
    });
};

/** Directories are linted one by one; loose DSL files together as one NPC. */
function groupInputs(inputs: string[], cwd: string): string[][] {
  const files = inputs.filter(isDslFile);
  const dirs = inputs.filter((i) => !files.includes(i));
  return [...dirs.map((d) => [resolve(cwd, d)]), ...(files.length > 0 ? [files.map((f) => resolve(cwd, f))] : [])];
}

function lintExitCode(diagnostics: Diagnostic[], options: { strict?: boolean; maxWarnings?: number }): number {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  if (errors > 0) return EXIT_FAILED;
  if (options.strict && warnings > 0) return EXIT_FAILED;
  if (options.maxWarnings !== undefined && warnings > options.maxWarnings) return EXIT_FAILED;
  return 0;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--max-warnings expects a whole number, got "${value}"`);
  return n;
}
