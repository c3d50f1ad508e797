// The Porter stemmer (M. F. Porter, 1980, with his later "bli"/"logi" corrections), used on both
// sides of the probabilistic stage: at build time for the words of the inputs and synonyms, at
// run time for the message's words, so "directories", "directory" and "directoried" meet.
// Only lowercase ASCII words of three letters or more are stemmed; anything else is its own stem.
// Letters are tested by char code, not by regexes: each would be compiled in a fresh process's first message
// (LOWER_ASCII is the tokenizer's, compiled by then).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import { LOWER_ASCII } from "./normalize.js";

const isConsonant = (function isConsonant(w: string, i: number): boolean {
  const c = w[i]!;
  if ("aeiou".includes(c)) return false;
  return c !== "y" || i === 0 || !isConsonant(w, i - 1);
});

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences of `w[0..end)`. */
const measure = (function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return m;
});

const hasVowel = (function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
});

const endsDoubleConsonant = (function endsDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
});

/** consonant-vowel-consonant ending, the last consonant not w, x or y. */
const endsCvc = (function endsCvc(w: string, end: number): boolean {
  if (end < 3 || !isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  return !"wxy".includes(w[end - 1]!);
});

/** Replaces the first matching suffix when the remaining stem's measure exceeds `minMeasure`. */
const replaceSuffix = (function replaceSuffix(w: string, rules: readonly string[], minMeasure: number): string {
  // Indexed, not for-of: a fresh process's first messages run this in the interpreter, where each step of an iterator allocates.
  for (let k = 0; k < rules.length; k += 2) {
    if (!w.endsWith(rules[k]!)) continue;
    const stem = w.length - rules[k]!.length;
    return measure(w, stem) > minMeasure ? w.slice(0, stem) + rules[k + 1] : w;
  }
  return w;
});

/**
 * Suffix rules written `suffix:replacement,…`: one string, where a literal table of pairs spends 7
 * bytes of the minified core per rule; read as one flat list, suffix then replacement.
 */
const rules = (text: string): readonly string[] => text.replaceAll(":", ",").split(",");

const STEP2 = rules(
  "ational:ate,tional:tion,enci:ence,anci:ance,izer:ize,bli:ble,alli:al,entli:ent,eli:e,ousli:ous,ization:ize,ation:ate," +
    "ator:ate,alism:al,iveness:ive,fulness:ful,ousness:ous,aliti:al,iviti:ive,biliti:ble,logi:log",
);
const STEP3 = rules("icate:ic,ative:,alize:al,iciti:ic,ical:ic,ful:,ness:");
const STEP4 = "al,ance,ence,er,ic,able,ible,ant,ement,ment,ent,ion,ou,ism,ate,iti,ous,ive,ize".split(",");

const step1ab = (function step1ab(word: string): string {
  let w = word;
  if (w.endsWith("sses") || w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.endsWith("eed")) return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  const suffix = w.endsWith("ed") ? 2 : w.endsWith("ing") ? 3 : 0;
  if (suffix === 0 || !hasVowel(w, w.length - suffix)) return w;
  w = w.slice(0, -suffix);
  if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) return `${w}e`;
  if (endsDoubleConsonant(w, w.length) && !"lsz".includes(w.at(-1)!)) return w.slice(0, -1);
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return `${w}e`;
  return w;
});

const step4 = (function step4(w: string): string {
  for (let k = 0; k < STEP4.length; k++) {
    const suffix = STEP4[k]!;
    if (!w.endsWith(suffix)) continue;
    const stem = w.length - suffix.length;
    if (suffix === "ion" && !(stem > 0 && "st".includes(w[stem - 1]!))) return w;
    return measure(w, stem) > 1 ? w.slice(0, stem) : w;
  }
  return w;
});

const step5 = (function step5(word: string): string {
  let w = word;
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith("ll") && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
});

/** The Porter stem of a normalized word (lowercase); other tokens are returned unchanged. */
export const stem = (function stem(word: string): string {
  if (word.length < 3 || !LOWER_ASCII.test(word)) return word;
  let w = step1ab(word);
  if (w.endsWith("y") && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  return step5(step4(w));
});
