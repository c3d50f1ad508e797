// `ndfc list [DIR]`: one line per bundle of a directory (NPC-Forge's `npc-forge list`): name,
// creator, intents, vocabulary, bytes, whether it calls tools. A bad bundle is reported by name on
// stderr (exit 1) and the others are still listed.
import { basename } from "node:path";
import type { Npc } from "../../runtime/index.js";
import { loadBundleDir, type LoadedBundle } from "./bundle-dir.js";
import { EXIT_FAILED } from "./errors.js";
import type { RegisterCommand } from "./io.js";

export interface ListedBundle {
  file: string;
  name: string;
  creator: string | null;
  intents: number;
  vocabularyWords: number;
  bytes: number;
  tools: boolean;
}

function hasTools(npc: Npc): boolean {
  return npc.payload.intents.some((intent) => intent.tools.length > 0);
}

export function listedBundle({ file, npc, bytes }: LoadedBundle): ListedBundle {
  const { payload } = npc;
  return {
    file: basename(file),
    name: payload.name,
    creator: payload.config.creator,
    intents: payload.counts.intents,
    vocabularyWords: payload.counts.vocabularyWords,
    bytes: bytes.length,
    tools: hasTools(npc),
  };
}

/** Left-aligned text columns, right-aligned numbers, two spaces apart. */
function formatTable(rows: readonly ListedBundle[]): string {
  const header = ["NAME", "CREATOR", "INTENTS", "VOCABULARY", "BYTES", "TOOLS", "FILE"];
  const cells = rows.map((r) => [r.name, r.creator ?? "-", String(r.intents), String(r.vocabularyWords), String(r.bytes), r.tools ? "yes" : "no", r.file]);
  const numeric = new Set([2, 3, 4]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ");
  return [header, ...cells].map(line).join("\n") + "\n";
}

export const registerList: RegisterCommand = (program, io, exitCode) => {
  program
    .command("list")
    .description("list the .npc bundles of a directory: name, creator, intents, vocabulary, bytes, tools")
    .argument("[dir]", "a directory of .npc files", "dist-npcs")
    .option("--json", 'print {"bundles": [...], "failed": [{file, reason}]} instead of a table')
    .addHelpText(
      "after",
      `
Each *.npc directly inside DIR is one row, in file-name order. VOCABULARY counts the distinct
words of its inputs and synonyms; TOOLS says whether any intent calls a tool.
A bundle that cannot be read (corrupt, from a newer ndfc) is named on stderr and the others are
still listed; the exit status is then 1. A missing directory is exit 2.

Examples:
  ndfc list                         the bundles ndfc build wrote to dist-npcs/
  ndfc list build/npcs --json       for scripts: jq '.bundles[] | select(.tools) | .name'`,
    )
    .action(async (dir: string, options: { json?: boolean }) => {
      const { loaded, failed } = await loadBundleDir(dir, io.cwd);
      const rows = loaded.map(listedBundle);
      if (options.json) io.stdout(`${JSON.stringify({ bundles: rows, failed: failed.map(({ file, reason }) => ({ file: basename(file), reason })) }, null, 2)}\n`);
      else if (rows.length > 0) io.stdout(formatTable(rows));
      for (const { file, reason } of failed) io.stderr(`ndfc list: cannot read ${file}: ${reason}\n`);
      if (rows.length === 0 && failed.length === 0 && !options.json) io.stderr(`no .npc bundles in ${dir} (ndfc build DATASET -o ${dir}/NAME.npc writes one)\n`);
      if (failed.length > 0) exitCode.value = EXIT_FAILED;
    });
};

