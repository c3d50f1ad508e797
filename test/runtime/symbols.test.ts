// Shell symbols an input spells out (`>`, `>>`, `|`, `&&`, `-r`, `~`, a lone quote) are kept as
// tokens (issue 19): "difference between > and >> in linux" and "… ' and \" …" are two inputs,
// not one CON001 duplicate, and the runtime tells them apart. Sentence punctuation still goes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { lex } from "../../runtime/text/lexer.js";
import { loadNpc } from "../../runtime/index.js";
import { normalizeKey, tokenize } from "../../runtime/text/normalize.js";
import { tempDir, writeTree } from "../support/cli.js";

const QUOTES = `difference between ' and " in linux`;
const REDIRECTS = "difference between > and >> in linux";

describe("symbol tokens", () => {
  it("keeps shell symbols and lone quotes in the normalized key", () => {
    expect(normalizeKey(REDIRECTS)).toBe("difference between > and >> in linux");
    expect(normalizeKey(QUOTES)).toBe(`difference between ' and " in linux`);
    expect(normalizeKey("ls | grep x && echo ok || true & wait")).toBe("ls | grep x && echo ok || true & wait");
    expect(normalizeKey("what does -r do in rm, and ~ in cd?")).toBe("what does -r do in rm and ~ in cd");
  });

  it("still drops sentence punctuation and reads a lone quote as a symbol, not an unclosed quote", () => {
    expect(normalizeKey("hello , world ... ? !")).toBe("hello world");
    expect(tokenize(QUOTES).unbalancedQuote).toBe(false);
    expect(tokenize('say "hello').unbalancedQuote).toBe(true);
    expect(tokenize('say "hello world" > out.txt').tokens.map((t) => t.norm)).toEqual(["say", "hello world", ">", "out.txt"]);
  });

  it("gives symbol tokens the literal kind `symbol` in the lexer", () => {
    expect(lex("a >> b").lexemes.map((l) => [l.kind, l.text])).toEqual([["word", "a"], ["symbol", ">>"], ["word", "b"]]);
  });

  it("gives every symbol token the fields of every other literal token", () => {
    const fields = (message: string) => tokenize(message).tokens.map((t) => Object.keys(t).sort().join(","));
    const literal = fields("notes.txt")[0];
    fc.assert(
      fc.property(fc.constantFrom(">", ">>", "|", "||", "&", "&&", "<", "<<", "'", '"', "`"), (symbol) => {
        expect(fields(`x ${symbol} y`)[1]).toBe(literal);
      }),
    );
  });

  it("are not CON001 duplicates, and the runtime answers each with its own entry", async () => {
    const dir = writeTree(tempDir("symbols"), {
      "config.json": JSON.stringify({ npc_name: "Symbols" }),
      "dataset/dataset_shell.json": JSON.stringify([
        { intent: "quotes", input: [QUOTES], output: "Single quotes keep everything literal." },
        { intent: "redirects", input: [REDIRECTS], output: "> replaces, >> appends." },
        { intent: "pipes", input: ["what does | do"], output: "It pipes." },
      ]),
    });
    const lint = lintSources([dir]);
    expect(lint.diagnostics.filter((d) => d.code === "CON001")).toEqual([]);
    const npc = await loadNpc(compileNpc(lint.ir).bytes);
    const ask = (message: string) => npc.session({ seed: 1 }).process(message);
    expect([QUOTES, REDIRECTS, "what does | do"].map((m) => [ask(m).status, ask(m).intent])).toEqual([
      ["exact match", "quotes"],
      ["exact match", "redirects"],
      ["exact match", "pipes"],
    ]);
    expect(ask("difference between >> and > in linux").intent).toBe("redirects");
  });
});
