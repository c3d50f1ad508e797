// Issue 14's "build of Banking77 ≤ 5 s", measured alone: whole `ndfc build` CLI processes of the
// Banking77 NPC (bench/banking77.ts writes it from ../shared/corpus/banking77), wall and CPU
// medians with the load, and the bundle's SHA-256 so a speed change can show it kept the bytes.
// Writes bench/results/banking77-build.json. bench/learned.ts takes the same figures with the rest.
//
//   npm run build && node build/bench/banking77-build.js [--runs N]

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { cliBuildFigures, corpusBeside, hasBanking77, writeBanking77Npc } from "./banking77.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const runs = Math.max(3, Number(args[args.indexOf("--runs") + 1]) || 3);

if (!hasBanking77(corpusBeside(repoRoot))) throw new Error("Banking77 corpus not found beside the repository (../shared/corpus/banking77)");
const dir = mkdtempSync(join(tmpdir(), "ndfc-banking77-"));
writeBanking77Npc(corpusBeside(repoRoot), dir);
const figures = { benchmark: "banking77-build", node: process.version, ...cliBuildFigures(repoRoot, dir, join(dir, "banking77.npc"), runs) };
const file = join(repoRoot, "bench/results/banking77-build.json");
writeFileAtomic(file, `${JSON.stringify(figures, null, 2)}\n`);
console.log(JSON.stringify(figures, null, 2));
