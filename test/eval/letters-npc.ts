// "Letters": a tiny NDF NPC whose answers the eval tests control exactly. Every case they ask is
// one of its inputs (an exact match, confidence 1) or a word it has never seen (a rejection
// without suggestions), so the confusions, and the metrics computed by hand from them, are known.
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

const entry = (intent: string, input: string[]) => ({ intent, input, output: `${intent} answer`, permission: "yolo" });

export const LETTERS_FILES: Record<string, unknown> = {
  "config.json": { npc_name: "Letters" },
  "dataset/dataset_a.json": [entry("alpha", ["alpha one", "alpha two"])],
  "dataset/dataset_b.json": [entry("bravo", ["bravo one", "bravo two", "bravo three", "bravo four"]), entry("charlie", ["charlie one", "charlie two"])],
  // Two phrasings with no word in common: cross-validation can never get either right.
  "dataset/dataset_e.json": [entry("echo", ["xylophone", "quartz"])],
  // An intent with a single phrasing (written twice, differing only in case): not cross-validated.
  "dataset/dataset_d.json": [entry("delta", ["delta", "Delta!"])],
};

/** Writes the Letters sources to a new temporary directory and returns it. */
export function writeLetters(): string {
  const files = Object.fromEntries(Object.entries(LETTERS_FILES).map(([path, value]) => [path, JSON.stringify(value, null, 2)]));
  return writeTree(tempDir("letters"), files);
}

export async function loadLetters(): Promise<Npc> {
  return loadNpc(compileNpc(lintSources([writeLetters()]).ir).bytes);
}
