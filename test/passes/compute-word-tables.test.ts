// compute-word-tables.ts on hand-built word lists: which phrases the sanitizer strips or counts (and
// as which sentiment), the stop words, and the rendering lists, each merged across files and sorted.
import { describe, expect, it } from "vitest";
import { computeSanitizer, computeWordLists } from "../../compiler/passes/compute-word-tables.js";
import { SENTIMENT_KINDS } from "../../runtime/bundle/bundle-types.js";
import { npcIr } from "../runtime/ir-fixture.js";

const { wordLists } = npcIr({
  intents: [],
  lists: { thanking_words: ["Thank you", "thanks"], expletives: ["Damn"], stop_words: ["the", "of course"], greetings: ["Hi <||username||>", "Hello"] },
});
// A second file adding to a list already defined, and repeating a phrase.
const lists = [...wordLists, { name: "thanking_words", words: ["cheers", "thanks"], loc: wordLists[0]!.loc }];

describe("computeSanitizer", () => {
  it("lists each noise and sentiment phrase once, normalized, with its kind, sorted by kind then phrase", () => {
    const { phrases } = computeSanitizer(lists);
    const kind = (name: (typeof SENTIMENT_KINDS)[number]) => SENTIMENT_KINDS.indexOf(name);
    expect(phrases).toEqual([
      [["damn"], kind("expletives")],
      [["cheers"], kind("thanking")],
      [["thank", "you"], kind("thanking")],
      [["thanks"], kind("thanking")],
    ]);
  });

  it("takes one-word stop words only: a phrase cannot be skipped word by word", () => {
    expect(computeSanitizer(lists).stopWords).toEqual(["the"]);
  });
});

describe("computeWordLists", () => {
  it("merges a list written in two files, sorts the lists by name, and splits each entry into text and tags", () => {
    const rendered = computeWordLists(lists);
    expect(rendered.map(([name]) => name)).toEqual(["expletives", "greetings", "stop_words", "thanking_words"]);
    expect(rendered.find(([name]) => name === "thanking_words")![1]).toHaveLength(4);
    expect(rendered.find(([name]) => name === "greetings")![1]).toEqual([["Hi ", "username", ""], ["Hello"]]);
  });
});
