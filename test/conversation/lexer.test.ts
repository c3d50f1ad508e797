// Stage 0: typed tokens, exact literal text, punctuation, open quotes.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Npc } from "../../runtime/index.js";
import { lex } from "../../runtime/text/lexer.js";
import { loadShelly } from "./shelly.js";

const kinds = (message: string) => lex(message).lexemes.map((l) => [l.kind, l.text]);

describe("literal kinds", () => {
  it.each([
    ["string", 'say "Hello There"', "Hello There"],
    ["url", "open https://Example.com/a?b=1", "https://Example.com/a?b=1"],
    ["env", "echo $HOME", "$HOME"],
    ["glob", "find *.LOG", "*.LOG"],
    ["path", "cd ~/Projects/App", "~/Projects/App"],
    ["flag", "ls --All", "--All"],
    ["number", "kill 1234", "1234"],
    ["file", "open Notes.TXT", "Notes.TXT"],
  ] as const)("%s keeps its exact text and case", (kind, message, text) => {
    expect(lex(message).lexemes).toContainEqual(expect.objectContaining({ kind, text }));
  });

  it("keeps e.g. and i.e. as words, never file names", () => {
    const lexed = lex("list files, e.g. Notes and i.e. these");
    expect(lexed.lexemes.filter((l) => l.text === "e.g." || l.text === "i.e.").map((l) => l.kind)).toEqual(["word", "word"]);
    expect(lexed.tokens.map((t) => t.norm)).toContain("e.g.");
  });

  it("never reads ? as a glob: a trailing question mark is punctuation", () => {
    expect(kinds("what is this?")).toEqual([["word", "what"], ["word", "is"], ["word", "this"], ["punctuation", "?"]]);
    expect(kinds("find *.log?")).toEqual([["word", "find"], ["glob", "*.log"], ["punctuation", "?"]]);
  });

  it("records punctuation between tokens, outside quotes", () => {
    expect(kinds('hi, "a; b" ok!')).toEqual([["word", "hi"], ["punctuation", ","], ["string", "a; b"], ["word", "ok"], ["punctuation", "!"]]);
  });

  it("lexemes are ordered, disjoint, and never crash on any input (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (message) => {
        const { lexemes, clean } = lex(message);
        for (let i = 1; i < lexemes.length; i++) expect(lexemes[i]!.start).toBeGreaterThanOrEqual(lexemes[i - 1]!.end);
        for (const l of lexemes) expect(l.end).toBeLessThanOrEqual(clean.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("an open quote", () => {
  let npc: Npc;
  beforeAll(async () => {
    npc = await loadShelly();
  });

  it("is not matched: the answer asks to close it", () => {
    const answer = npc.session().process('say "hello there');
    expect(answer).toMatchObject({ status: "rejected", intent: null, tools: [] });
    expect(answer.response).toMatch(/quote.*close it/i);
    expect(answer.notice).toBe(answer.response);
    expect(lex('say "hello there').unbalancedQuote).toBe(true);
    expect(npc.session().process('say "hello there"')).toMatchObject({ intent: "say", slots: { text: "hello there" } });
  });

  it("a ' opening a word and never closed is an open quote; apostrophes are not quotes", () => {
    expect(npc.session().process("say 'hello there").response).toMatch(/close it/);
    expect(lex("what's up, don't stop").unbalancedQuote).toBe(false);
    expect(lex("the students' books").unbalancedQuote).toBe(false);
    expect(lex("say 'it's fine'").unbalancedQuote).toBe(false);
  });
});
