// The source loader: an NPC directory (NDF JSON and/or DSL files) or DSL files given directly,
// read in sorted order, lowered and merged into one NpcIR. Every problem becomes a diagnostic.
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { DiagnosticBag, fileStart } from "../diagnostics.js";
import { compareStrings } from "../order.js";
import type { Intent, IrFragment, NpcConfig, NpcIR, SourceFileRef } from "../ir/types.js";
import { NDF_CODES } from "./ndf/codes.js";
import { lowerDslFile, resolveSlotReferences } from "./dsl/index.js";
import { lowerConfig } from "./ndf/config.js";
import { lowerEntriesFile } from "./ndf/entries.js";
import { classifyNpcFiles, isDslFile, type NdfFile } from "./ndf/files.js";
import { parseJson, type JsonNode } from "./ndf/json-ast.js";
import type { SchemaKind } from "./ndf/schemas.js";
import { NdfExpansions } from "./ndf/structure.js";
import { lowerSynonyms, lowerTypes, lowerValueLists, lowerWordLists } from "./ndf/tables.js";
import { validateAgainstSchema } from "./ndf/validate.js";
import { readSource } from "./read-source.js";

export interface LoadedSources {
  ir: NpcIR;
  diagnostics: DiagnosticBag;
  /** Absolute file path → text of every file read. */
  texts: Map<string, string>;
  /** The NPC directory (for files given directly: the directory of the first). */
  root: string;
}

export class SourceInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceInputError";
  }
}

const SCHEMA_OF: Record<Exclude<NdfFile["kind"], "dsl">, SchemaKind> = {
  entries: "dataset",
  types: "types",
  vocabularyTemplates: "vocabularyTemplates",
  vocabulary: "vocabulary",
  lists: "lists",
  expansions: "expansions",
};

/**
 * Loads one NPC: a directory, or one or more DSL files. Throws SourceInputError only when the
 * inputs themselves are unusable (a path that does not exist); everything else is a diagnostic.
 */
export function loadSources(inputs: string[]): LoadedSources {
  if (inputs.length === 0) throw new SourceInputError("no NPC directory or source file given");
  const paths = inputs.map((input) => resolve(input));
  for (const path of paths) {
    if (!existsSync(path)) throw new SourceInputError(`${path}: no such file or directory`);
  }
  const directories = paths.filter((p) => statSync(p).isDirectory());
  if (directories.length > 0 && paths.length > 1) {
    throw new SourceInputError("give one NPC directory, or DSL files (*.rules, *.rb); not both, and not several directories at once");
  }
  const loader = new Loader();
  if (directories.length === 1) return loader.loadDirectory(directories[0]!);
  return loader.loadFiles(paths);
}

class Loader {
  private readonly bag = new DiagnosticBag();
  private readonly texts = new Map<string, string>();
  private readonly sources: SourceFileRef[] = [];
  private readonly fragment: IrFragment = { intents: [], synonyms: [], types: [], wordLists: [], lists: [], connectives: [] };
  private readonly expansions = new NdfExpansions(this.bag);

  loadDirectory(dir: string): LoadedSources {
    const { files, skipped } = classifyNpcFiles(dir);
    const configPath = join(dir, "config.json");
    const hasDsl = files.some((f) => f.kind === "dsl");
    let config: NpcConfig = { name: basename(dir), connectives: [], extra: {} };
    if (existsSync(configPath)) {
      const json = this.readJson(configPath, "config.json");
      if (json && validateAgainstSchema("config", json.root, this.bag, json.value)) config = lowerConfig(json.root, basename(dir), this.bag);
    } else if (!hasDsl) {
      this.bag.error(NDF_CODES.missingConfig, `no config.json in ${dir}: an NDF NPC directory needs config.json and a dataset/ folder`, fileStart(configPath));
    }
    for (const file of skipped) {
      if (file.reason === "unknown") {
        this.bag.info(NDF_CODES.ignoredFile, "not loaded: NDF reads dataset_*.json, templates_*.json, personality.json, types.json and vocabulary/*.json", fileStart(file.path));
      }
    }
    // expansions first: templates of any file may use them
    for (const file of files) if (file.kind === "expansions") this.loadFile(file);
    for (const file of files) if (file.kind !== "expansions") this.loadFile(file);
    if (files.length === 0) {
      this.bag.warning(NDF_CODES.missingConfig, `no dataset files found under ${join(dir, "dataset")}`, fileStart(configPath));
    }
    // Without config.json, the name the DSL declares (`RuleSet.define "mybot"`) wins over the folder's.
    if (!existsSync(configPath)) config.name = this.fragment.name ?? config.name;
    return this.finish(config, dir);
  }

  loadFiles(paths: string[]): LoadedSources {
    const root = dirname(paths[0]!);
    const sorted = [...paths].sort();
    for (const path of sorted) {
      const relPath = basename(path);
      if (isDslFile(path)) this.loadFile({ kind: "dsl", path, relPath });
      else this.bag.error(NDF_CODES.ioError, "ndfc reads an NPC directory, or rule DSL files ending in .rules or .rb", fileStart(path));
    }
    return this.finish({ name: this.fragment.name ?? basename(root), connectives: [], extra: {} }, root);
  }

  private loadFile(file: NdfFile): void {
    if (file.kind === "dsl") {
      this.loadDsl(file);
      return;
    }
    const json = this.readJson(file.path, file.relPath);
    if (!json) return;
    const { root } = json;
    if (file.misnamed) {
      this.bag.warning(NDF_CODES.misnamedFile, `NDF names this kind of file ${file.misnamed}; it is loaded, but other NDF tools will skip it`, fileStart(file.path));
    }
    // Schema findings are reported; each lowerer reads what it can and skips a root of the wrong type.
    validateAgainstSchema(SCHEMA_OF[file.kind], root, this.bag, json.value);
    switch (file.kind) {
      case "entries": {
        const { intents, wordLists } = lowerEntriesFile(file.relPath, root, this.bag, this.expansions);
        this.fragment.intents.push(...intents);
        this.fragment.wordLists.push(...wordLists);
        break;
      }
      case "types":
        this.fragment.types.push(...lowerTypes(root));
        break;
      case "vocabularyTemplates":
        this.fragment.synonyms.push(...lowerSynonyms(root));
        break;
      case "vocabulary":
        this.fragment.wordLists.push(...lowerWordLists(root));
        break;
      case "lists":
        this.fragment.lists.push(...lowerValueLists(root));
        break;
      case "expansions":
        this.expansions.declare(root);
        break;
    }
  }

  private loadDsl(file: NdfFile): void {
    const source = this.read(file.path, file.relPath);
    if (source === undefined) return;
    const dsl = lowerDslFile(file.path, source, this.bag, { idPrefix: file.relPath });
    this.fragment.name ??= dsl.name;
    this.fragment.intents.push(...dsl.intents);
    this.fragment.synonyms.push(...dsl.synonyms);
    this.fragment.types.push(...dsl.types);
    this.fragment.wordLists.push(...dsl.wordLists);
    this.fragment.lists.push(...dsl.lists);
    this.fragment.connectives.push(...dsl.connectives);
  }

  private read(path: string, relPath: string): string | undefined {
    const source = readSource(path, this.bag);
    if (!source) return undefined;
    this.texts.set(path, source.text);
    this.sources.push({ path: relPath, sha256: createHash("sha256").update(source.bytes).digest("hex") });
    return source.text;
  }

  /** The file's tree (for lowering, with offsets) and its plain value (for the schema check). */
  private readJson(path: string, relPath: string): { root: JsonNode; value: unknown } | undefined {
    const text = this.read(path, relPath);
    const root = text === undefined ? undefined : parseJson(path, text, this.bag);
    // The same strict JSON the tree was parsed from, so JSON.parse cannot refuse it.
    return root && { root, value: JSON.parse(text!) };
  }

  private finish(config: NpcConfig, root: string): LoadedSources {
    const intents = this.fragment.intents;
    resolveSlotReferences(intents, this.fragment.types, this.fragment.lists);
    disambiguateIntentIds(intents, this.bag);
    config.connectives.push(...this.fragment.connectives);
    const ir: NpcIR = {
      config,
      intents,
      synonyms: this.fragment.synonyms,
      types: this.fragment.types,
      wordLists: this.fragment.wordLists,
      lists: this.fragment.lists,
      sources: [...this.sources].sort((a, b) => compareStrings(a.path, b.path)),
    };
    return { ir, diagnostics: this.bag, texts: this.texts, root };
  }
}

/** Intent names must be unique: a repeated name is reported, and the later entries get numbered ids. */
function disambiguateIntentIds(intents: Intent[], bag: DiagnosticBag): void {
  const first = new Map<string, Intent>();
  for (const intent of intents) {
    const previous = first.get(intent.id);
    if (!previous) {
      first.set(intent.id, intent);
      continue;
    }
    let n = 2;
    while (first.has(`${intent.id}#${n}`)) n++;
    bag.warning(NDF_CODES.duplicateIntentName, `intent name "${intent.id}" is already used; this entry is called "${intent.id}#${n}"`, intent.keyLocs["intent"] ?? intent.loc, [
      { message: "first used here", loc: previous.keyLocs["intent"] ?? previous.loc },
    ]);
    intent.id = `${intent.id}#${n}`;
    first.set(intent.id, intent);
  }
}
