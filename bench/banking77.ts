// The Banking77 benchmark (../shared/corpus/banking77, see its NOTICE.md) as an NDF NPC, for the
// learned stage's tests and bench: one entry per category, its train.csv phrasings as inputs.
// The data stays in the corpus folder: the NPC is written to a directory the caller chooses.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { timedProcess } from "./cold-start.js";
import { median, round } from "./stats.js";

export interface LabelledRow {
  text: string;
  label: string;
}

/** The shared corpus's folder beside the repository (../shared/corpus), where the bench reads it. */
export function corpusBeside(repoRoot: string): string {
  return resolve(repoRoot, "../shared/corpus");
}

/** Where Banking77 sits in a corpus folder. */
export function banking77Dir(corpusDir: string): string {
  return join(corpusDir, "banking77");
}

export function hasBanking77(corpusDir: string): boolean {
  const dir = banking77Dir(corpusDir);
  return existsSync(join(dir, "train.csv")) && existsSync(join(dir, "test.csv"));
}

/** The rows of a two-column CSV with a header (RFC 4180 quoting). */
export function readLabelledCsv(file: string): LabelledRow[] {
  const text = readFileSync(file, "utf8");
  const rows: LabelledRow[] = [];
  let i = text.indexOf("\n") + 1;
  while (i < text.length) {
    const fields: string[] = [];
    let field = "";
    let quoted = false;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (quoted) {
        if (c !== '"') field += c;
        else if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === ",") {
        fields.push(field);
        field = "";
      } else if (c === "\n") {
        i++;
        break;
      } else if (c !== "\r") field += c;
    }
    fields.push(field);
    if (fields.length === 2 && fields[0] !== "") rows.push({ text: fields[0]!, label: fields[1]! });
  }
  return rows;
}

/** Writes the NPC (config.json, dataset/dataset_banking.json) under `dir` from train.csv; returns the test rows. */
export function writeBanking77Npc(corpusDir: string, dir: string): { train: LabelledRow[]; test: LabelledRow[] } {
  const corpus = banking77Dir(corpusDir);
  const train = readLabelledCsv(join(corpus, "train.csv"));
  const test = readLabelledCsv(join(corpus, "test.csv"));
  const byLabel = new Map<string, string[]>();
  for (const row of train) byLabel.set(row.label, [...(byLabel.get(row.label) ?? []), row.text]);
  const entries = [...byLabel].map(([label, input]) => ({ intent: label, category: "banking", input, output: `Let me help you with ${label.replace(/_/g, " ")}.` }));
  mkdirSync(join(dir, "dataset"), { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify({ npc_name: "Banky", creator: "Banking77 (PolyAI, CC BY 4.0)" }, null, 2));
  writeFileSync(join(dir, "dataset", "dataset_banking.json"), JSON.stringify(entries, null, 2));
  return { train, test };
}

/** The off-topic prompts written for the banking NPC (test/matching/banking77-off-topic.txt). */
export function banking77OffTopic(repoRoot: string): string[] {
  return readFileSync(join(repoRoot, "test/matching/banking77-off-topic.txt"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

export interface CliBuildFigures {
  runs: number;
  /** The 1-minute load average before the first run: on a shared machine wall time measures it too. */
  loadAverageAtStart: number;
  wallMs: number[];
  /** User + system CPU of each process, the fold worker thread included. */
  cpuMs: number[];
  wallMedianMs: number;
  cpuMedianMs: number;
  /** SHA-256 of the bundle, the same every run (a change that should keep bytes is checked against it). */
  bundleSha256: string;
}

/** `runs` whole `ndfc build <dir>` processes (Node start included): what a user waits for. */
export function cliBuildFigures(repoRoot: string, dir: string, output: string, runs: number): CliBuildFigures {
  const loadAverageAtStart = round(loadavg()[0]!, 2);
  const cli = join(repoRoot, "build/compiler/cli/main.js");
  const done = Array.from({ length: runs }, () => timedProcess([cli, "build", dir, "--output", output, "--force"], `ndfc build ${dir}`));
  const wallMs = done.map((r) => round(r.ms, 0));
  const cpuMs = done.map((r) => round(r.cpuMs, 0));
  const bundleSha256 = createHash("sha256").update(readFileSync(output)).digest("hex");
  return { runs, loadAverageAtStart, wallMs, cpuMs, wallMedianMs: median(wallMs), cpuMedianMs: median(cpuMs), bundleSha256 };
}
