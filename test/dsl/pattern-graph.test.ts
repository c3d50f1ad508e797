// Issue 18: a pattern's groups are lowered as branches of the automaton that join again, not
// multiplied into paths, so a pattern of many phrasings loses none of them (there is no cap), its
// states grow with its size, and every phrasing still answers with its slots.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

/** A generated pattern: words, groups of alternatives, optional groups (no slot inside). */
type Tree = { kind: "word"; word: string } | { kind: "group"; alternatives: Tree[][] } | { kind: "optional"; items: Tree[] };

/** Words far apart in spelling, so typo tolerance never reads one as another. */
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
const WHO = `list :who, "tango" => "T", "uniform" => "U"`;

function patternText(items: readonly Tree[]): string {
  return items
    .map((item) =>
      item.kind === "word" ? item.word : item.kind === "optional" ? `[${patternText(item.items)}]` : `(${item.alternatives.map(patternText).join("|")})`,
    )
    .join(" ");
}

/**
 * Phrasings by the pattern language's definition (an optional group: all of it or none), at most
 * `limit` of them: each level keeps its first ones, which are still phrasings of the whole. A
 * random tree can stand for 10^11 phrasings; listing them all once ran a test worker out of memory.
 */
function phrasingsOf(items: readonly Tree[], limit = Infinity): string[][] {
  let out: string[][] = [[]];
  for (const item of items) {
    const options =
      item.kind === "word" ? [[item.word]] : item.kind === "optional" ? [[], ...phrasingsOf(item.items, limit)] : item.alternatives.flatMap((a) => phrasingsOf(a, limit));
    out = out.flatMap((prefix) => options.slice(0, limit).map((option) => [...prefix, ...option])).slice(0, limit);
  }
  return out;
}

function buildNpc(rules: string): { npc: Promise<Npc>; diagnostics: string[]; errors: string[]; paths: number; states: number } {
  const dir = writeTree(tempDir("graph"), { "g.rules": rules });
  const lint = lintSources([dir]);
  const { bytes, payload } = compileNpc(lint.ir);
  const text = (d: { code: string; message: string }) => `${d.code} ${d.message}`;
  return {
    npc: loadNpc(bytes),
    diagnostics: lint.diagnostics.map(text),
    errors: lint.diagnostics.filter((d) => d.severity === "error").map(text),
    paths: payload.counts.templatePaths,
    states: payload.counts.automatonStates,
  };
}

/** Random patterns over `words`: nested groups and optionals, 1–3 items a level. */
function treeOf(words: readonly string[]): fc.Arbitrary<Tree[]> {
  return fc.letrec<{ items: Tree[]; item: Tree }>((tie) => ({
    items: fc.array(tie("item"), { minLength: 1, maxLength: 3 }),
    item: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(...words).map((word): Tree => ({ kind: "word", word })),
      fc.array(tie("items"), { minLength: 2, maxLength: 3 }).map((alternatives): Tree => ({ kind: "group", alternatives })),
      tie("items").map((items): Tree => ({ kind: "optional", items })),
    ),
  })).items;
}

const tree = treeOf(WORDS);

describe("patterns lowered as graphs", () => {
  test("5 groups of 3 multi-word alternatives (243 phrasings) and an expansion used twice: no warning, every phrasing answers with its slot", async () => {
    const groups = [0, 1, 2, 3, 4].map((g) => `(${[0, 1, 2].map((a) => `${WORDS[(g * 3 + a) % WORDS.length]} ${WORDS[(g + a + 5) % WORDS.length]}`).join("|")})`);
    const rules = `${WHO}\nexpansion :tail, "(golf hotel|india)"\nrule("${groups.join(" ")} <tail> :who <tail>") { intent :many }\n`;
    const built = buildNpc(rules);
    expect(built.diagnostics).toEqual([]);
    expect(built.paths).toBe(1);
    const npc = await built.npc;
    const heads = phrasingsOf(groups.map((group) => ({ kind: "group", alternatives: group.slice(1, -1).split("|").map((phrase) => phrase.split(" ").map((word): Tree => ({ kind: "word", word }))) })));
    expect(heads).toHaveLength(243);
    const tails = ["golf hotel", "india"];
    heads.forEach((head, i) => {
      const who = i % 2 === 0 ? ["tango", "T"] : ["uniform", "U"];
      const text = `${head.join(" ")} ${tails[i % 2]} ${who[0]} ${tails[Math.floor(i / 2) % 2]}`;
      const answer = npc.session().process(text);
      expect([text, answer.status, answer.intent, answer.slots]).toEqual([text, "template match", "many", { who: who[1] }]);
    });
    expect(npc.session().process(`${heads[0]!.join(" ")} india tango`).status).not.toBe("template match");
  });

  test("a choice branches and joins at one later state; an accept names its pattern's index", () => {
    const dir = writeTree(tempDir("graph"), { "g.rules": `${WHO}\nrule("golf :who", "(alpha bravo|charlie) delta :who") { intent :two }\n` });
    const { payload } = compileNpc(lintSources([dir]).ir);
    const states = payload.automaton;
    const forward = states.every((state, i) => [...state.skip, ...state.vocab.map(([, child]) => child), ...state.lists.map(([, , child]) => child)].every((child) => child > i));
    expect(forward).toBe(true);
    const joins = states.map((_, i) => states.filter((state) => state.skip.includes(i)).length).filter((ways) => ways === 2);
    expect(joins).toHaveLength(1);
    expect(states.flatMap((state) => state.accept).map(([, path]) => path).sort()).toEqual([0, 1]);
  });

  test("states grow linearly with the number of groups, not with their product", () => {
    const statesWith = (groups: number) => {
      const pattern = Array.from({ length: groups }, (_, g) => `(${WORDS[g % 12]} ${WORDS[(g + 1) % 12]}|${WORDS[(g + 2) % 12]} ${WORDS[(g + 3) % 12]}|${WORDS[(g + 4) % 12]})`).join(" ");
      const built = buildNpc(`${WHO}\nrule("${pattern} :who") { intent :g }\n`);
      expect(built.diagnostics).toEqual([]);
      return built.states;
    };
    const [four, eight, sixteen] = [statesWith(4), statesWith(8), statesWith(16)];
    // each group adds the same few states (two two-word alternatives, one word, one join): 3^16 phrasings, ~100 states
    expect(eight - four).toBe((sixteen - eight) / 2);
    expect(sixteen).toBeLessThan(16 * 8);
  });

  test("random nested patterns: every phrasing matches with its slot, and a phrasing with a word too many does not (property)", async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (items) => {
        const built = buildNpc(`${WHO}\nrule("${patternText(items)} :who") { intent :p }\n`);
        expect(built.diagnostics).toEqual([]);
        const npc = await built.npc;
        const phrasings = phrasingsOf(items, 60);
        for (const words of phrasings) {
          const answer = npc.session().process([...words, "uniform"].join(" "));
          expect([words.join(" "), answer.status, answer.slots]).toEqual([words.join(" "), "template match", { who: "U" }]);
        }
        const first = phrasings[0]!;
        expect(npc.session().process([...first, "tango", "mike"].join(" ")).status).not.toBe("template match");
        expect(npc.session().process(["mike", ...first, "tango"].join(" ")).status).not.toBe("template match");
      }),
      { numRuns: 40 },
    );
  });

  test("random nested patterns over two words, so phrasings repeat words and alternatives overlap: every phrasing still matches (property)", async () => {
    await fc.assert(
      fc.asyncProperty(treeOf(["alpha", "bravo"]), async (items) => {
        // overlapping alternatives may draw lint warnings (duplicates, shadowing); never an error
        const built = buildNpc(`${WHO}\nrule("${patternText(items)} :who") { intent :p }\n`);
        expect(built.errors).toEqual([]);
        const npc = await built.npc;
        for (const words of phrasingsOf(items, 60)) {
          const answer = npc.session().process([...words, "uniform"].join(" "));
          expect([words.join(" "), answer.status, answer.slots]).toEqual([words.join(" "), "template match", { who: "U" }]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
