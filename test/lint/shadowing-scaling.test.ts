// CON004 at scale (issue 13, item 8): the shadowing check compares only paths that can cover each
// other, so its work grows with the rules, not with their pairs, and it still finds exactly the
// paths an all-pairs search finds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import type { NpcIR, TemplatePath } from "../../compiler/ir/types.js";
import { checkShadowing, findShadowedPaths } from "../../compiler/passes/check-shadowing.js";
import { impliedWords } from "../../compiler/passes/compute-vocab.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { npcIr, type IntentSpec } from "../runtime/ir-fixture.js";
import { templateNodes } from "../../compiler/ir/template-parts.js";

const templates = (paths: string[]): IntentSpec[] => paths.map((path, i) => ({ id: `i${i}`, paths: [path] }));

describe("work of the shadowing check", () => {
  it("compares nothing when rules share a leading verb but differ in a word", () => {
    for (const n of [100, 2000]) {
      const ir = npcIr({ intents: templates(Array.from({ length: n }, (_, i) => `vocab_show vocab_n${i} path:path`)) });
      expect(findShadowedPaths(ir)).toEqual({ shadowed: [], comparisons: 0 });
    }
  });

  it("compares each rule only with the rules that accept its rarest word: linear, not quadratic", () => {
    // Per k: "ak c", "d bk", then "ak bk", whose words are each accepted by one earlier rule that
    // does not cover it. All 3m rules have the same node types; an all-pairs search makes ~(3m)²/2 comparisons.
    const family = (m: number) => Array.from({ length: m }, (_, k) => [`vocab_a${k} vocab_c`, `vocab_d vocab_b${k}`, `vocab_a${k} vocab_b${k}`]).flat();
    for (const m of [100, 1000]) {
      const result = findShadowedPaths(npcIr({ intents: templates(family(m)) }));
      expect(result.shadowed).toEqual([]);
      expect(result.comparisons).toBe(m);
    }
  });

  it("finds each shadowed rule with one comparison", () => {
    const pairs = (m: number) => Array.from({ length: m }, (_, k) => [`vocab_show|vocab_list ?vocab_the vocab_w${k} path:path`, `vocab_show vocab_the vocab_w${k} path:path`]).flat();
    for (const m of [50, 500]) {
      const ir = npcIr({ intents: templates(pairs(m)) });
      const result = findShadowedPaths(ir);
      expect(result.comparisons).toBe(m);
      expect(result.shadowed.map((s) => [s.intent.id, s.winner.intent.id])).toEqual(Array.from({ length: m }, (_, k) => [`i${2 * k + 1}`, `i${2 * k}`]));
    }
  });
});

/** The definition, checked on every earlier path: the first one of another intent that covers the path. */
function allPairsShadowing(ir: NpcIR): string[] {
  const synonyms = new Map(ir.synonyms.map((set) => [set.tag, set.words.map(normalizeKey)]));
  const accepts = (path: TemplatePath) =>
    templateNodes(path.nodes).map((node) => new Set(node.type === "vocab" ? node.tags.flatMap((tag) => synonyms.get(tag) ?? [normalizeKey(impliedWords(tag))]) : [node.type]));
  const ranked = ir.intents.flatMap((intent) => intent.paths.map((path) => ({ intent, path, accepts: accepts(path) })));
  const found: string[] = [];
  ranked.forEach((later, j) => {
    const winner = ranked.slice(0, j).find(
      (earlier) =>
        earlier.intent !== later.intent &&
        earlier.path.nodes.length === later.path.nodes.length &&
        templateNodes(later.path.nodes).every((node, i) => {
          const other = templateNodes(earlier.path.nodes)[i]!;
          return node.type === other.type && (node.required || !other.required) && [...later.accepts[i]!].every((word) => earlier.accepts[i]!.has(word));
        }),
    );
    if (winner) found.push(`${later.path.loc.offset}<${winner.path.loc.offset}`);
  });
  return found.sort();
}

const nodeSpec = fc
  .tuple(fc.constantFrom("vocab_t0", "vocab_t1", "vocab_t2", "vocab_t3", "vocab_t0|vocab_t1", "vocab_u", "p:path", "s:string"), fc.boolean())
  .map(([node, required]) => (required ? node : `?${node}`));
const pathSpec = fc.array(nodeSpec, { minLength: 1, maxLength: 3 }).map((nodes) => nodes.join(" "));
const npcSpec = fc.record({
  words: fc.array(fc.subarray(["a", "b", "c", "D"]), { minLength: 4, maxLength: 4 }),
  intents: fc.array(fc.array(pathSpec, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 10 }),
});

describe("shadowing diagnostics against an all-pairs search", () => {
  it("reports exactly the paths the definition shadows, each with its first winner", () => {
    fc.assert(
      fc.property(npcSpec, ({ words, intents }) => {
        const ir = npcIr({
          synonyms: Object.fromEntries(words.map((list, t) => [`vocab_t${t}`, list])),
          types: { p: "^\\w+$" },
          intents: intents.map((paths, i) => ({ id: `i${i}`, paths })),
        });
        const bag = new DiagnosticBag();
        checkShadowing(ir, bag);
        const reported = bag
          .sorted()
          .filter((d) => d.code === "CON004")
          .map((d) => `${d.loc.offset}<${d.related![0]!.loc.offset}`)
          .sort();
        expect(reported).toEqual(allPairsShadowing(ir));
      }),
      { seed: 20261301, numRuns: 600 },
    );
  });
});
