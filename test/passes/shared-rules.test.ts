// Issue 18: expansion rules are shared sub-automata. Each distinct rule is lowered once and its
// uses call it (compute-automaton.ts); the matcher walks (state, return stack) keys
// (runtime/bundle/automaton-frames.ts). A grammar answers the same whether its rules are shared
// or each use is written out by hand.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { MAX_CALL_DEPTH } from "../../runtime/bundle/automaton-frames.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

/** A piece of a random pattern: a word, a group, an optional word, or a use of an earlier rule. */
type Piece = { kind: "word"; word: string } | { kind: "group"; words: string[] } | { kind: "optional"; word: string } | { kind: "use"; rule: number; optional: boolean };

const WORDS = ["go", "stop", "red", "blue", "lamp", "now"];
const word = fc.constantFrom(...WORDS);
const piece = (rules: number): fc.Arbitrary<Piece> =>
  fc.oneof(
    fc.record({ kind: fc.constant("word" as const), word }),
    fc.record({ kind: fc.constant("group" as const), words: fc.uniqueArray(word, { minLength: 2, maxLength: 3 }) }),
    fc.record({ kind: fc.constant("optional" as const), word }),
    ...(rules > 0 ? [fc.record({ kind: fc.constant("use" as const), rule: fc.nat(rules - 1), optional: fc.boolean() })] : []),
  );
const sequence = (rules: number) => fc.array(piece(rules), { minLength: 1, maxLength: 3 });

/** Rules (each may use earlier ones, so none recurses), and templates over them, most ending with a slot (a pattern without one is a set of exact inputs, not a template). */
const grammar = fc
  .integer({ min: 1, max: 4 })
  .chain((count) =>
    fc.record({
      rules: fc.tuple(...Array.from({ length: count }, (_, i) => sequence(i))),
      templates: fc.array(fc.record({ pieces: sequence(count), slot: fc.constantFrom(true, true, true, false) }), { minLength: 1, maxLength: 4 }),
    }),
  );
type Grammar = { rules: Piece[][]; templates: { pieces: Piece[]; slot: boolean }[] };

/** The pattern text of `pieces`; `inline` writes each rule use out as a group of the rule's pattern. */
function patternOf(pieces: readonly Piece[], g: Grammar, inline: boolean): string {
  return pieces
    .map((p) => {
      if (p.kind === "word") return p.word;
      if (p.kind === "group") return `(${p.words.join("|")})`;
      if (p.kind === "optional") return `[${p.word}]`;
      const use = inline ? `(${patternOf(g.rules[p.rule]!, g, true)})` : `<r${p.rule}>`;
      return p.optional ? `[${use}]` : use;
    })
    .join(" ");
}

function rulesFile(g: Grammar, inline: boolean): string {
  const lines = ['RuleSet.define "t" do', '  list :color, "green", "dark red" => "dark_red"'];
  if (!inline) g.rules.forEach((rule, i) => lines.push(`  expansion :r${i}, "${patternOf(rule, g, false)}"`));
  g.templates.forEach(({ pieces, slot }, i) => lines.push(`  rule("${patternOf(pieces, g, inline)}${slot ? " :color" : ""}") { intent :t${i} }`));
  return [...lines, "end", ""].join("\n");
}

async function built(text: string): Promise<{ npc: Npc; states: number; errors: string[] }> {
  const lint = lintSources([writeTree(tempDir("rules"), { "t.rules": text })]);
  const { bytes, payload } = compileNpc(lint.ir);
  const errors = lint.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
  return { npc: await loadNpc(bytes), states: payload.counts.automatonStates, errors };
}

/** A phrasing of `pieces`, each choice taken by `pick` (optional parts sometimes left out). */
function phrasing(pieces: readonly Piece[], g: Grammar, pick: () => number): string[] {
  return pieces.flatMap((p): string[] => {
    if (p.kind === "word") return [p.word];
    if (p.kind === "group") return [p.words[pick() % p.words.length]!];
    if (p.kind === "optional") return pick() % 2 === 0 ? [] : [p.word];
    return p.optional && pick() % 2 === 0 ? [] : phrasing(g.rules[p.rule]!, g, pick);
  });
}

const answerOf = (npc: Npc, message: string) => {
  const { status, intent, slots, witness } = npc.session({ seed: 1 }).process(message);
  return { status, intent, slots, witness };
};

describe("shared expansion rules", () => {
  test("a random rule set answers the same shared as with every use written out (property)", async () => {
    let templateAnswers = 0;
    await fc.assert(
      fc.asyncProperty(grammar, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), fc.array(fc.array(word, { maxLength: 4 }), { maxLength: 4 }), async (g, choices, noise) => {
        const shared = await built(rulesFile(g, false));
        const inlined = await built(rulesFile(g, true));
        expect(shared.errors).toEqual(inlined.errors);
        let k = 0;
        const pick = () => choices[k++ % choices.length]!;
        const messages = [
          ...g.templates.map(({ pieces, slot }) => [...phrasing(pieces, g, pick), ...(slot ? ["dark", "red"] : [])].join(" ")),
          ...noise.map((words) => words.join(" ")),
        ].filter((m) => m.length > 0);
        for (const message of messages) {
          const answer = answerOf(shared.npc, message);
          expect(answer, message).toEqual(answerOf(inlined.npc, message));
          if (answer.status === "template match") templateAnswers++;
        }
      }),
      { numRuns: 60, seed: 18 },
    );
    // the phrasings reach templates through their rules, not only exact inputs and rejections
    expect(templateAnswers).toBeGreaterThan(60);
  }, 120_000);

  test("each distinct rule is lowered once: its uses are calls, and the automaton is smaller than written out", async () => {
    const g: Grammar = {
      rules: [[{ kind: "group", words: ["go", "stop"] }, { kind: "word", word: "now" }, { kind: "optional", word: "red" }, { kind: "word", word: "lamp" }]],
      templates: [
        { pieces: [{ kind: "use", rule: 0, optional: false }, { kind: "word", word: "red" }], slot: true },
        { pieces: [{ kind: "word", word: "blue" }, { kind: "use", rule: 0, optional: false }], slot: true },
        { pieces: [{ kind: "word", word: "now" }, { kind: "use", rule: 0, optional: false }], slot: true },
        { pieces: [{ kind: "word", word: "lamp" }, { kind: "use", rule: 0, optional: true }], slot: true },
      ],
    };
    const lint = lintSources([writeTree(tempDir("rules"), { "t.rules": rulesFile(g, false) })]);
    const { automaton } = compileNpc(lint.ir).payload;
    // `r0` required and `[r0]` (its nodes optional) are two bodies; each is lowered once
    expect(automaton.flatMap((s) => s.returns)).toHaveLength(2);
    expect(automaton.flatMap((s) => s.calls)).toHaveLength(4);
    const shared = await built(rulesFile(g, false));
    const inlined = await built(rulesFile(g, true));
    expect(shared.states).toBeLessThan(inlined.states);
    expect(answerOf(shared.npc, "blue stop now lamp dark red")).toMatchObject({ intent: "t1", slots: { color: "dark_red" } });
    expect(answerOf(shared.npc, "lamp green")).toMatchObject({ intent: "t3", slots: { color: "green" } });
  });

  test("rules of one name in two DSL files are two rules", async () => {
    const dir = writeTree(tempDir("rules"), {
      "a.rules": 'RuleSet.define "t" do\n  expansion :verb, "switch on"\n  rule("<verb> :thing") { intent :on }\nend\n',
      "b.rules": 'RuleSet.define "t" do\n  expansion :verb, "shut down"\n  rule("please <verb> :thing") { intent :off }\nend\n',
    });
    const npc = await loadNpc(compileNpc(lintSources([dir]).ir).bytes);
    expect(answerOf(npc, "please shut down the pump")).toMatchObject({ intent: "off" });
    expect(answerOf(npc, "please switch on the pump")).not.toMatchObject({ intent: "off" });
    expect(answerOf(npc, "switch on the pump")).toMatchObject({ intent: "on" });
  });

  test(`rules nested more than ${MAX_CALL_DEPTH} deep are a lint error, and compiled anyway their template is left out, saying why`, () => {
    const depth = MAX_CALL_DEPTH + 1;
    const lines = Array.from({ length: depth }, (_, i) => `  expansion :r${i}, "${i === 0 ? "go now" : `<r${i - 1}> now`}"`);
    const text = ['RuleSet.define "t" do', ...lines, `  rule("<r${depth - 1}> :x") { intent :deep }`, `  rule("<r${depth - 2}> :x") { intent :deep_enough }`, "end", ""].join("\n");
    const lint = lintSources([writeTree(tempDir("rules"), { "t.rules": text })]);
    expect(lint.diagnostics.map((d) => `${d.code} ${d.loc.line}`)).toEqual([`REF005 ${depth + 2}`]);
    const { payload, summary } = compileNpc(lint.ir);
    expect(payload.counts.templatePaths).toBe(1);
    expect(summary.unmatchablePaths).toEqual([{ intent: "deep", path: 0, reason: expect.stringMatching(new RegExp(`nest more than ${MAX_CALL_DEPTH} deep`)) }]);
  });
});
