// The DSL parser and AST: calls with and without parentheses, blocks, literals, newline rules.
import { describe, expect, test } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import type { CallNode } from "../../compiler/sources/dsl/ast.js";
import { LineMap } from "../../compiler/sources/location.js";
import { parseDsl } from "../../compiler/sources/dsl/syntax.js";
import { withoutLocations } from "./helpers.js";

function parse(text: string): CallNode[] {
  const bag = new DiagnosticBag();
  const file = parseDsl(new LineMap("t.rules", text), bag);
  expect(bag.sorted()).toEqual([]);
  return withoutLocations(file.statements).map(stripOffsets);
}

/** String nodes carry per-character offsets; the shape tests ignore them. */
function stripOffsets(call: CallNode): CallNode {
  return JSON.parse(JSON.stringify(call, (key, value: unknown) => (key === "offsets" ? undefined : value))) as CallNode;
}

const str = (value: string) => ({ kind: "string", value });
const sym = (name: string) => ({ kind: "symbol", name });

describe("calls", () => {
  test("with and without parentheses give the same call", () => {
    expect(parse(`rule("a", "b")`)).toEqual(parse(`rule "a", "b"`));
    expect(parse(`rule "a", "b"`)).toEqual([{ kind: "call", name: "rule", args: [str("a"), str("b")], pairs: [] }]);
  });

  test("receiver calls: RuleSet.define and Ruleset.create(...)", () => {
    const [define] = parse(`RuleSet.define "x" do\nend`);
    const [create] = parse(`Ruleset.create("x") do\nend`);
    expect(define).toMatchObject({ receiver: "RuleSet", name: "define", args: [str("x")], block: { statements: [] } });
    expect(create).toMatchObject({ receiver: "Ruleset", name: "create", args: [str("x")], block: { statements: [] } });
  });

  test("do … end and { … } blocks hold statements", () => {
    const curly = parse(`rule("a") { action :x; output "y" }`);
    const doEnd = parse(`rule("a") do\n  action :x\n  output "y"\nend`);
    expect(curly).toEqual(doEnd);
    expect(curly[0]!.block!.statements.map((s) => s.name)).toEqual(["action", "output"]);
  });

  test("a newline ends paren-less arguments: `action` then `output` are two statements", () => {
    const [rule] = parse(`rule "a" do\n  action\n  output "x"\nend`);
    expect(rule!.block!.statements).toEqual([
      { kind: "call", name: "action", args: [], pairs: [] },
      { kind: "call", name: "output", args: [str("x")], pairs: [] },
    ]);
  });

  test("arguments continue on the next line after a comma", () => {
    const [output] = parse(`output "a",\n  "b"`);
    expect(output!.args).toEqual([str("a"), str("b")]);
  });

  test("key: value and \"k\" => v pairs, in order, beside positional arguments", () => {
    const [action] = parse(`action :delete, target: :target, "mode" => "sync", :force => true`);
    expect(action).toEqual({
      kind: "call",
      name: "action",
      args: [sym("delete")],
      pairs: [
        { key: sym("target"), value: sym("target") },
        { key: str("mode"), value: str("sync") },
        { key: sym("force"), value: { kind: "boolean", value: true } },
      ],
    });
  });
});

describe("literals", () => {
  test("arrays, hashes, numbers, nil and nested values", () => {
    const [call] = parse(`f [1, 2.5, nil], {a: [true], "b" => {c: :d}}, [], {}`);
    expect(call!.args).toEqual([
      { kind: "array", items: [{ kind: "number", value: 1 }, { kind: "number", value: 2.5 }, { kind: "nil" }] },
      {
        kind: "hash",
        pairs: [
          { key: sym("a"), value: { kind: "array", items: [{ kind: "boolean", value: true }] } },
          { key: str("b"), value: { kind: "hash", pairs: [{ key: sym("c"), value: sym("d") }] } },
        ],
      },
      { kind: "array", items: [] },
      { kind: "hash", pairs: [] },
    ]);
  });

  test("a trailing comma is accepted in arrays and hashes, including across lines", () => {
    const [call] = parse(`f [\n  "a",\n  "b",\n], {x: 1,}`);
    expect(call!.args).toEqual([{ kind: "array", items: [str("a"), str("b")] }, { kind: "hash", pairs: [{ key: sym("x"), value: { kind: "number", value: 1 } }] }]);
  });

  test("regexes, quoted symbols and both string quotes", () => {
    const [call] = parse(`types a: /x\\d/i, b: %r{/y}, c: :"two words", d: 'q'`);
    expect(call!.pairs.map((p) => p.value)).toEqual([
      { kind: "regex", source: "x\\d", flags: "i" },
      { kind: "regex", source: "/y", flags: "" },
      sym("two words"),
      str("q"),
    ]);
  });
});

describe("%w word lists", () => {
  test("%w[…] and %w(…) are arrays of strings", () => {
    const [call] = parse(`connectives %w[after that], %w(and then)`);
    expect(call!.args).toEqual([
      { kind: "array", items: [str("after"), str("that")] },
      { kind: "array", items: [str("and"), str("then")] },
    ]);
  });

  test("each word is located at itself", () => {
    const bag = new DiagnosticBag();
    const text = `f %w[ab  cd]`;
    const [call] = parseDsl(new LineMap("t.rules", text), bag).statements;
    const array = call!.args[0] as { items: { loc: { offset: number; endOffset?: number } }[] };
    expect(array.items.map((item) => text.slice(item.loc.offset, item.loc.endOffset))).toEqual(["ab", "cd"]);
  });

  test("an unterminated word list is reported and parsing goes on", () => {
    const bag = new DiagnosticBag();
    parseDsl(new LineMap("t.rules", `f %w[a b
g 1`), bag);
    expect(bag.sorted().map((d) => `${d.loc.line}:${d.loc.column} ${d.code}`)).toEqual(["1:3 DSL002"]);
  });
});

describe("locations", () => {
  test("calls and literals carry file, line, column and offsets", () => {
    const bag = new DiagnosticBag();
    const text = `RuleSet.define "s" do\n  rule "list :x"\nend`;
    const [ruleSet] = parseDsl(new LineMap("dir/t.rules", text), bag).statements;
    const rule = ruleSet!.block!.statements[0]!;
    expect(rule.loc).toEqual({ file: "dir/t.rules", line: 2, column: 3, offset: 24, endOffset: 28 });
    expect(rule.args[0]!.loc).toEqual({ file: "dir/t.rules", line: 2, column: 8, offset: 29, endOffset: 38 });
  });
});

describe("error recovery", () => {
  /** The statements of a text that does not parse, and where its errors are. */
  function recovered(text: string): { statements: CallNode[]; errors: string[] } {
    const bag = new DiagnosticBag();
    const file = parseDsl(new LineMap("t.rules", text), bag);
    return { statements: withoutLocations(file.statements).map(stripOffsets), errors: bag.sorted().map((d) => `${d.loc.line}:${d.loc.column}`) };
  }

  test("a call cut short by an error keeps the arguments parsed before it, and the statements after it", () => {
    expect(recovered(`rule("a", :x output "b"\noutput "c"`)).toEqual({
      statements: [
        { kind: "call", name: "rule", args: [str("a"), sym("x")], pairs: [] },
        { kind: "call", name: "output", args: [str("b")], pairs: [] },
        { kind: "call", name: "output", args: [str("c")], pairs: [] },
      ],
      errors: ["1:14"],
    });
  });

  test("a block keeps the statement whose argument failed, without the failed argument", () => {
    expect(recovered(`rule "a" do\n  action :x, path: (\n  output "y"\nend\noutput "z"`)).toEqual({
      statements: [
        { kind: "call", name: "rule", args: [str("a")], pairs: [], block: { statements: [{ kind: "call", name: "action", args: [sym("x")], pairs: [] }] } },
        { kind: "call", name: "output", args: [str("y")], pairs: [] },
        { kind: "call", name: "output", args: [str("z")], pairs: [] },
      ],
      errors: ["2:20", "2:20", "4:1"],
    });
  });
});
