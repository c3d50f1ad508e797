// The ASCII fast paths of the tokenizer, the stemmer and the negation guard (ASCII twins of
// Unicode regexes, which cost up to a millisecond each to compile in a fresh process, and the
// tokenizer's split of lowercase words) answer as the general paths they stand for, on any text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNegated, NEGATION } from "../../runtime/match/guards.js";
import { ASCII, hasLetterOrDigit, keyOf, LITERAL_SHAPES, literalShape, tokenize } from "../../runtime/text/normalize.js";

/** Characters near the patterns' edges: ASCII punctuation they test, letters and digits beyond ASCII, a lone and a paired surrogate, dotted İ and the Kelvin sign (both lowercase to ASCII letters). */
const edgy = fc.constantFrom(..."-._/\\~$*@=:+%' \t\"‘’ʼaZz09éß²٣İK", "\ud835", "𝐀", "\u0301");
const asciiText = fc.string({ unit: fc.oneof(edgy.filter((c) => ASCII.test(c)), fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 })), maxLength: 16 });
const anyText = fc.string({ unit: fc.oneof(edgy, fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 })), maxLength: 16 });
const texts = fc.oneof(asciiText, anyText);
const runs = { numRuns: 3000 };

describe("ASCII fast paths", () => {
  it("hasLetterOrDigit is /[\\p{L}\\p{N}]/u", () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(hasLetterOrDigit(text)).toBe(/[\p{L}\p{N}]/u.test(text));
      }),
      runs,
    );
  });

  it("each ASCII twin of a literal shape matches the ASCII texts its Unicode pattern matches", () => {
    const twins = LITERAL_SHAPES.filter((entry) => entry[2] !== undefined);
    expect(twins.map(([shape]) => shape)).toEqual(["flag", "file"]);
    const shaped = fc.oneof(asciiText, asciiText.map((text) => `-${text}`), asciiText.map((text) => `--${text}`), fc.tuple(asciiText, asciiText).map(([a, b]) => `${a}.${b}`));
    fc.assert(
      fc.property(shaped, (text) => {
        for (const [, unicode, ascii] of twins) expect(ascii!.test(text), `${unicode}`).toBe(unicode.test(text));
      }),
      runs,
    );
  });

  it("literalShape names the shape of the first Unicode pattern that matches", () => {
    const shaped = fc.oneof(texts, fc.tuple(fc.constantFrom("-", "--", "", "x.", "$", "~/", "1"), texts).map(([a, b]) => a + b), fc.tuple(texts, texts).map(([a, b]) => `${a}.${b}`));
    fc.assert(
      fc.property(shaped, (text) => {
        expect(literalShape(text)).toBe(LITERAL_SHAPES.find(([, unicode]) => unicode.test(text))?.[0] ?? null);
      }),
      runs,
    );
  });

  // The negation pattern as it was written before its lookbehind: the reference it must agree with.
  const CONSUMING_NEGATION = /(?:^|[^\p{L}'\u2018\u2019\u02bc])(?:(?:do|does|ca|wo|should|must)n['\u2018\u2019\u02bc]?t|(?:do|does)\s+not|never|not|no|cannot|avoid)(?![\p{L}'\u2018\u2019\u02bc])/u;
  it("isNegated reads the message as the Unicode negation pattern does", () => {
    const word = fc.constantFrom("don't", "dont", "don’t", "DON'T", "doesnt", "do", "does", "not", "never", "no", "cannot", "avoid", "won't", "shouldn’t", "mustnt", "nó", "éno", "no'", "'no", "no’", "İno", "Kno", "delete", "x", "");
    const separator = fc.constantFrom(" ", "  ", "\t", "\n", ",", "'", "’", "é", "-", "");
    const message = fc.oneof(texts, fc.array(fc.tuple(word, separator), { maxLength: 5 }).map((parts) => parts.map(([w, s]) => w + s).join("")));
    fc.assert(
      fc.property(message, (text) => {
        expect(isNegated(text)).toBe(NEGATION.test(text.toLowerCase()));
        // The lookbehind form matches what the pattern with a consumed leading character did.
        expect(NEGATION.test(text.toLowerCase())).toBe(CONSUMING_NEGATION.test(text.toLowerCase()));
      }),
      runs,
    );
  });

  it("tokenize reads printable ASCII (chunks found by indexOf, lowercase words taken whole) as it reads the same text by char", () => {
    const word = fc.constantFrom("list", "files", "e.g.", "i.e", "don't", "it's", "Notes.TXT", "-rf", "'quoted", "text'", '"a', 'b"', "?", "...", "x.", "(a)", "~/x", "10mb", "a=b", ">>");
    const message = fc.array(fc.tuple(word, fc.constantFrom(" ", "  ")), { maxLength: 8 }).map((parts) => parts.map(([w, s]) => w + s).join(""));
    fc.assert(
      fc.property(message, (text) => {
        // A tab is whitespace too, but not printable: the message is then read char by char (a quoted text keeps its tabs).
        const tabbed = tokenize(text.replaceAll(" ", "\t"));
        const plain = tokenize(text);
        expect(tabbed.unbalancedQuote).toBe(plain.unbalancedQuote);
        expect(tabbed.tokens.map((t) => ({ ...t, text: t.text.replaceAll("\t", " ") }))).toEqual(plain.tokens);
        // A "(" before a word is shed as punctuation: the first word is then read by the general path.
        const opened = tokenize(`(${text}`).tokens.map((t) => ({ ...t, start: t.start - 1, end: t.end - 1 }));
        if (/^[a-z]/.test(text)) expect(opened).toEqual(tokenize(text).tokens);
      }),
      runs,
    );
  });

  it("tokenize splits lowercase words one space apart at the spaces, as it reads them char by char, and their key is the message", () => {
    const word = fc.stringMatching(/^[a-z]{1,6}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        const text = words.join(" ");
        const split = tokenize(text);
        // A tab is whitespace but not printable: the general path, char by char.
        const tabbed = tokenize(`${words.join("\t")}\t`);
        expect(split.tokens).toEqual(tabbed.tokens);
        expect(split.tokens.map((t) => t.norm)).toEqual(words);
        expect(split.cleanIsKey).toBe(true);
        expect(tabbed.cleanIsKey).toBe(false);
        expect(keyOf(split.tokens, split.clean)).toBe(text);
      }),
      runs,
    );
    // Anything else is read by the general path.
    for (const text of ["list files ", " list", "list  files", "List files", "list files.", "don't", ""]) expect(tokenize(text).cleanIsKey).toBe(false);
  });
});
