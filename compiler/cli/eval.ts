// `ndfc eval <bundle> <cases>`: scores a bundle on NDF eval blocks or JSONL cases (compiler/eval/).
import { EvalCasesError, parseCases } from "../eval/cases.js";
import { formatReport } from "../eval/report.js";
import { evaluate } from "../eval/score.js";
import { CliError, EXIT_FAILED, EXIT_USAGE } from "./errors.js";
import { countParser, fractionParser } from "./parse-options.js";
import type { RegisterCommand } from "./program.js";
import { loadBundleFile, readCliFile } from "./read-bundle.js";

interface EvalOptions {
  json?: boolean;
  minAccuracy?: number;
  showFailures: number;
}

const parseFraction = fractionParser("a number from 0 to 1 (0.85 for 85 %)");
const parseCount = countParser("a whole number");

export const registerEval: RegisterCommand = (program, io, exitCode) => {
  program
    .command("eval")
    .description("score a .npc bundle on evaluation cases (NDF eval.json blocks or JSONL)")
    .argument("<bundle>", "a .npc file")
    .argument("<cases>", 'eval.json ([{input, output, description}]) or .jsonl ({"input", "expect": {intent|output|status|slots}})')
    .option("--json", "print the whole report as JSON")
    .option("--min-accuracy <x>", "exit 1 when the accuracy is below x (0..1)", parseFraction)
    .option("--show-failures <n>", "failures to list", parseCount, 20)
    .action(async (file: string, casesFile: string, options: EvalOptions) => {
      const { npc } = await loadBundleFile(file, io.cwd);
      const text = readCliFile(casesFile, io.cwd, "cases").toString("utf8");
      let cases;
      try {
        cases = parseCases(text, casesFile);
      } catch (error) {
        if (error instanceof EvalCasesError) throw new CliError(error.message, EXIT_USAGE);
        throw error;
      }
      const report = evaluate(npc, cases);
      io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, options.showFailures));
      if (options.minAccuracy !== undefined && report.accuracy < options.minAccuracy) {
        io.stderr(`ndfc: accuracy ${(report.accuracy * 100).toFixed(1)} % is below --min-accuracy ${options.minAccuracy}\n`);
        exitCode.value = EXIT_FAILED;
      }
    });
};
