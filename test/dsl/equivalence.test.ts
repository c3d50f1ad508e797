// A DSL rule and the NDF template written for the same sentence lower to the same template paths,
// groups included (DSL `(a b|c)`, `(a; b)`, `<expansion>` against NDF choice, permutation and
// expansion nodes), so they build the same automaton (and the DSL's synonyms to the same synonym sets as an NDF vocabulary/templates.json), checked
// over generated sentences. Both sides are rendered independently from one abstract sentence.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { lowerEntriesFile } from "../../compiler/sources/ndf/entries.js";
import { parseJson } from "../../compiler/sources/ndf/json-ast.js";
import { NdfExpansions } from "../../compiler/sources/ndf/structure.js";
import { lowerSynonyms } from "../../compiler/sources/ndf/tables.js";
import { wordTag } from "../../compiler/sources/dsl/index.js";
import { lower, withoutLocations } from "./helpers.js";

/** One element of a sentence, as a person would think of it. */
type Element =
  | { kind: "word"; word: string; optional: boolean }
  | { kind: "choice"; words: string[]; optional: boolean }
  | { kind: "slot"; name: string }
  /** A group with a multi-word alternative, `(a b|c)`; optional: with an empty alternative. */
  | { kind: "phrases"; alternatives: string[][]; optional: boolean }
  | { kind: "permutation"; parts: string[][] }
  /** A use of a named expansion whose pattern is the group `(a b|c)`. */
  | { kind: "expansion"; alternatives: string[][] };

const WORDS = ["list", "show", "files", "in", "the", "delete", "copy", "to", "my", "please", "git", "status"];
/** Slots whose name is a declared type get that type; the others are free strings. */
const TYPED_SLOTS = ["path", "number"];
const SLOTS = [...TYPED_SLOTS, "target", "dir", "thing"];

const word = fc.constantFrom(...WORDS);
const phraseAlternatives = fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).filter((alternatives) => alternatives.some((a) => a.length > 1));
const wordElement: fc.Arbitrary<Element> = fc.oneof(
  fc.record({ kind: fc.constant("word" as const), word, optional: fc.boolean() }),
  fc.record({ kind: fc.constant("choice" as const), words: fc.uniqueArray(word, { minLength: 2, maxLength: 3 }), optional: fc.boolean() }),
);
const element: fc.Arbitrary<Element> = fc.oneof(
  wordElement,
  fc.record({ kind: fc.constant("slot" as const), name: fc.constantFrom(...SLOTS) }),
  fc.record({ kind: fc.constant("phrases" as const), alternatives: phraseAlternatives, optional: fc.boolean() }),
  fc.record({ kind: fc.constant("permutation" as const), parts: fc.array(fc.array(word, { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 3 }) }),
  fc.record({ kind: fc.constant("expansion" as const), alternatives: phraseAlternatives }),
);

/** The expansion's name: its words, so equal ones share a definition. */
const expansionName = (alternatives: string[][]) => `e_${alternatives.map((a) => a.join("_")).join("__")}`;
const phrasesPattern = (alternatives: string[][], optional: boolean) => `(${alternatives.map((a) => a.join(" ")).join("|")}${optional ? "|" : ""})`;

/** A sentence with at least one slot (so it is a template) and each slot at most once. */
const sentence = fc
  .tuple(fc.array(element, { minLength: 0, maxLength: 6 }), fc.constantFrom(...SLOTS), fc.nat())
  .map(([elements, slot, at]) => {
    const withSlot = [...elements];
    withSlot.splice(at % (elements.length + 1), 0, { kind: "slot", name: slot });
    const seen = new Set<string>();
    return withSlot.filter((e) => e.kind !== "slot" || (!seen.has(e.name) && seen.add(e.name)));
  });

function dslPattern(elements: Element[]): string {
  return elements
    .map((e) => {
      if (e.kind === "slot") return `:${e.name}`;
      if (e.kind === "phrases") return phrasesPattern(e.alternatives, e.optional);
      if (e.kind === "permutation") return `(${e.parts.map((p) => p.join(" ")).join("; ")})`;
      if (e.kind === "expansion") return `<${expansionName(e.alternatives)}>`;
      const text = e.kind === "word" ? e.word : `(${e.words.join("|")})`;
      return e.optional ? `[${text}]` : text;
    })
    .join(" ");
}

const vocabNode = (w: string) => ({ tag: `<||${wordTag(w)}||>`, type: "vocab", required: true });
const choiceNode = (alternatives: string[][], optional: boolean) => ({ choice: alternatives.map((a) => a.map(vocabNode)), ...(optional ? { required: false } : {}) });

/** The expansions the sentences use, by name, as DSL patterns. */
function expansionsOf(sentences: Element[][]): Map<string, string[][]> {
  return new Map(sentences.flat().flatMap((e) => (e.kind === "expansion" ? [[expansionName(e.alternatives), e.alternatives] as const] : [])));
}

function ndfNode(e: Element): Record<string, unknown> {
  if (e.kind === "phrases") return choiceNode(e.alternatives, e.optional);
  if (e.kind === "permutation") return { permutation: e.parts.map((p) => p.map(vocabNode)) };
  if (e.kind === "expansion") return { expansion: expansionName(e.alternatives) };
  if (e.kind === "slot") return { tag: `<||${e.name}||>`, type: TYPED_SLOTS.includes(e.name) ? e.name : "string", required: true };
  const tags = (e.kind === "word" ? [e.word] : e.words).map((w) => `<||${wordTag(w)}||>`);
  return { tag: tags.length === 1 ? tags[0] : tags, type: "vocab", required: !e.optional };
}

function dslPaths(sentences: Element[][]) {
  const text = [
    `types path: /\\S+/, number: /\\d+/`,
    ...[...expansionsOf(sentences)].map(([name, alternatives]) => `expansion :${name}, ${JSON.stringify(phrasesPattern(alternatives, false))}`),
    `rule ${sentences.map((s) => JSON.stringify(dslPattern(s))).join(", ")} do`,
    `  output "ok"`,
    `end`,
  ].join("\n");
  const { fragment, diagnostics } = lower(text);
  expect(diagnostics).toEqual([]);
  return withoutLocations(fragment.intents[0]!.paths);
}

function ndfPaths(sentences: Element[][]) {
  const json = JSON.stringify([{ type: "template", structure: sentences.map((s) => s.map(ndfNode)), output: "ok" }], null, 2);
  const bag = new DiagnosticBag();
  const root = parseJson("templates_x.json", json, bag);
  const expansions = new NdfExpansions(bag);
  const definitions = Object.fromEntries([...expansionsOf(sentences)].map(([name, alternatives]) => [name, [choiceNode(alternatives, false)]]));
  expansions.declare(parseJson("expansions.json", JSON.stringify(definitions), bag)!);
  const { intents } = lowerEntriesFile("templates_x.json", root!, bag, expansions);
  expect(bag.sorted()).toEqual([]);
  return withoutLocations(intents[0]!.paths);
}

describe("DSL ≡ NDF", () => {
  test("a generated DSL rule and the NDF template of the same sentences have the same paths", () => {
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 2 }), (sentences) => {
        // one rule may not repeat a pattern (that is a duplicate-pattern error)
        fc.pre(new Set(sentences.map(dslPattern)).size === sentences.length);
        expect(dslPaths(sentences)).toEqual(ndfPaths(sentences));
      }),
      { numRuns: 200 },
    );
  });

  test("DSL synonyms equal the NDF vocabulary/templates.json sets written for them", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.constantFrom("wipe", "erase", "remove", "kill", "nuke"), fc.constantFrom("delete", "terminate")), { selector: ([s]) => s, maxLength: 5 }), (pairs) => {
        const text = [...pairs.map(([synonym, meaning]) => `synonym ${JSON.stringify(synonym)}, means: ${JSON.stringify(meaning)}`), `rule "delete :x"`, `rule "terminate :y"`].join("\n");
        const { fragment } = lower(text);
        const vocabulary: Record<string, string[]> = {};
        for (const meaning of ["delete", "terminate"]) {
          vocabulary[`<||${wordTag(meaning)}||>`] = [meaning, ...pairs.filter(([, m]) => m === meaning).map(([s]) => s)];
        }
        const root = parseJson("templates.json", JSON.stringify(vocabulary), new DiagnosticBag());
        expect(withoutLocations(fragment.synonyms)).toEqual(withoutLocations(lowerSynonyms(root!)));
      }),
      { numRuns: 100 },
    );
  });

  test("a slot-free DSL rule and the NDF entry listing every phrasing have the same inputs", () => {
    const wordsOnly = fc.array(wordElement, { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(wordsOnly, (sentence) => {
        // every phrasing, enumerated here independently of the DSL's expansion
        let phrasings: string[][] = [[]];
        for (const e of sentence) {
          if (e.kind !== "word" && e.kind !== "choice") throw new Error("words only");
          const options = (e.kind === "word" ? [e.word] : e.words).map((w) => [w]);
          if (e.optional) options.push([]);
          phrasings = phrasings.flatMap((prefix) => options.map((option) => [...prefix, ...option]));
        }
        const inputs = [...new Set(phrasings.map((words) => words.join(" ")))].filter((p) => p.length > 0);
        fc.pre(inputs.length < 64);
        const { fragment, diagnostics } = lower(`rule ${JSON.stringify(dslPattern(sentence))}`);
        expect(diagnostics).toEqual([]);
        const bag = new DiagnosticBag();
        const root = parseJson("dataset_x.json", JSON.stringify([{ input: inputs }]), bag);
        const [entry] = lowerEntriesFile("dataset_x.json", root!, bag, new NdfExpansions(bag)).intents;
        expect(fragment.intents[0]!.kind).toBe(entry!.kind);
        expect(fragment.intents[0]!.inputs.map((i) => i.value).sort()).toEqual(entry!.inputs.map((i) => i.value).sort());
      }),
      { numRuns: 150 },
    );
  });

  test("a hand-written example: the design's delete rule", () => {
    const sentences: Element[][] = [
      [
        { kind: "word", word: "please", optional: true },
        { kind: "choice", words: ["delete", "show"], optional: false },
        { kind: "slot", name: "target" },
      ],
    ];
    expect(dslPattern(sentences[0]!)).toBe("[please] (delete|show) :target");
    expect(dslPaths(sentences)).toEqual(ndfPaths(sentences));
  });

  test("a hand-written example with a group, a permutation and an expansion", () => {
    const sentences: Element[][] = [
      [
        { kind: "expansion", alternatives: [["turn", "on"], ["switch"]] },
        { kind: "permutation", parts: [["the", "files"], ["now"]] },
        { kind: "phrases", alternatives: [["in", "my"], ["to"]], optional: true },
        { kind: "slot", name: "dir" },
      ],
    ];
    expect(dslPattern(sentences[0]!)).toBe("<e_turn_on__switch> (the files; now) (in my|to|) :dir");
    const paths = dslPaths(sentences);
    // the group, the permutation, the optional phrases, and the expansion's use around its group
    expect(JSON.stringify(paths).match(/"alternatives"/g)).toHaveLength(4);
    expect(JSON.stringify(paths).match(/"rule":"e_turn_on__switch"/g)).toHaveLength(1);
    expect(paths).toEqual(ndfPaths(sentences));
  });
});
