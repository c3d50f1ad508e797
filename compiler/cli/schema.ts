// `ndfc schema`: write the JSON Schemas of the NDF files, for editor validation and completion.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { NDF_SCHEMAS } from "../sources/ndf/schemas.js";
import { writeFileAtomic } from "../write-atomic.js";
import { CliError } from "./errors.js";
import type { RegisterCommand } from "./io.js";

const FILE_NAMES: Record<keyof typeof NDF_SCHEMAS, string> = {
  config: "ndf-config.schema.json",
  dataset: "ndf-dataset.schema.json",
  types: "ndf-types.schema.json",
  vocabularyTemplates: "ndf-vocabulary-templates.schema.json",
  vocabulary: "ndf-vocabulary.schema.json",
  lists: "ndf-vocabulary-lists.schema.json",
  expansions: "ndf-vocabulary-expansions.schema.json",
};

export const registerSchema: RegisterCommand = (program, io) => {
  program
    .command("schema")
    .description("write the JSON Schemas of NDF files (config, dataset/templates/personality, types, vocabulary)")
    .option("--out <dir>", "directory to write the schemas into (default: print them all as one JSON object)")
    .addHelpText(
      "after",
      `
Point your editor at them, e.g. in VS Code settings.json:
  "json.schemas": [{ "fileMatch": ["dataset_*.json", "templates_*.json"], "url": "./.schemas/ndf-dataset.schema.json" }]`,
    )
    .action((options: { out?: string }) => {
      if (!options.out) {
        io.stdout(JSON.stringify(NDF_SCHEMAS, null, 2) + "\n");
        return;
      }
      const dir = resolve(io.cwd, options.out);
      try {
        mkdirSync(dir, { recursive: true });
        for (const [kind, name] of Object.entries(FILE_NAMES)) {
          writeFileAtomic(join(dir, name), JSON.stringify(NDF_SCHEMAS[kind as keyof typeof NDF_SCHEMAS], null, 2) + "\n");
        }
      } catch (error) {
        throw new CliError(`cannot write schemas to ${dir}: ${error instanceof Error ? error.message : String(error)}`);
      }
      io.stdout(`wrote ${Object.keys(FILE_NAMES).length} schemas to ${dir}\n`);
    });
};
