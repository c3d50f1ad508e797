import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileTypeRegex } from "../../compiler/passes/compute-type-programs.js";
import { TypeMatcher } from "../../runtime/text/regex-vm.js";

function matcher(pattern: string, flags = ""): TypeMatcher {
  return new TypeMatcher(compileTypeRegex("t", pattern, flags));
}

describe("type regexes as Pike VM programs", () => {
  it("searches like RegExp (case-insensitively) on common type shapes", () => {
    const cases: [string, string, boolean][] = [
      ["^\\d+(?:\\.\\d+)?$", "3.25", true],
      ["^\\d+(?:\\.\\d+)?$", "3.", false],
      ["[\\w\\-]+\\.[a-z0-9]{2,4}", "see notes.TXT", true],
      ["[\\w\\-]+\\.[a-z0-9]{2,4}", "notes", false],
      ["^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$", "10.0.0.254", true],
      ["^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$", "10.0.0", false],
      ["^[a-z]$", "Q", true],
      ["^https?://[^\\s/]+", "HTTP://x.org/a", true],
      ["^(?:a|bc)*d$", "abcbcad", true],
      ["^(?:a|bc)*d$", "abcbd", false],
      ["^x.y$", "x\ny", false],
      ["^\\S+@\\S+$", "me@host", true],
    ];
    for (const [pattern, text, expected] of cases) {
      expect(matcher(pattern).test(text), `${pattern} on ${JSON.stringify(text)}`).toBe(expected);
    }
  });

  it("reads \\w as a word character of any script (letters, digits, marks, _), not only ASCII", () => {
    expect(matcher("^\\w+$").test("héllo_日本٣")).toBe(true);
    expect(matcher("^\\w+$").test("e\u0301")).toBe(true);
    expect(matcher("^\\w+$").test("a€")).toBe(false);
    expect(matcher("^\\W$").test("é")).toBe(false);
    expect(matcher("^\\W$").test("€")).toBe(true);
  });

  it("translates Python inline flags and named groups", () => {
    expect(matcher("^\\d+\\s*(?i:[kmg]?b)$").test("10 KB")).toBe(true);
    expect(matcher("^(?P<n>\\d+)$").test("42")).toBe(true);
    expect(matcher("\\Aab\\Z").test("AB")).toBe(true);
  });

  it("marks what a linear matcher cannot do as unusable instead of throwing", () => {
    for (const pattern of ["(a)\\1", "(?=a)a", "(?<!a)b", "\\bword\\b", "a{3,1}", "(unclosed", "[z-a]", "*a"]) {
      const program = compileTypeRegex("t", pattern, "");
      expect(program.unusable, pattern).toMatch(/./);
      expect(new TypeMatcher(program).test("a")).toBe(false);
    }
  });

  it("answers patterns that make backtracking engines explode", () => {
    // A backtracking engine needs longer than the age of the universe here: the test's timeout
    // is what fails it, and no wall-clock figure is asserted.
    const nested = matcher("^(?:/?(?:[\\w.-]+)+/?)+$");
    expect(nested.test(`${"a".repeat(250)}#`)).toBe(false);
    expect(nested.test("/usr/local/bin")).toBe(true);
  });

  it("agrees with RegExp (flag i) on generated patterns and inputs", () => {
    const atom = fc.constantFrom("a", "b", "[ab]", "[^a]", "\\d", "\\w", ".", "(?:a|b)", "(?:ab)", "x");
    const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,2}");
    const pattern = fc
      .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([start, parts, end]) => `${start ? "^" : ""}${parts.join("")}${end ? "$" : ""}`);
    fc.assert(
      fc.property(pattern, fc.stringMatching(/^[abxAB1 \n]{0,8}$/), (p, text) => {
        expect(matcher(p).test(text)).toBe(new RegExp(p, "i").test(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("counts characters, not UTF-16 units, as RegExp (flags iu) does, on text beyond ASCII", () => {
    // No \w or \s: RegExp's are ASCII-only, the VM's Unicode (a word is a word in any script).
    const atom = fc.constantFrom("a", "[ab]", "[^a]", "\\d", ".", "é", "😀", "(?:a|😀)", "[^😀]");
    const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,2}");
    const pattern = fc
      .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 5 }), fc.boolean())
      .map(([start, parts, end]) => `${start ? "^" : ""}${parts.join("")}${end ? "$" : ""}`);
    const text = fc.array(fc.constantFrom("a", "b", "é", "😀", "\ud83d", "1", " ", "\n"), { maxLength: 8 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(matcher(p).test(t)).toBe(new RegExp(p, "iu").test(t));
      }),
      { numRuns: 1000 },
    );
  });
});
