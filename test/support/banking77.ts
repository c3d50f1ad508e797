// The Banking77 NPC (bench/banking77.ts) built once per test file, or a note when the corpus is missing.
import { compileNpc, type CompileResult } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { hasBanking77, writeBanking77Npc, type LabelledRow } from "../../bench/banking77.js";
import { tempDir } from "./cli.js";
import { sharedCorpusDir } from "./corpus.js";

// Without it the run prints one note (test/support/corpus-note-setup.ts), not one per file.
export const banking77Present = hasBanking77(sharedCorpusDir);

let built: { dir: string; result: CompileResult; test: LabelledRow[]; train: LabelledRow[] } | null = null;

export function banking77Build(): { dir: string; result: CompileResult; test: LabelledRow[]; train: LabelledRow[] } {
  if (!built) {
    const dir = tempDir("banking77");
    const { train, test } = writeBanking77Npc(sharedCorpusDir, dir);
    built = { dir, result: compileNpc(lintSources([dir]).ir), test, train };
  }
  return built;
}
