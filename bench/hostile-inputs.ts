// Hostile messages for the runtime (test/conversation/hostile-messages.test.ts, bench/
// hostile-messages.ts): drawn by fast-check from a fixed seed, so both see the same ones. They mix
// an NPC's own words with what breaks tokenizers and matchers: random Unicode (lone surrogates,
// controls, combining marks, characters NFKC expands 18-fold), words of hundreds of letters,
// repeated connectives and sentence ends, open and typographic quotes, <||tags||>, huge numbers,
// negations, literals, many clauses, and runs of one unit up to and just past the length limit.
import fc from "fast-check";
import { mulberry32 } from "../runtime/render/rng.js";

const CONNECTIVES = ["then", "and then", "after that", "next", ", and", ".", ";", "!", "?", "\n", "...", " , "];
const QUOTES = ['"', "'", "\u201c", "\u2019", "\u00ab", '"quoted text"', "'it'", '""', "''", '"a "b "c'];
const TAGS = ["<||amp||>", "<||username||>", "<||file||>", "<||", "||>", "<||x||>", "<|||||>", "<||<||a||>||>"];
const NUMBERS = ["9".repeat(300), "1e308", "-0", "NaN", "Infinity", `0x${"f".repeat(64)}`, "1.2.3.4.5.6.7.8", "-".repeat(40), "10mb", "3x"];
const NEGATIONS = ["don't", "dont", "never", "do not", "not", "no", "cannot", "do      not", "can\u2019t"];
const LITERALS = ["*.log", "/tmp/x", "~/a", "$HOME", "--force", "-rf", "a=b", "user@host", "http://x.y/z", "old.log", "../..", "C:\\x"];
/** Units repeated to the limit: each stresses one step (quotes, clauses, filler, NFKC, case folding). */
const UNITS = ["a ", '" ', "' ", "'a ", '"a ', "then ", "please. ", "x", "don't ", "list files. ", "<||amp||>", "\u{1F642}", "e\u0301", "\uFDFA", "\u0130", "\u200d", "do ", ". ", "and, ", "\t"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A word of `length` letters drawn from `seed` (built directly: a 480-letter word from fast-check per character would be slow). */
function longWord(length: number, seed: number): string {
  const random = mulberry32(seed);
  let out = "";
  for (let i = 0; i < length; i++) out += LETTERS[Math.floor(random() * LETTERS.length)];
  return out;
}

/** What a message is made of besides hostile pieces: the NPC's words and inputs, and its maxMessageChars. */
export interface MessageStuff {
  words: readonly string[];
  inputs: readonly string[];
  limit: number;
}

/** One hostile message; the NPC's own words and inputs make the stages past the exact table run. */
export function hostileMessage({ words, inputs, limit }: MessageStuff): fc.Arbitrary<string> {
  const word = fc.constantFrom(...words);
  const piece = fc.oneof(
    { weight: 6, arbitrary: word },
    { weight: 2, arbitrary: fc.constantFrom(...inputs) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }) },
    { weight: 2, arbitrary: fc.constantFrom(...CONNECTIVES) },
    { weight: 1, arbitrary: fc.constantFrom(...QUOTES) },
    { weight: 1, arbitrary: fc.constantFrom(...TAGS) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...NUMBERS), fc.bigInt().map(String), fc.double().map(String)) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 20, max: 300 }), fc.integer()).map(([length, seed]) => longWord(length, seed)) },
    { weight: 1, arbitrary: fc.constantFrom(...NEGATIONS) },
    { weight: 1, arbitrary: fc.constantFrom(...LITERALS) },
  );
  const phrase = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(" "));
  const sentence = fc.array(piece, { maxLength: 24, size: "max" }).map((pieces) => pieces.join(" "));
  const manyClauses = fc
    .tuple(fc.array(fc.tuple(word, word), { minLength: 9, maxLength: 24, size: "max" }), fc.constantFrom(" then ", ". ", ", and "))
    .map(([pairs, joiner]) => pairs.map(([a, b]) => `${a} ${b}`).join(joiner));
  const repeated = fc
    .tuple(fc.constantFrom(...UNITS), fc.integer({ min: 1, max: limit + 5 }))
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
  const nearLimit = fc
    .tuple(sentence, fc.integer({ min: -3, max: 1 }))
    .map(([text, offset]) => (text.length > 0 ? text.repeat(Math.ceil(limit / text.length)).slice(0, limit + offset) : text));
  // Mostly short ones, as typed; the long kinds cost the most per message.
  return fc.oneof(
    { weight: 20, arbitrary: phrase },
    { weight: 3, arbitrary: sentence },
    { weight: 1, arbitrary: manyClauses },
    { weight: 1, arbitrary: repeated },
    { weight: 1, arbitrary: nearLimit },
  );
}

/** `count` hostile messages, the same for the same seed. */
export function hostileMessages(stuff: MessageStuff, count: number, seed: number): string[] {
  return fc.sample(hostileMessage(stuff), { numRuns: count, seed });
}
