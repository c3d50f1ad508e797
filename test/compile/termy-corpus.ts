// Locating the NPC-Forge corpus (read at run time, never copied into the project).
import { corpusNpc, npcForgeDir } from "../support/corpus.js";
import { repoRoot } from "../support/repo-root.js";

// Re-exported for the suites that still import it from here (test/matching).
export { repoRoot };
export const corpusDir = npcForgeDir;
export const termyDir = `${npcForgeDir}/termy`;
// Without it the run prints one note (test/support/corpus-note-setup.ts), not one per file.
export const hasTermy = corpusNpc("termy") !== undefined;
