// Malformed DSL: each case asserts the exact line:column and code of the error, and that a later
// error (an unknown method `bogus` on a following line) is still reported — one run reports all.
import { describe, expect, test } from "vitest";
import { lower, positions } from "./helpers.js";

interface ErrorCase {
  name: string;
  text: string;
  /** `line:col CODE` of every expected diagnostic, in source order. */
  expected: string[];
  /** A fragment of the first diagnostic's message. */
  message: string;
  /** A fragment of the second diagnostic's message, when it matters too. */
  also?: string;
}

const CASES: ErrorCase[] = [
  {
    name: "unclosed do block (reported at its 'do')",
    text: `RuleSet.define "s" do\n  rule "a" do\n    output "x"\n    bogus 1\n`,
    expected: ["2:12 DSL005", "4:5 DSL101"],
    message: "'do' is never closed: expected 'end'",
  },
  {
    name: "unterminated string",
    text: `rule "a" do\n  output "x\n  bogus 1\nend\n`,
    expected: ["2:10 DSL002", "3:3 DSL101"],
    message: 'expected a closing "',
  },
  {
    name: "unterminated single-quoted string",
    text: `rule "a" do\n  command 'ls\n  bogus 1\nend\n`,
    expected: ["2:11 DSL002", "3:3 DSL101"],
    message: "expected a closing '",
  },
  {
    name: "unterminated regex",
    text: `types path: /abc\nbogus 1\n`,
    expected: ["1:13 DSL003", "2:1 DSL101"],
    message: "unterminated regex",
  },
  {
    name: "unterminated %r regex",
    text: `types path: %r{a(b\nbogus 1\n`,
    expected: ["1:13 DSL003", "2:1 DSL101"],
    message: "unterminated regex",
  },
  {
    name: "stray end at the top level",
    text: `rule("a") { output "x" }\nend\nbogus 1\n`,
    expected: ["2:1 DSL006", "3:1 DSL101"],
    message: "there is no open block to close",
  },
  {
    name: "stray } inside a do block",
    text: `rule "a" do\n  output "x" }\n  bogus 1\nend\n`,
    expected: ["2:14 DSL006", "3:3 DSL101"],
    message: "so it closes with 'end'",
  },
  {
    name: "missing comma in a hash",
    text: `rule "a" do\n  action :x, opts: {a: 1 b: 2}\n  bogus 1\nend\n`,
    expected: ["2:26 DSL004", "3:3 DSL101"],
    message: "expected ',' between hash entries but found 'b:'",
  },
  {
    name: "missing comma in an array",
    text: `connectives ["a" "b"]\nbogus 1\n`,
    expected: ["1:18 DSL004", "2:1 DSL101"],
    message: `expected ',' between array items but found '"b"'`,
  },
  {
    name: "missing comma between arguments",
    text: `rule "a" do\n  output "a" "b"\n  bogus 1\nend\n`,
    expected: ["2:14 DSL006", "3:3 DSL101"],
    message: "expected ',' between arguments",
  },
  {
    name: "missing closing parenthesis",
    text: `rule("a" do\n  output "x"\nend\nbogus 1\n`,
    expected: ["1:10 DSL004", "4:1 DSL101"],
    message: "expected ')' but found 'do'",
  },
  {
    name: "a rule whose 'do' is missing",
    text: `rule "a"\n  output "x"\nend\nrule "b" do\n  bogus 1\nend\n`,
    expected: ["2:3 DSL101", "3:1 DSL006", "5:3 DSL101"],
    message: "(the rule at 1:1 has no block: a missing 'do'?)",
  },
  {
    name: "a parenthesis left open on a previous line",
    text: `rule "a" do\n  output("x"\n  bogus 1\nend\n`,
    expected: ["3:3 DSL004", "3:3 DSL101"],
    message: "expected ')' but found 'bogus' ('(' opened at 2:9 is still open)",
  },
  {
    name: "= instead of => in a hash",
    text: `rule "a" do\n  action :x, opts: {"k" = 1}\n  bogus 1\nend\n`,
    expected: ["2:25 DSL004", "3:3 DSL101"],
    message: "expected '=>' but found '='",
  },
  {
    name: "an assignment",
    text: `x = 1\nbogus 1\n`,
    expected: ["1:1 DSL101", "1:3 DSL006", "2:1 DSL101"],
    message: "unknown method x",
    also: "unexpected '=': the rule DSL has no assignment",
  },
  {
    name: "unexpected character",
    text: `rule "a" do\n  output "x" @\n  bogus 1\nend\n`,
    expected: ["2:14 DSL001", "3:3 DSL101"],
    message: 'unexpected character "@"',
  },
  {
    name: "division where a value is expected",
    text: `rule "a" do\n  output "a" / 2\n  bogus 1\nend\n`,
    expected: ["2:14 DSL006", "3:3 DSL101"],
    message: "the rule DSL has no division",
  },
  {
    name: "unknown method, with a did-you-mean",
    text: `rule "a" do\n  outptu "x"\n  bogus 1\nend\n`,
    expected: ["2:3 DSL101", "3:3 DSL101"],
    message: "did you mean output?",
  },
  {
    name: "unbound slot in an action",
    text: `rule "delete :target" do\n  action :delete, target: :tagret\n  bogus 1\nend\n`,
    expected: ["2:27 DSL102", "3:3 DSL101"],
    message: ':tagret is not captured by the pattern "delete :target" (captured: :target); did you mean :target?',
  },
  {
    name: "unbound placeholder in a command",
    text: `rule "delete :target" do\n  command "rm -- '<||file||>'"\n  bogus 1\nend\n`,
    expected: ["2:19 DSL102", "3:3 DSL101"],
    message: "<||file||> is not captured",
  },
  {
    name: "misspelt slot placeholder in an output",
    text: `rule "delete :target" do\n  output "Deleting <||tagret||>."\n  bogus 1\nend\n`,
    expected: ["2:20 DSL102", "3:3 DSL101"],
    message: "did you mean <||target||>?",
  },
  {
    name: "step outside a chain",
    text: `rule "a" do\n  step :x\n  bogus 1\nend\n`,
    expected: ["2:3 DSL103", "3:3 DSL101"],
    message: "step belongs inside a chain",
  },
  {
    name: "step at the top level",
    text: `step :x\nbogus 1\n`,
    expected: ["1:1 DSL103", "2:1 DSL101"],
    message: "step belongs inside a chain",
  },
  {
    name: "resolve outside a query",
    text: `chain "a" do\n  resolve :x\n  bogus 1\nend\n`,
    expected: ["2:3 DSL104", "3:3 DSL101"],
    message: "resolve belongs inside a query",
  },
  {
    name: "bad permission",
    text: `rule "a" do\n  permission :aks\n  bogus 1\nend\n`,
    expected: ["2:14 DSL106", "3:3 DSL101"],
    message: "unknown permission :aks (did you mean :ask?)",
  },
  {
    name: "duplicate rule pattern (after normalization)",
    text: `rule "list files"\nrule "List  files"\nbogus 1\n`,
    expected: ["2:6 DSL105", "3:1 DSL101"],
    message: 'the pattern "list files" is already used',
  },
  {
    name: "unclosed optional group in a pattern",
    text: `rule "[please list files" do\nend\nbogus 1\n`,
    expected: ["1:7 DSL108", "3:1 DSL101"],
    message: "'[' is never closed",
  },
  {
    name: "unsupported regex flag",
    text: `types n: /\\d+/x\nbogus 1\n`,
    expected: ["1:10 DSL109", "2:1 DSL101"],
    message: "regex flag 'x' is not supported",
  },
  {
    name: "string interpolation",
    text: `rule "a" do\n  output "hi #{name}"\n  bogus 1\nend\n`,
    expected: ["2:14 DSL007", "3:3 DSL101"],
    message: "interpolation",
  },
  {
    name: "synonym without means:",
    text: `synonym "wipe"\nbogus 1\n`,
    expected: ["1:1 DSL112", "2:1 DSL101"],
    message: 'means: "delete"',
  },
  {
    name: "rule without a pattern",
    text: `rule do\nend\nbogus 1\n`,
    expected: ["1:1 DSL107", "3:1 DSL101"],
    message: "rule needs a pattern string",
  },
  {
    name: "rule-body method at the rule-set level",
    text: `RuleSet.define "s" do\n  output "x"\n  bogus 1\nend\n`,
    expected: ["2:3 DSL101", "3:3 DSL101"],
    message: "output belongs inside a rule block",
  },
];

describe("malformed DSL input", () => {
  test.each(CASES)("$name", ({ text, expected, message, also }) => {
    const { diagnostics } = lower(text);
    expect(positions(diagnostics)).toEqual(expected);
    expect(diagnostics[0]!.message).toContain(message);
    if (also !== undefined) expect(diagnostics[1]!.message).toContain(also);
    expect(diagnostics.every((d) => d.loc.file === "test.rules" && d.severity === "error")).toBe(true);
  });

  test("there are at least 15 distinct malformed inputs", () => {
    expect(new Set(CASES.map((c) => c.text)).size).toBeGreaterThanOrEqual(15);
  });

  test("one run reports every error of a file with many", () => {
    const text = [
      `RuleSet.define "many" do`,
      `  rule "a" do`,
      `    output "x`,
      `    permission :never`,
      `  end`,
      `  rule "b :x" { action :y, v: :z }`,
      `  stepp :q`,
      `  types t: /a/q`,
      `end`,
      `end`,
    ].join("\n");
    expect(positions(lower(text).diagnostics)).toEqual(["3:12 DSL002", "4:16 DSL106", "6:31 DSL102", "7:3 DSL101", "8:12 DSL109", "10:1 DSL006"]);
  });

  test("an unbound slot offers a mechanical fix that turns the symbol into a string", () => {
    const text = `chain "clean :dir" do\n  step :filter, criterion: :empty\nend\n`;
    const [diagnostic] = lower(text).diagnostics;
    expect(diagnostic?.fix).toEqual([{ file: "test.rules", offset: 49, endOffset: 55, text: '"empty"' }]);
    const fixed = text.slice(0, 49) + '"empty"' + text.slice(55);
    expect(lower(fixed).diagnostics).toEqual([]);
  });

  test("an unbound symbol is lowered as its fix would make it, so no later pass repeats the error", () => {
    const { fragment } = lower(`chain "clean :dir" do\n  step :filter, criterion: :empty, path: :dri\nend\n`);
    expect(fragment.intents[0]!.tools[0]!.arguments).toEqual({ criterion: "empty", path: "<||dir||>" });
  });

  test("an unbound slot close to a captured one is fixed to that slot", () => {
    const text = `rule "delete :target" do\n  action :delete, target: :tagret\nend\n`;
    const [diagnostic] = lower(text).diagnostics;
    expect(diagnostic?.message).toContain("did you mean :target?");
    const at = text.indexOf(":tagret");
    expect(diagnostic?.fix).toEqual([{ file: "test.rules", offset: at, endOffset: at + ":tagret".length, text: ":target" }]);
  });

  test("the duplicate-pattern diagnostic points at the first use", () => {
    const [diagnostic] = lower(`rule "list files"\nrule "list files"\n`).diagnostics;
    expect(diagnostic?.related?.[0]?.loc).toMatchObject({ line: 1, column: 6 });
  });
});
