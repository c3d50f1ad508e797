import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { normalizeKey, tokenize } from "../../runtime/text/normalize.js";
import { textOf } from "../../runtime/text/token-text.js";

describe("normalizeKey", () => {
  it("lowercases (Unicode too), applies NFKC and collapses whitespace", () => {
    expect(normalizeKey("  List   FILES  ")).toBe("list files");
    expect(normalizeKey("ÉCOLE Straße")).toBe("école straße");
    expect(normalizeKey("ｆｉｌｅ")).toBe("file"); // full-width letters
  });

  it("strips sentence punctuation around words but keeps literal tokens whole", () => {
    expect(normalizeKey("Hello, world!")).toBe("hello world");
    expect(normalizeKey("copy notes.txt to ~/backup/.")).toBe("copy notes.txt to ~/backup/.");
    expect(normalizeKey("open Notes.TXT.")).toBe("open notes.txt");
    expect(normalizeKey("run ls -la --color=auto")).toBe("run ls -la --color=auto");
    expect(normalizeKey("visit https://example.com/a?b=1")).toBe("visit https://example.com/a?b=1");
    expect(normalizeKey("ping 10.0.0.1 and add 3.5")).toBe("ping 10.0.0.1 and add 3.5");
    expect(normalizeKey("cd ..")).toBe("cd ..");
    expect(normalizeKey("?!")).toBe("");
  });

  it("expands contractions", () => {
    expect(normalizeKey("What's up? I don't know, we'll see")).toBe("what is up i do not know we will see");
    expect(normalizeKey("I can’t, it won’t")).toBe("i can not it will not");
    expect(normalizeKey("let's go")).toBe("let us go");
    expect(normalizeKey("john's book")).toBe("john's book");
    // Both words of a contraction keep its span, as typed.
    expect(tokenize("Don't stop").tokens.map((t) => [t.norm, t.text, t.start])).toEqual([["do", "Don't", 0], ["not", "Don't", 0], ["stop", "stop", 6]]);
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (text) => {
        const once = normalizeKey(text);
        expect(normalizeKey(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});

describe("tokenize", () => {
  it("keeps the literal text and case of tokens, with spans into the cleaned message", () => {
    const { clean, tokens } = tokenize("Copy 'My File.TXT' to /Tmp/Out!");
    expect(tokens.map((t) => [t.text, t.norm, t.kind])).toEqual([
      ["Copy", "copy", "word"],
      ["My File.TXT", "my file.txt", "quoted"],
      ["to", "to", "word"],
      ["/Tmp/Out", "/tmp/out", "literal"],
    ]);
    for (const t of tokens) expect(clean.slice(t.start, t.end)).toBe(t.text);
  });

  it("reads an apostrophe before an Object property name as part of a plain word, never as a contraction", () => {
    // The contraction tables are looked up by a word of the message: a table with a prototype would
    // answer `__proto__` with Object.prototype, and a token with a non-string norm breaks stemming.
    for (const message of ["copy'__proto__", "x'constructor", "a'toString", "constructorn't", "__proto__n't", "hasOwnPropertyn't"]) {
      const { tokens } = tokenize(message);
      for (const token of tokens) expect(typeof token.norm, `${message}: ${token.text}`).toBe("string");
    }
    expect(tokenize("copy'__proto__").tokens.map((t) => t.norm)).toEqual(["copy'__proto__"]);
    expect(tokenize("constructorn't").tokens.map((t) => t.norm)).toEqual(["constructor", "not"]);
  });

  it("names the shape of literal tokens", () => {
    const shapes = tokenize("https://x.org www.y.com $HOME 3.14 10.0.0.1 -rf --all *.log ~/a /etc/hosts .. me@host notes.txt 10mb a=b word").tokens.map((t) => [t.text, t.shape]);
    expect(shapes).toEqual([
      ["https://x.org", "url"],
      ["www.y.com", "url"],
      ["$HOME", "env"],
      ["3.14", "number"],
      ["10.0.0.1", "number"],
      ["-rf", "flag"],
      ["--all", "flag"],
      ["*.log", "glob"],
      ["~/a", "path"],
      ["/etc/hosts", "path"],
      ["..", "path"],
      ["me@host", "address"],
      ["notes.txt", "file"],
      ["10mb", "number"],
      ["a=b", "assignment"],
      ["word", null],
    ]);
  });

  it("gives every token the same fields in the same order, whatever its kind (one hidden class for the stages)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (message) => {
        for (const token of tokenize(`${message} word "quoted text" notes.txt don't`).tokens) {
          expect(Object.keys(token)).toEqual(["text", "norm", "kind", "shape", "start", "end"]);
          expect(token.shape === null).toBe(token.kind !== "literal");
        }
      }),
    );
  });

  it("reports a quote nobody closes and reads it as punctuation", () => {
    const result = tokenize('say "hello world');
    expect(result.unbalancedQuote).toBe(true);
    expect(result.tokens.map((t) => t.norm)).toEqual(["say", "hello", "world"]);
  });

  it("drops control characters", () => {
    expect(normalizeKey("li\u0000st\u0007 files")).toBe("list files");
  });
});

describe("textOf", () => {
  it("gives back the typed words, a contraction once although it is several tokens", () => {
    const word = fc.constantFrom("don't", "can't", "it's", "we'll", "I'm", "list", "Files", "notes.txt", "/tmp/x");
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        const message = words.join(" ");
        expect(textOf(tokenize(message).tokens)).toBe(message);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
