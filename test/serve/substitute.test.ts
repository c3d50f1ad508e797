// Taught-word substitution and the messages the server answers itself (teach, yes/no).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { substituteTaught } from "../../compiler/serve/substitute.js";
import { parseConfirmation, parseTeachMessage } from "../../compiler/serve/teach-messages.js";
import type { Teaching } from "../../compiler/store/store.js";

const teaching = (id: number, word: string, meaning: string): Teaching => ({
  id,
  npc: "termy",
  kind: word.includes(" ") || meaning.includes(" ") ? "rule" : "synonym",
  word,
  meaning,
  state: "provisional",
  uses: 0,
  confirmations: 0,
  source: "cli",
  session: null,
  client: null,
  created: "",
  updated: "",
});

describe("substituteTaught", () => {
  const taught = [teaching(1, "zap", "delete"), teaching(2, "get rid of", "remove"), teaching(3, "get", "fetch")];

  it("replaces whole taught words and phrases, longest first, and reports which were used", () => {
    expect(substituteTaught("Zap notes.txt", taught)).toEqual({ message: "delete notes.txt", used: [taught[0]] });
    expect(substituteTaught("please get rid of old.log now", taught).message).toBe("please remove old.log now");
    expect(substituteTaught("get it", taught).message).toBe("fetch it");
    expect(substituteTaught("zapper zap", taught).message).toBe("zapper delete");
  });

  it("never touches literals or quoted text", () => {
    expect(substituteTaught("delete zap.txt", taught)).toEqual({ message: "delete zap.txt", used: [] });
    expect(substituteTaught("echo 'zap'", taught)).toEqual({ message: "echo 'zap'", used: [] });
  });

  it("leaves any message without a taught word exactly as it was, and never throws", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (message) => {
        const result = substituteTaught(message, taught);
        if (result.used.length === 0) expect(result.message).toBe(message);
        else for (const t of result.used) expect(result.message).toContain(t.meaning);
      }),
      { numRuns: 500 },
    );
  });
});

describe("server-handled messages", () => {
  it("reads teach: WORD means MEANING, with optional quotes", () => {
    expect(parseTeachMessage("teach: wipe means delete")).toEqual({ word: "wipe", meaning: "delete" });
    expect(parseTeachMessage("Teach:  'get rid of'  means \"remove\"")).toEqual({ word: "get rid of", meaning: "remove" });
    expect(parseTeachMessage("teach me something")).toBeNull();
    expect(parseTeachMessage("what does wipe mean")).toBeNull();
  });

  it("reads teach messages as the former regex did, on every short input", () => {
    // The former reader, a backtracking regex: fine as an oracle on inputs this short.
    const reference = (message: string) => {
      const match = /^\s*teach\s*:\s*(.+?)\s+means\s+(.+?)\s*$/is.exec(message);
      const unquote = (text: string) => text.replace(/^(["'])(.*)\1$/s, "$2").trim();
      return match ? { word: unquote(match[1]!), meaning: unquote(match[2]!) } : null;
    };
    const pieces = fc.constantFrom("teach", "TEACH", ":", " ", "  ", "\t", "\n", "means", "MEANS", "x", "zap", "'", '"', "meansx", "İ", "delete");
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join("")), (message) => {
        expect(parseTeachMessage(message)).toEqual(reference(message));
      }),
      { seed: 1313, numRuns: 3000 },
    );
  });

  it("reads a teach message of spaces in one pass (the regex took seconds on 2,000)", () => {
    // Each would take the former regex from seconds to hours; vitest's timeout catches a relapse.
    expect(parseTeachMessage(`teach:${" ".repeat(2000)}x`)).toBeNull();
    expect(parseTeachMessage(`teach: a${" means".repeat(20_000)}`)).toEqual({ word: "a", meaning: Array(20_000 - 1).fill("means").join(" ") });
    expect(parseTeachMessage(`teach:${" ".repeat(100_000)}x means${" ".repeat(100_000)}`)).toBeNull();
  });

  it("reads yes/no replies and nothing else", () => {
    expect(parseConfirmation("Yes!")).toBe(true);
    expect(parseConfirmation("that's right")).toBe(true);
    expect(parseConfirmation("wrong")).toBe(false);
    expect(parseConfirmation("yes delete it")).toBeNull();
  });
});
