// compute-concepts.ts on hand-built synonym sets and expansions: the sets of one tag make one
// concept of their one-word stems; fewer than two stems make none; the same stems from several
// sources keep the strongest weight; concepts come sorted by their members, whatever the order
// of the sources.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SynonymSet } from "../../compiler/ir/types.js";
import { computeConcepts, LEXICAL_SCALE, NEIGHBOUR_SCALE, type LexicalExpansion } from "../../compiler/passes/compute-concepts.js";
import { stem } from "../../runtime/text/stem.js";
import { loc } from "../runtime/ir-fixture.js";

const set = (tag: string, words: string[]): SynonymSet => ({ tag, words, loc: loc() });
const stemsOf = (...words: string[]): string[] => words.map(stem).sort();
const expansion = (synonyms: [string, string[]][], neighbours: [string, string[]][]): LexicalExpansion => ({
  synonyms: new Map(synonyms),
  neighbours: new Map(neighbours),
});

describe("computeConcepts", () => {
  it("merges the sets of one tag into one concept of their normalized one-word stems, at the synonym contribution", () => {
    const concepts = computeConcepts([set("vocab_delete", ["Delete", "remove"]), set("vocab_file", ["file", "document"]), set("vocab_delete", ["ERASE", "get rid of"])], null, 0.8);
    expect(concepts).toEqual([
      { stems: stemsOf("delete", "remove", "erase"), weight: 0.8 },
      { stems: stemsOf("document", "file"), weight: 0.8 },
    ]);
  });

  it("makes no concept of a set with fewer than two distinct one-word stems", () => {
    expect(stem("deleting")).toBe(stem("delete"));
    const concepts = computeConcepts([set("vocab_delete", ["delete", "deleting", "get rid of"]), set("vocab_file", ["file"])], null, 0.9);
    expect(concepts).toEqual([]);
  });

  it("keeps the strongest weight when a synonym set, a WordNet synonym and a neighbour name the same stems", () => {
    const related = expansion(
      [
        ["delete", ["remove"]],
        ["folder", ["directory"]],
      ],
      [
        ["delete", ["remove"]],
        ["folder", ["directory", "binder"]],
      ],
    );
    const concepts = computeConcepts([set("vocab_delete", ["delete", "remove"])], related, 0.8);
    const weightOf = (...words: string[]) => concepts.find((c) => c.stems.join(" ") === stemsOf(...words).join(" "))?.weight;
    expect(concepts).toHaveLength(3);
    expect(weightOf("delete", "remove")).toBe(0.8);
    expect(weightOf("folder", "directory")).toBeCloseTo(0.8 * LEXICAL_SCALE, 12);
    expect(weightOf("folder", "binder")).toBeCloseTo(0.8 * NEIGHBOUR_SCALE, 12);
  });

  it("sorts each concept's stems and the concepts by their members, whatever the order of the sets and the expansion (property)", () => {
    const sets = [set("vocab_show", ["show", "display"]), set("vocab_copy", ["copy", "duplicate"]), set("vocab_greek", ["beta", "alpha"]), set("vocab_show", ["present"])];
    const synonyms: [string, string[]][] = [
      ["list", ["enumerate"]],
      ["archive", ["zip", "compress"]],
    ];
    const neighbours: [string, string[]][] = [
      ["list", ["catalogue"]],
      ["zebra", ["horse", "equine"]],
    ];
    const expected = computeConcepts(sets, expansion(synonyms, neighbours), 0.9);
    expect(expected).toHaveLength(8);
    expect(expected[0]!.stems).toEqual(["alpha", "beta"]);
    for (const concept of expected) expect(concept.stems).toEqual([...concept.stems].sort());
    const keys = expected.map((c) => c.stems.join(" "));
    expect(keys).toEqual([...keys].sort());
    const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
    fc.assert(
      fc.property(shuffled(sets), shuffled(synonyms), shuffled(neighbours), (s, syn, near) => {
        expect(computeConcepts(s, expansion(syn, near), 0.9)).toEqual(expected);
      }),
    );
  });
});
