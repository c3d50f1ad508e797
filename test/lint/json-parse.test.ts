// The fast JSON parser (compiler/sources/ndf/json-parse.ts) against momoa, which it replaced on
// the common path: for any JSON text, the same values at the same offsets; any text it refuses
// goes to momoa, so what is valid and the syntax error messages stay momoa's.
import { parse } from "@humanwhocodes/momoa";
import type { ValueNode } from "@humanwhocodes/momoa";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { parseJson, toValue } from "../../compiler/sources/ndf/json-ast.js";
import { parseJsonFast, type JsonNode } from "../../compiler/sources/ndf/json-parse.js";
import { LineMap } from "../../compiler/sources/location.js";

/** Every node as "type start-end", depth first (keys included), from either tree. */
function spans(node: JsonNode): string[] {
  const own = `${node.type} ${node.start}-${node.end}`;
  if (node.type === "Object") return [own, ...node.members.flatMap((m) => [...spans(m.name), ...spans(m.value)])];
  if (node.type === "Array") return [own, ...node.elements.flatMap(spans)];
  return [own];
}

function momoaSpans(node: ValueNode): string[] {
  const own = `${node.type} ${node.loc.start.offset}-${node.loc.end.offset}`;
  if (node.type === "Object") return [own, ...node.members.flatMap((m) => [...momoaSpans(m.name as ValueNode), ...momoaSpans(m.value)])];
  if (node.type === "Array") return [own, ...node.elements.flatMap((e) => momoaSpans(e.value))];
  return [own];
}

const momoaAccepts = (text: string) => {
  try {
    parse(text, { mode: "json", ranges: false, tokens: false });
    return true;
  } catch {
    return false;
  }
};

describe("the fast JSON parser", () => {
  test("gives momoa's values and offsets for any JSON text, compact or indented (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, "\t"), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const fast = parseJsonFast(text, new LineMap("t.json", text));
        expect(fast).toBeDefined();
        expect(toValue(fast!)).toEqual(JSON.parse(text));
        expect(spans(fast!)).toEqual(momoaSpans(parse(text, { mode: "json", ranges: false, tokens: false }).body));
      }),
      { numRuns: 300 },
    );
  });

  test("never accepts what momoa refuses, on near-JSON text (property)", () => {
    const near = fc.stringMatching(/^[\s{}[\]",:0-9a-z.eE+\-\\]{0,24}$/);
    fc.assert(
      fc.property(near, (text) => {
        if (parseJsonFast(text, new LineMap("t.json", text)) !== undefined) expect(momoaAccepts(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test("escapes, numbers and whitespace decode as JSON.parse does; locations are computed on demand", () => {
    const text = '{\r\n  "a\\u00e9\\n": [1.5e3, -0, true, null],\n\t"b": "\\"q\\""\n}';
    const bag = new DiagnosticBag();
    const root = parseJson("/x/t.json", text, bag)!;
    expect(toValue(root)).toEqual(JSON.parse(text));
    expect(root.type === "Object" && root.members[1]!.name.lines.at(root.members[1]!.name.start)).toMatchObject({ file: "/x/t.json", line: 3, column: 2 });
  });

  test("text it refuses is momoa's: a syntax error keeps momoa's message and position", () => {
    const bag = new DiagnosticBag();
    expect(parseJson("/x/t.json", '{"a": [1, 2,]}', bag)).toBeUndefined();
    expect(bag.sorted().map((d) => `${d.code} ${d.loc.line}:${d.loc.column}`)).toEqual(["NDF002 1:13"]);
  });
});

describe("plain values of parsed JSON", () => {
  test('a "__proto__" key is an own property, as JSON.parse makes it, not the prototype', () => {
    const text = '{"__proto__": {"polluted": true}, "a": 1}';
    const value = toValue(parseJsonFast(text, new LineMap("t.json", text))!) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(value).toEqual(JSON.parse(text));
  });
});
