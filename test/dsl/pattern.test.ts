// Rule patterns: parsing, template-path expansion and exact-phrasing expansion.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalPattern, expandPaths, expandPhrasings, parsePattern, slotsOf } from "../../compiler/sources/dsl/pattern.js";

function paths(text: string, cap = 32): string[] {
  const parsed = parsePattern(text);
  expect(parsed.problems).toEqual([]);
  return expandPaths(parsed.items, cap).results.map((path) =>
    path.map((node) => `${node.kind === "slot" ? `:${node.slot.name}` : node.words.join("|")}${node.required ? "" : "?"}`).join(" "),
  );
}

function phrasings(text: string, cap = 64): string[] {
  return expandPhrasings(parsePattern(text).items, cap).results;
}

describe("pattern paths", () => {
  test("words and slots are required nodes in order; words are lowercased and lose trailing ?!,", () => {
    expect(paths("Where is :thing?")).toEqual(["where is :thing"]);
  });

  test("[optional] words become non-required nodes", () => {
    expect(paths("[please] list [all the] files")).toEqual(["please? list all? the? files"]);
  });

  test("(a|b) of single words is one node with alternative words", () => {
    expect(paths("(show|display|list) files in :path")).toEqual(["show|display|list files in :path"]);
  });

  test("alternatives with several words multiply the paths", () => {
    expect(paths("(show me|list) :x")).toEqual(["show me :x", "list :x"]);
  });

  test("an empty alternative makes the group optional", () => {
    expect(paths("(the|) :x")).toEqual(["the? :x"]);
    expect(paths("(a b|) :x")).toEqual(["a b :x", ":x"]);
  });

  test("optional alternatives: [(a|b)]", () => {
    expect(paths("[(a|b)] c :x")).toEqual(["a|b? c :x"]);
  });

  test("expansion stops at the cap and says so", () => {
    const items = parsePattern("(a b|c d) (e f|g h) (i j|k l) :x").items;
    const expansion = expandPaths(items, 4);
    expect(expansion.results).toHaveLength(4);
    expect(expansion.capped).toBe(true);
  });
});

describe("pattern phrasings", () => {
  test("every combination of optional words and alternatives", () => {
    expect(phrasings("[please] (show|display) disk space")).toEqual([
      "show disk space",
      "display disk space",
      "please show disk space",
      "please display disk space",
    ]);
  });

  test("duplicates are removed and the cap is honoured", () => {
    expect(phrasings("(a|a) b")).toEqual(["a b"]);
    expect(expandPhrasings(parsePattern("(a|b|c) (d|e|f)").items, 5)).toMatchObject({ capped: true, results: { length: 5 } });
  });
});

describe("slots and canonical form", () => {
  test("slotsOf lists every slot, in optional groups and alternatives too", () => {
    const { items } = parsePattern("copy :src [to :dst] (now|at :time)");
    expect(slotsOf(items)).toEqual(["src", "dst", "time"]);
  });

  test("the canonical form ignores case and spacing", () => {
    expect(canonicalPattern(parsePattern("  List   [ALL]  (a|B) :x ").items)).toBe("list [all] (a|b) :x");
  });

  test.each([
    ["(a|b", "'(' is never closed"],
    ["a ] b", "']' has no matching opening bracket"],
    ["a | b", "'|' outside a group"],
    ["[] a", "empty optional group"],
    ["", "empty pattern"],
    ["copy :x to :x", "slot :x appears twice"],
  ])("problem in %j", (text, message) => {
    expect(parsePattern(text).problems.map((p) => p.message).join("; ")).toContain(message);
  });

  test("the same slot in two alternatives is not a repeat", () => {
    expect(parsePattern("(open :x|show :x)").problems).toEqual([]);
  });

  test("parsing never throws and offsets stay inside the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "[", "]", "(", ")", "|", "?", "x") }), (text) => {
        const parsed = parsePattern(text);
        for (const problem of parsed.problems) expect(problem.offset).toBeLessThanOrEqual(text.length);
        expandPaths(parsed.items, 8);
        expandPhrasings(parsed.items, 8);
      }),
      { numRuns: 300 },
    );
  });
});
