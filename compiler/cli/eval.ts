// `ndfc eval <bundle> <cases>`: scores a bundle on NDF eval blocks, JSONL or CSV cases; and
// `ndfc eval <npc-dir> --cross-validate K`: scores an NPC on its own phrasings (compiler/eval/).
import { resolve } from "node:path";
import type { NpcIR } from "../ir/types.js";
import { EvalCasesError, parseCases } from "../eval/cases.js";
import type { CrossValidationReport } from "../eval/cross-validate.js";
import { formatReport } from "../eval/report.js";
import { evaluate, type EvalReport } from "../eval/score.js";
import { CliError, EXIT_FAILED, EXIT_USAGE } from "./errors.js";
import { formatText } from "./format-diagnostics.js";
import type { CliIO } from "./io.js";
import { countParser, fractionParser, parseSeed } from "./parse-options.js";
import type { RegisterCommand } from "./io.js";
import { loadBundleFile, readCliFile } from "./read-bundle.js";

interface EvalOptions {
  json?: boolean;
  minAccuracy?: number;
  showFailures: number;
  showIntents: number;
  showConfusions: number;
  crossValidate?: number;
  seed?: number;
  wordnet?: boolean;
}

const parseFraction = fractionParser("a number from 0 to 1 (0.85 for 85 %)");
const parseCount = countParser("a whole number");
const parseFolds = countParser("a whole number of folds, at least 2", 2);

const HELP = `
Cases: eval.json ([{input, output, description, permission}]), JSONL ({"input", "expect":
{intent|output|status|slots}} per line) or CSV (a .csv file, or a first line text,category; RFC
4180 quoting; the category is the expected intent, an empty one expects a rejection). A malformed
case is reported as file:line (exit 2).

--cross-validate K measures an NPC on its own phrasings: each intent's phrasings are dealt into K
folds (by a hash of the seed, intent and phrasing: the same folds in any file order); each fold is
compiled without its phrasings, as ndfc build would, and asked them. Intents with a single
phrasing and context follow-ups are not tested (the report says how many). Progress on stderr.

Each case is asked in a fresh session, as ndfc chat and serve answer it (with the conversation:
"delete" is answered "Delete what?", status elicit).

The text report, line by line:
  accuracy         correct cases / all cases
  precision        correct answers / answers; a rejection or a question (elicit) is no answer
  rejection rate   rejected cases / all cases
  asked            questions naming the case's expected intent ("delete" → "Delete what?" for a
                   case expecting the delete entry): abstentions with the right intent, neither
                   correct nor failures, left out of precision
  in scope         cases that expect an answer, and how many were correct
  off-topic        cases that expect a rejection, and how many were rejected
  reachable        cases whose expected answer exists in the bundle; precision among their answers
  suggested        rejected cases that offered the expected answer among their suggestions
  permission       correct answers with the permission the case states (NDF)
  statuses         answers per status; latency: time of one answer, p50/p90/p99
  macro/weighted   per-intent precision, recall and F1, averaged plainly / weighted by support
Tables: "lowest F1" per intent: support (cases expecting it), answered (answers giving it, right
or wrong), precision (correct / answered), recall (correct / support), F1. "most confused":
count, expected → answered, an example. "confidence": answers binned by confidence, counting
correct, wrong, asked and rejected (rejections and other questions, binned by their best
suggestion's score). "failures": the cases neither correct nor asked.

--json prints every field (the text report shortens the lists):
  cases, correct, accuracy, answered, answeredCorrect, precision, asked, rejected, rejectionRate,
  statuses, inScope, offTopic, reachable, suggested, permission, latencyUs {p50, p90, p99}
  intents [{intent, support, answered, correct, precision, recall, f1}]      by intent id
  averages {intents, support, macro {precision, recall, f1}, weighted {…}}   weighted by support
  confusions [{expected, answered, count, example}]   most frequent first; expected null: off-topic
  confidenceHistogram [{from, to, correct, wrong, asked, rejected}]   10 bins; an abstention
                                                               counts its best suggestion's score
  failures [{input, line, file?, expected, status, intent, response}]
  crossValidation {folds, seed, heldOut, intents, skipped {intents, inputs, followUpInputs}}

Exit codes: 0 scored, 1 accuracy under --min-accuracy, 2 usage, unreadable or malformed input.

Examples:
  ndfc eval dist-npcs/termy.npc datasets/termy/eval.jsonl --min-accuracy 0.9
  ndfc eval dist-npcs/bank.npc banking77/test.csv --show-intents 77 --json
  ndfc eval datasets/termy --cross-validate 5`;

async function evaluateFile(file: string, casesFile: string, io: CliIO): Promise<EvalReport> {
  const { npc } = await loadBundleFile(file, io.cwd);
  const text = readCliFile(casesFile, io.cwd, "cases").toString("utf8");
  try {
    return evaluate(npc, parseCases(text, casesFile));
  } catch (error) {
    if (error instanceof EvalCasesError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

async function crossValidateSources(dir: string, options: EvalOptions & { crossValidate: number }, io: CliIO): Promise<CrossValidationReport> {
  if (dir.endsWith(".npc")) {
    throw new CliError(`--cross-validate needs the NPC's source directory, not a bundle (${dir}): it compiles the NPC again without some phrasings`, EXIT_USAGE);
  }
  const [{ lintForCli }, { compileNpc }, { crossValidate }, { WordNetUnavailableError, wordnetExpansion }] = await Promise.all([
    import("./lint-sources.js"),
    import("../compile.js"),
    import("../eval/cross-validate.js"),
    import("../wordnet.js"),
  ]);
  const lint = lintForCli([resolve(io.cwd, dir)]);
  const errors = lint.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    io.stderr(formatText(errors, lint.texts, io.cwd, io.isTTY));
    throw new CliError(`cannot cross-validate: ${errors.length} lint error(s); fix them (ndfc lint shows everything)`, EXIT_USAGE);
  }
  const compile = options.wordnet ? (ir: NpcIR) => compileNpc(ir, { lexicalExpansion: wordnetExpansion }).bytes : undefined;
  try {
    return await crossValidate(lint.ir, {
      folds: options.crossValidate,
      seed: options.seed ?? 0,
      root: lint.root,
      ...(compile ? { compile } : {}),
      onFold: (fold, folds, heldOut) => io.stderr(`cross-validation: fold ${fold} of ${folds} (${heldOut} phrasings held out)\n`),
    });
  } catch (error) {
    if (error instanceof WordNetUnavailableError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

export const registerEval: RegisterCommand = (program, io, exitCode) => {
  program
    .command("eval")
    .description("score a .npc bundle on evaluation cases (NDF eval.json, JSONL or CSV), or an NPC directory on its own phrasings (--cross-validate K)")
    .argument("<bundle-or-npc>", "a .npc file; with --cross-validate, the NPC's source directory")
    .argument("[cases]", "the cases file (not with --cross-validate); formats below")
    .option("--json", "print the whole report as JSON (fields below)")
    .option("--min-accuracy <x>", "exit 1 when the accuracy is below x (0..1)", parseFraction)
    .option("--show-failures <n>", "failures to list", parseCount, 20)
    .option("--show-intents <n>", "intents to list, lowest F1 first", parseCount, 10)
    .option("--show-confusions <n>", "confused intent pairs to list, most frequent first", parseCount, 10)
    .option("--cross-validate <k>", "split the NPC's phrasings into k folds (k ≥ 2) and score each fold against a build without it", parseFolds)
    .option("--seed <n>", "with --cross-validate: the seed of the split (default 0)", parseSeed)
    .option("--wordnet", "with --cross-validate: build each fold like ndfc build --wordnet")
    .addHelpText("after", HELP)
    .action(async (file: string, casesFile: string | undefined, options: EvalOptions) => {
      const { crossValidate } = options;
      let report: EvalReport;
      if (crossValidate === undefined) {
        if (casesFile === undefined) throw new CliError("ndfc eval needs a cases file after the bundle (or --cross-validate K and an NPC directory)", EXIT_USAGE);
        if (options.seed !== undefined || options.wordnet) throw new CliError("--seed and --wordnet only go with --cross-validate", EXIT_USAGE);
        report = await evaluateFile(file, casesFile, io);
      } else {
        if (casesFile !== undefined) throw new CliError("--cross-validate scores the NPC on its own phrasings: give the NPC directory without a cases file", EXIT_USAGE);
        report = await crossValidateSources(file, { ...options, crossValidate }, io);
      }
      const limits = { failures: options.showFailures, intents: options.showIntents, confusions: options.showConfusions };
      io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, limits));
      if (options.minAccuracy !== undefined && report.accuracy < options.minAccuracy) {
        io.stderr(`ndfc: accuracy ${(report.accuracy * 100).toFixed(1)} % is below --min-accuracy ${options.minAccuracy}\n`);
        exitCode.value = EXIT_FAILED;
      }
    });
};
