// Locating the NPC-Forge corpus (read at run time, never copied into the project).
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const corpusDir = resolve(repoRoot, "../shared/corpus/npc-forge");
export const termyDir = resolve(corpusDir, "termy");
export const hasTermy = existsSync(resolve(termyDir, "config.json"));
if (!hasTermy) console.warn(`NPC-Forge corpus not found at ${corpusDir}: TERMy tests are skipped`);
