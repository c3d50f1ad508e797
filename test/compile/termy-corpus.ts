// Locating the NPC-Forge corpus (read at run time, never copied into the project).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { repoRoot } from "../support/repo-root.js";

// Re-exported for the suites that still import it from here (test/matching).
export { repoRoot };
export const corpusDir = resolve(repoRoot, "../shared/corpus/npc-forge");
export const termyDir = resolve(corpusDir, "termy");
export const hasTermy = existsSync(resolve(termyDir, "config.json"));
if (!hasTermy) console.warn(`NPC-Forge corpus not found at ${corpusDir}: TERMy tests are skipped`);
