// `ndfc graph NPC`: a Mermaid (or DOT) diagram of an NPC's categories, intents, context flows,
// templates with their slot types, and the shadowing and shared inputs the linter proved.
import { Option } from "commander";
import { resolve } from "node:path";
import { writeFileAtomic } from "../write-atomic.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { GraphFormat } from "../graph/render-graph.js";
import type { RegisterCommand } from "./io.js";

interface GraphOptions {
  format: GraphFormat;
  output?: string;
}

export const registerGraph: RegisterCommand = (program, io) => {
  program
    .command("graph")
    .description("draw an NPC as a Mermaid (or DOT) diagram: categories, intents, context flows, templates, shadowing")
    .argument("<npc>", "an NPC directory or a rule DSL file (sources, not a bundle: the diagram shows the linter's findings and the templates as written)")
    .addOption(new Option("--format <format>", "diagram language").choices(["mermaid", "dot"]).default("mermaid"))
    .option("-o, --output <file>", "write the diagram to this file (atomically) instead of stdout")
    .addHelpText(
      "after",
      `
What the diagram shows:
  boxes          entries (their first inputs), grouped in one box per category
  rounded boxes  templates, one line per path: (synonyms) [optional] <slot: type>
  -->            follow-up: answering the entry makes that context entry reachable
  -.-> shadows   the linter proved this template path never wins against the other (CON004)
  -.- same input one input given to both intents (CON001)
Captions are escaped, so any intent name or input draws as written.

Examples:
  ndfc graph datasets/example -o example.mmd                  paste into a Markdown \`\`\`mermaid block
  ndfc graph datasets/termy --format dot | dot -Tsvg > termy.svg`,
    )
    .action(async (npc: string, options: GraphOptions) => {
      const [{ lintForCli }, { buildNpcGraph }, { renderGraph }] = await Promise.all([
        import("./lint-sources.js"),
        import("../graph/npc-graph.js"),
        import("../graph/render-graph.js"),
      ]);
      const lint = lintForCli([resolve(io.cwd, npc)]);
      const text = renderGraph(buildNpcGraph(lint.ir, lint.diagnostics), options.format);
      if (options.output === undefined) {
        io.stdout(text);
        return;
      }
      try {
        writeFileAtomic(resolve(io.cwd, options.output), text);
      } catch (error) {
        throw new CliError(`cannot write ${options.output}: ${error instanceof Error && "code" in error ? String(error.code) : String(error)}`, EXIT_USAGE);
      }
      io.stderr(`wrote ${options.output}\n`);
    });
};
