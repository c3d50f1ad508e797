// Finding the files of an NPC directory and saying what each one is, in a deterministic order.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

export type NdfFileKind = "entries" | "types" | "vocabularyTemplates" | "vocabulary" | "lists" | "expansions" | "dsl";

export interface NdfFile {
  kind: NdfFileKind;
  /** Absolute path. */
  path: string;
  /** Path relative to the NPC directory, `/`-separated: the stable name used in ids and hashes. */
  relPath: string;
  /** Set when the file loads but is named against NDF's conventions. */
  misnamed?: string;
}

export interface SkippedFile {
  path: string;
  relPath: string;
  reason: "eval" | "unknown";
}

export interface NpcFiles {
  files: NdfFile[];
  skipped: SkippedFile[];
}

const DSL_EXTENSIONS = [".rules", ".rb"];

/** A rule DSL source file, by its name. */
export function isDslFile(path: string): boolean {
  return DSL_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** Every file under `dir`, sorted by relative path (never filesystem order). */
export function listFilesSorted(dir: string): { path: string; relPath: string }[] {
  const found: { path: string; relPath: string }[] = [];
  const walk = (current: string) => {
    for (const dirent of readdirSync(current, { withFileTypes: true })) {
      if (dirent.name.startsWith(".") || dirent.name === "node_modules") continue;
      const full = join(current, dirent.name);
      if (dirent.isDirectory()) walk(full);
      else if (dirent.isFile()) found.push({ path: full, relPath: relative(dir, full).split(sep).join("/") });
    }
  };
  walk(dir);
  return found.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}

/** Classifies the files of an NPC directory (config.json is read separately). */
export function classifyNpcFiles(dir: string): NpcFiles {
  const files: NdfFile[] = [];
  const skipped: SkippedFile[] = [];
  for (const { path, relPath } of listFilesSorted(dir)) {
    if (relPath === "config.json") continue;
    const base = relPath.slice(relPath.lastIndexOf("/") + 1);
    const parent = relPath.includes("/") ? relPath.slice(0, relPath.lastIndexOf("/")) : "";
    const inDataset = relPath.startsWith("dataset/");
    if (isDslFile(base)) {
      files.push({ kind: "dsl", path, relPath });
    } else if (!base.endsWith(".json") || !inDataset) {
      continue;
    } else if (base === "eval.json") {
      skipped.push({ path, relPath, reason: "eval" });
    } else if (base === "types.json") {
      files.push({ kind: "types", path, relPath });
    } else if (parent.endsWith("vocabulary") && base === "templates.json") {
      files.push({ kind: "vocabularyTemplates", path, relPath });
    } else if (parent.endsWith("vocabulary") && base === "lists.json") {
      files.push({ kind: "lists", path, relPath });
    } else if (parent.endsWith("vocabulary") && base === "expansions.json") {
      files.push({ kind: "expansions", path, relPath });
    } else if (parent.endsWith("vocabulary") && base === "vocabulary.json") {
      files.push({ kind: "vocabulary", path, relPath });
    } else if (/^(dataset|templates)_.+\.json$/.test(base) || base === "personality.json") {
      files.push({ kind: "entries", path, relPath });
    } else if (base === "dataset.json" || base === "templates.json") {
      const expected = base === "dataset.json" ? "dataset_*.json" : "templates_*.json";
      files.push({ kind: "entries", path, relPath, misnamed: expected });
    } else {
      skipped.push({ path, relPath, reason: "unknown" });
    }
  }
  return { files, skipped };
}
