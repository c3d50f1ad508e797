// Puts each taught word's meaning in its place in a message ("zap notes.txt" → "delete notes.txt"),
// matching whole words on the runtime's normalization; literals (paths, flags) are never touched.
import { tokenize } from "../../runtime/text/normalize.js";
import type { Teaching } from "../store/store.js";

export interface Substituted {
  message: string;
  used: Teaching[];
}

export function substituteTaught(message: string, teachings: readonly Teaching[]): Substituted {
  if (teachings.length === 0) return { message, used: [] };
  const { clean, tokens } = tokenize(message);
  // Longest taught phrases first, so "get rid of" wins over "get".
  const phrases = teachings
    .map((teaching) => ({ teaching, words: teaching.word.split(" ") }))
    .sort((a, b) => b.words.length - a.words.length || (a.teaching.word < b.teaching.word ? -1 : 1));
  const used = new Map<number, Teaching>();
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < tokens.length) {
    const hit = phrases.find(({ words }) =>
      words.every((word, k) => tokens[i + k]?.kind === "word" && tokens[i + k]!.norm === word),
    );
    if (!hit) {
      i++;
      continue;
    }
    const last = tokens[i + hit.words.length - 1]!;
    out += clean.slice(copied, tokens[i]!.start) + hit.teaching.meaning;
    copied = last.end;
    used.set(hit.teaching.id, hit.teaching);
    i += hit.words.length;
    // A contraction expands to several tokens sharing one span: skip the rest of that span.
    while (i < tokens.length && tokens[i]!.start < copied) i++;
  }
  if (used.size === 0) return { message, used: [] };
  return { message: out + clean.slice(copied), used: [...used.values()] };
}
