// Where the tests find the shared corpus (NPC-Forge's datasets, Banking77): beside the repository
// in ../shared/corpus, or wherever NDFC_SHARED_CORPUS points (both the NPC-Forge NPCs and Banking77) (a test points it at a missing
// directory to check what the suite does without it). Read at run time, never copied in. With
// NDFC_REQUIRE_CORPUS=1 a run without it fails instead of skipping its tests (corpus-note-setup.ts).
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

export const REQUIRE_CORPUS_ENV = "NDFC_REQUIRE_CORPUS";

/**
 * What the whole run prints once about the shared corpus (corpus-note-setup.ts): where it was
 * found, or what its absence leaves untested; `missing` when some part of it is absent.
 */
export function corpusNote(): { text: string; missing: boolean } {
  const missing: string[] = [];
  if (corpusNpc("termy") === undefined) {
    missing.push(`NPC-Forge corpus not found at ${npcForgeDir}: its TERMy and smith tests are skipped; datasets/termy and test/fixtures/two-tool-shapes run instead`);
  }
  if (!hasBanking77(sharedCorpusDir)) missing.push(`Banking77 not found at ${banking77Dir(sharedCorpusDir)}: its tests are skipped; the learned stage is tested on test/learn's fixture NPCs`);
  if (missing.length === 0) return { text: `Shared corpus found at ${sharedCorpusDir}: the NPC-Forge and Banking77 tests run.`, missing: false };
  return { text: `${missing.join("\n")}\n(set ${SHARED_CORPUS_ENV} to a corpus directory to run them)`, missing: true };
}
