// A newcomer's first mistakes get messages that say what to do (issue 19): a bundle path that is
// missing or a directory, a DSL block whose closer is missing, a JSON syntax error.
import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { lintSources } from "../../compiler/lint.js";
import { parseJson } from "../../compiler/sources/ndf/json-ast.js";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

describe("a bundle path that is not a bundle", () => {
  const cwd = writeTree(tempDir("bundle-paths"), {
    "datasets/mybot/config.json": '{ "npc_name": "MyBot" }',
    "rules/mybot.rules": 'RuleSet.define "mybot" do\n  rule("hi") { output "hello" }\nend\n',
    "empty/.keep": "",
  });

  it.each([
    ["dist-npcs/mybot.npc", /^ndfc: no bundle at dist-npcs\/mybot\.npc: build it first: ndfc build DIR/],
    ["datasets/mybot", /^ndfc: datasets\/mybot is a directory, not a bundle: build it first: ndfc build datasets\/mybot, then give the \.npc it writes/],
    ["rules", /^ndfc: rules is a directory, not a bundle: build it first: ndfc build rules/],
    ["empty", /^ndfc: empty is a directory, not a bundle: give a \.npc file/],
  ])("%s: says what to do, exit 2, no EISDIR/ENOENT", async (path, message) => {
    for (const argv of [["ask", path, "hi"], ["inspect", path], ["chat", path]]) {
      const run = await runCaptured(argv, cwd);
      expect(run.err, argv.join(" ")).toMatch(message);
      expect(run.err).not.toMatch(/EISDIR|ENOENT|at .*\.js:\d+/);
      expect(run.code).toBe(2);
    }
  });
});

describe("a DSL block never closed", () => {
  it("reports the line the '{' or 'do' was opened on", () => {
    const dir = writeTree(tempDir("dsl-unclosed"), {
      "curly.rules": 'RuleSet.define "a" do\n  rule("hello") { output "hi"\n  rule("bye") do\n    output "bye"\n  end\nend\n',
      "do.rules": 'RuleSet.define "b" do\n  rule("hello") do\n    output "hi"\n  rule("bye") { output "bye" }\n',
      "paren.rules": 'RuleSet.define "c" do\n  rule("hello" { output "hi" }\nend\n',
    });
    const unclosed = (file: string) =>
      lintSources([join(dir, file)])
        .diagnostics.filter((d) => d.code === "DSL005" || /opened at/.test(d.message))
        .map((d) => `${d.loc.line}:${d.loc.column} ${d.message}`);
    expect(unclosed("curly.rules")).toEqual(["2:17 '{' is never closed: expected '}' before the end of the file"]);
    expect(unclosed("do.rules")).toEqual(["2:17 'do' is never closed: expected 'end' before the end of the file"]);
    expect(unclosed("paren.rules")[0]).toMatch(/^2:\d+ .*'\(' (opened at 2:7|is never closed)/);
  });
});

describe("JSON syntax errors", () => {
  const messageOf = (text: string) => {
    const bag = new DiagnosticBag();
    parseJson("f.json", text, bag);
    const [diagnostic] = bag.sorted();
    return diagnostic && `${diagnostic.loc.line}:${diagnostic.loc.column} ${diagnostic.message}`;
  };

  it("say what was expected in words", () => {
    expect(messageOf('[ { "input": "a" "output": "b" } ]')).toBe("1:18 invalid JSON: expected ',' between members, or '}' to close the object but found a string");
    expect(messageOf('{ "npc_name": "x", }')).toBe("1:20 invalid JSON: expected a key in double quotes (JSON allows no ',' before '}') but found '}'");
    expect(messageOf('{\n  "npc_name": "x"\n')).toBe("2:18 invalid JSON: expected ',' between members, or '}' to close the object but found the end of the file: the '{' opened at 1:1 is never closed");
    expect(messageOf("{ 'a': 1 }")).toMatch(/found a single quote \(JSON strings use double quotes\)$/);
    expect(messageOf('{"a" 1}')).toBe("1:6 invalid JSON: expected ':' after the key but found a number");
  });

  it("say that a // comment (as pasted from a README) is not JSON", () => {
    expect(messageOf('// datasets/mybot/config.json\n{ "npc_name": "MyBot" }')).toBe(
      "1:1 invalid JSON: JSON has no comments: remove this comment (NDF files are plain JSON, as other NDF tools read them)",
    );
  });

  it("never name a parser token, for any broken text (property)", () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom("", ",", "}", "]", ":", '"', "x", "//"), (json, at, junk) => {
        const cut = at % (json.length + 1);
        const message = messageOf(json.slice(0, cut) + junk + json.slice(cut)) ?? "";
        expect(message).not.toMatch(/Unexpected token|RBrace|LBracket|String found|Unexpected end/);
      }),
      { numRuns: 300 },
    );
  });
});
