// Where the tests find the shared corpus (NPC-Forge's datasets, Banking77): beside the repository
// in ../shared/corpus, or wherever NDFC_SHARED_CORPUS points (both the NPC-Forge NPCs and Banking77) (a test points it at a missing
// directory to check what the suite does without it). Read at run time, never copied in.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { banking77Dir, hasBanking77 } from "../../bench/banking77.js";
import { repoRoot } from "./repo-root.js";

export const SHARED_CORPUS_ENV = "NDFC_SHARED_CORPUS";
export const sharedCorpusDir = resolve(process.env[SHARED_CORPUS_ENV] ?? join(repoRoot, "../shared/corpus"));
export const npcForgeDir = join(sharedCorpusDir, "npc-forge");

/** An NPC of the NPC-Forge corpus (termy, smith, example), or undefined when it is absent. */
export function corpusNpc(name: string): string | undefined {
  const dir = join(npcForgeDir, name);
  return existsSync(join(dir, "config.json")) ? dir : undefined;
}

/** The one note the whole run prints about what the missing corpus leaves untested (corpus-note-setup.ts). */
export function corpusSkipNote(): string | null {
  const missing: string[] = [];
  if (corpusNpc("termy") === undefined) {
    missing.push(`NPC-Forge corpus not found at ${npcForgeDir}: its TERMy and smith tests are skipped; datasets/termy and test/fixtures/two-tool-shapes run instead`);
  }
  if (!hasBanking77(sharedCorpusDir)) missing.push(`Banking77 not found at ${banking77Dir(sharedCorpusDir)}: its tests are skipped; the learned stage is tested on test/learn's fixture NPCs`);
  return missing.length === 0 ? null : `${missing.join("\n")}\n(set ${SHARED_CORPUS_ENV} to a corpus directory to run them)`;
}
