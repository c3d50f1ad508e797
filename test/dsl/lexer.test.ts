// The DSL lexer: literal tokens, keywords versus identifiers, and the regex-versus-division rule.
import { describe, expect, test } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { lexDsl } from "../../compiler/sources/dsl/lexer.js";
import { decodeRegex, decodeString } from "../../compiler/sources/dsl/literals.js";
import { LineMap } from "../../compiler/sources/location.js";

function lex(text: string): { types: string[]; images: string[]; bag: DiagnosticBag } {
  const bag = new DiagnosticBag();
  const tokens = lexDsl(new LineMap("t.rules", text), bag);
  return { types: tokens.map((t) => t.tokenType.name), images: tokens.map((t) => t.image), bag };
}

describe("regex versus division", () => {
  test.each([
    ["after a comma", `types a: /x/, b: /y/`, ["Identifier", "Label", "RegexLiteral", "Comma", "Label", "RegexLiteral"]],
    ["after an opening parenthesis", `f(/x/)`, ["Identifier", "LParen", "RegexLiteral", "RParen"]],
    ["after an opening bracket", `f [/x/]`, ["Identifier", "LBracket", "RegexLiteral", "RBracket"]],
    ["after a hash rocket", `f "k" => /x/`, ["Identifier", "StringLiteral", "HashRocket", "RegexLiteral"]],
    ["after a method name and a space", `f /x/`, ["Identifier", "RegexLiteral"]],
    ["at the start of a line", `f\n/x/`, ["Identifier", "RegexLiteral"]],
  ])("a / starts a regex %s", (_where, text, expected) => {
    expect(lex(text).types).toEqual(expected);
  });

  test.each([
    ["after a number", `f 1 / 2`, ["Identifier", "NumberLiteral", "Slash", "NumberLiteral"]],
    ["after a method name when spaced on both sides", `a / b`, ["Identifier", "Slash", "Identifier"]],
    ["after a closing parenthesis", `f(1)/2`, ["Identifier", "LParen", "NumberLiteral", "RParen", "Slash", "NumberLiteral"]],
    ["after a string", `f "a" /x`, ["Identifier", "StringLiteral", "Slash", "Identifier"]],
  ])("a / is division %s", (_where, text, expected) => {
    expect(lex(text).types).toEqual(expected);
  });

  test("a / inside a character class does not end the regex", () => {
    expect(lex(`types p: /[a/b]+/i`).images).toEqual(["types", "p:", "/[a/b]+/i"]);
  });

  test.each([
    ["%r{a{2}/b}i", "a{2}/b", "i"],
    ["%r(a(b)c)", "a(b)c", ""],
    ["%r[x]m", "x", "m"],
    ["%r|a/b|", "a/b", ""],
    ["/a\\/b/", "a\\/b", ""],
  ])("%s decodes to source %s and flags %s", (image, source, flags) => {
    const { images } = lex(`types t: ${image}`);
    expect(images[2]).toBe(image);
    expect(decodeRegex(image, false)).toEqual({ source, flags });
  });
});

describe("tokens", () => {
  test("labels, symbols, keywords and identifiers", () => {
    expect(lex(`rule :a, key: :b, done: true, doit end nil false`).types).toEqual([
      "Identifier",
      "SymbolLiteral",
      "Comma",
      "Label",
      "SymbolLiteral",
      "Comma",
      "Label",
      "True",
      "Comma",
      "Identifier",
      "End",
      "Nil",
      "False",
    ]);
  });

  test("comments and whitespace are skipped; numbers keep their image", () => {
    const { types, images } = lex(`# a comment\nf 12, -3.5, 1_000 # trailing\n`);
    expect(types).toEqual(["Identifier", "NumberLiteral", "Comma", "NumberLiteral", "Comma", "NumberLiteral"]);
    expect(images.slice(1)).toEqual(["12", ",", "-3.5", ",", "1_000"]);
  });

  test("a # inside a string is not a comment", () => {
    expect(lex(`output "a # b"`).images).toEqual(["output", `"a # b"`]);
  });

  test("an unterminated string ends at its line and is reported once", () => {
    const { images, bag } = lex(`output "abc\nnext 1`);
    expect(images).toEqual(["output", `"abc`, "next", "1"]);
    expect(bag.sorted().map((d) => `${d.loc.line}:${d.loc.column} ${d.code}`)).toEqual(["1:8 DSL002"]);
  });
});

describe("string escapes", () => {
  test("double quotes decode Ruby escapes and map each character to its source offset", () => {
    const decoded = decodeString(`"a\\tb\\"c\\u00e9\\u{1F600}\\\\"`, 10);
    expect(decoded.value).toBe('a\tb"cé😀\\');
    expect(decoded.offsets?.slice(0, 4)).toEqual([11, 12, 14, 15]);
    expect(decoded.problems).toEqual([]);
  });

  test("single quotes only unescape \\\\ and \\'", () => {
    expect(decodeString(`'it\\'s \\n \\\\'`, 0).value).toBe("it's \\n \\");
  });

  test("escaped interpolation is literal text", () => {
    expect(decodeString(`"\\#{x}"`, 0)).toMatchObject({ value: "#{x}", problems: [] });
  });
});
