// compute-matching.ts on a hand-built IR: inputs numbered in bundle order (a repeated one once,
// context children included, descriptions after all of them); IDF over the intents with inputs,
// a stem counted once per intent; function and stop words at FUNCTION_FACTOR; postings, word
// stems and concept rows pointing at the right ids; the same index whatever the listing order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NpcIR } from "../../compiler/ir/types.js";
import { computeConcepts } from "../../compiler/passes/compute-concepts.js";
import { computeIntentOrder } from "../../compiler/passes/compute-intent-order.js";
import { computeLexicon } from "../../compiler/passes/compute-lexicon.js";
import { computeMatching, FUNCTION_FACTOR, round6, UNKNOWN_FACTOR } from "../../compiler/passes/compute-matching.js";
import { computeVocab } from "../../compiler/passes/compute-vocab.js";
import type { BundleRows } from "../../runtime/bundle/bundle-types.js";
import { stem } from "../../runtime/text/stem.js";
import { npcIr } from "../runtime/ir-fixture.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";

const ir = npcIr({
  synonyms: { vocab_show: ["show", "display"] },
  intents: [
    { id: "list_files", inputs: ["list the files", "List  the FILES!", "show files"] },
    { id: "disk_usage", inputs: ["show disk usage"], outputs: ["Disk usage of <||computer_name||>"] },
    { id: "copy_file", paths: ["vocab_copy src:string"] },
    { id: "ask_coffee", inputs: ["do you like coffee"], context: [{ id: "why_coffee", inputs: ["why"] }] },
  ],
});
const STOP_WORDS = ["please", "kindly"];

function build(source: NpcIR, stopWords: string[] = STOP_WORDS) {
  const ordered = computeIntentOrder(source.intents);
  const lexicon = computeLexicon(ordered, computeVocab(source.synonyms, ordered));
  return { ordered, lexicon, ...computeMatching(ordered, lexicon, computeConcepts(source.synonyms, null, 0.9), stopWords) };
}

const { ordered, lexicon, matching, inputIntent } = build(ir);
const row = ({ starts, items }: BundleRows, i: number): number[] => [...items.subarray(starts[i], starts[i + 1])];
const stemId = (word: string): number => {
  const id = stringsOf(matching.stems).indexOf(stem(word));
  expect(id).toBeGreaterThanOrEqual(0);
  return id;
};
const weightOf = (word: string): number => matching.weight[stemId(word)]!;
const indexOf = (id: string): number => ordered.findIndex((o) => o.intent.id === id);

describe("computeMatching", () => {
  it("numbers the inputs in bundle order, a repeated one once, context children's included, descriptions after all of them", () => {
    // list_files: 2 distinct inputs; disk_usage 1; copy_file none (a template); ask_coffee 1; why_coffee 1; then disk_usage's outputs.
    expect(inputIntent).toEqual(["list_files", "list_files", "disk_usage", "ask_coffee", "why_coffee", "disk_usage"].map(indexOf));
    expect(matching.firstDescription).toBe(5);
    expect(row(matching.inputWords, 5)).toEqual([]);
    expect(row(matching.inputStems, 5)).toEqual(expect.arrayContaining([stemId("disk"), stemId("usage")]));
    // The output's tag reference <||computer_name||> is not read as words.
    expect(matching.stems).not.toContain(stem("computer"));
    expect(row(matching.inputWords, 2)).toEqual(["show", "disk", "usage"].map((w) => lexicon.wordId.get(w)!).sort((a, b) => a - b));
    expect(row(matching.inputStems, 2)).toEqual(["show", "disk", "usage"].map(stemId).sort((a, b) => a - b));
  });

  it("weighs a stem by IDF over the intents with inputs, a stem in both an input and the description counted once", () => {
    // Four intents have inputs (the template does not count): ln(1 + 4/1) for a stem one uses, ln(1 + 4/2) for two.
    expect(weightOf("list")).toBe(round6(Math.log(5)));
    expect(weightOf("coffee")).toBe(round6(Math.log(5)));
    expect(weightOf("show")).toBe(round6(Math.log(3)));
    expect(weightOf("disk")).toBe(round6(Math.log(5)));
    expect(weightOf("show")).toBeLessThan(weightOf("files"));
    // A synonym no input uses is indexed, at no weight.
    expect(weightOf("display")).toBe(0);
  });

  it("gives function and stop words FUNCTION_FACTOR of their IDF, or of the mean content IDF when unused; an unknown word UNKNOWN_FACTOR of the mean", () => {
    // Content stems with weight: list, file, show, disk, usag, you, like, coffe, why.
    const mean = (8 * Math.log(5) + Math.log(3)) / 9;
    expect(weightOf("the")).toBe(round6(FUNCTION_FACTOR * Math.log(5)));
    expect(weightOf("please")).toBe(round6(FUNCTION_FACTOR * mean));
    expect(weightOf("kindly")).toBe(round6(FUNCTION_FACTOR * mean));
    expect(weightOf("with")).toBe(round6(FUNCTION_FACTOR * mean));
    expect(matching.unknownWeight).toBe(round6(UNKNOWN_FACTOR * mean));
    expect(matching.inputWeight[2]).toBe(round6(weightOf("show") + weightOf("disk") + weightOf("usage")));
  });

  it("maps each lexicon word to its stem, each stem to its inputs in ascending order, and each stem to its concepts", () => {
    expect(stringsOf(matching.stems)).toEqual(stringsOf(matching.stems).sort());
    expect(matching.wordStem[lexicon.wordId.get("files")!]).toBe(stemId("file"));
    expect(matching.wordStem).toHaveLength(lexicon.words.length);
    expect(row(matching.postings, stemId("file"))).toEqual([0, 1]);
    expect(row(matching.postings, stemId("show"))).toEqual([1, 2]);
    expect(row(matching.postings, stemId("disk"))).toEqual([2, 5]);
    expect(row(matching.postings, stemId("display"))).toEqual([]);
    expect(row(matching.concepts, stemId("show"))).toEqual([0]);
    expect(row(matching.concepts, stemId("display"))).toEqual([0]);
    expect(row(matching.concepts, stemId("file"))).toEqual([]);
    expect([...matching.conceptWeight]).toEqual([0.9]);
  });

  it("builds the same index whatever order the intents and the stop words are listed in (property)", () => {
    const all = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
    fc.assert(
      fc.property(all(ir.intents), all(STOP_WORDS), (intents, stopWords) => {
        const shuffled = build({ ...ir, intents }, stopWords);
        expect(shuffled.inputIntent).toEqual(inputIntent);
        expect(shuffled.matching).toEqual(matching);
      }),
      { numRuns: 50 },
    );
  });
});
