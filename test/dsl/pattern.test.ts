// Rule patterns: parsing, template-path expansion and exact-phrasing expansion.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalPattern, expandPhrasings, parsePattern, slotsOf, templateParts } from "../../compiler/sources/dsl/pattern.js";
import { patternShapes as paths } from "../support/pattern-shapes.js";

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

  test("alternatives with several words are a choice: one sequence per alternative", () => {
    expect(paths("(show me|list) :x")).toEqual(["show me :x", "list :x"]);
  });

  test("an empty alternative makes the group optional", () => {
    expect(paths("(the|) :x")).toEqual(["the? :x"]);
    expect(paths("(a b|) :x")).toEqual(["a b :x", ":x"]);
  });

  test("optional alternatives: [(a|b)]", () => {
    expect(paths("[(a|b)] c :x")).toEqual(["a|b? c :x"]);
  });

  test("groups stay choices, never multiplied: 3 groups of 2 are 3 choice parts (8 sequences)", () => {
    const parts = templateParts(parsePattern("(a b|c d) (e f|g h) (i j|k l) :x").items);
    expect(parts.map((part) => part.kind)).toEqual(["choice", "choice", "choice", "slot"]);
    expect(paths("(a b|c d) (e f|g h) (i j|k l) :x")).toHaveLength(8);
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
        templateParts(parsed.items);
        expandPhrasings(parsed.items, 8);
      }),
      { numRuns: 300 },
    );
  });
});
