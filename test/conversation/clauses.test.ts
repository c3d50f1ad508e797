// Sentences, clauses and composite answers.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { MAX_CLAUSES, splitClauses } from "../../runtime/conversation/clauses.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { learnedIndexFor, NpcModel } from "../../runtime/bundle/model.js";
import { tokenize } from "../../runtime/text/normalize.js";
import { WordResolver } from "../../runtime/text/word-resolver.js";
import { tempDir, writeTree } from "../support/cli.js";
import { loadShelly } from "./shelly.js";

let shelly: Npc;
let model: NpcModel;
beforeAll(async () => {
  shelly = await loadShelly();
  model = new NpcModel(shelly.payload, await learnedIndexFor(shelly.payload));
});

function clauses(message: string, on: NpcModel = model): string[] {
  const { clean, tokens } = tokenize(message);
  return splitClauses(on, tokens, clean, new WordResolver(on)).map((c) => clean.slice(c.start, c.end));
}

describe("clause splitting", () => {
  it("splits on connectives before an action word", () => {
    expect(clauses("delete old.log then list files")).toEqual(["delete old.log", "list files"]);
    expect(clauses("delete old.log and then list files")).toEqual(["delete old.log", "list files"]);
    expect(clauses("create folder x after that list files")).toEqual(["create folder x", "list files"]);
    expect(clauses("list files next show disk usage")).toEqual(["list files", "show disk usage"]);
    expect(clauses("list files, and show disk usage")).toEqual(["list files", "show disk usage"]);
    expect(clauses("list files then please show disk usage")).toEqual(["list files", "please show disk usage"]);
    // A typo of an action word still starts a clause; a known non-action word does not.
    expect(clauses("delete old.log then lsit files")).toEqual(["delete old.log", "lsit files"]);
    expect(clauses("say hi then files")).toEqual(["say hi then files"]);
  });

  it("splits sentences on . ! ? ; and line breaks before an action word, not inside literals", () => {
    expect(clauses("hello! list files. show disk usage?")).toEqual(["hello", "list files", "show disk usage"]);
    expect(clauses("delete old.log; list files")).toEqual(["delete old.log", "list files"]);
    expect(clauses("list files. Then show disk usage")).toEqual(["list files", "show disk usage"]);
    expect(clauses("copy v1.2.tar.gz to ./backup\nlist files")).toEqual(["copy v1.2.tar.gz to ./backup", "list files"]);
  });

  it("keeps literal guards: plain 'and', a connective before a non-action word, quotes", () => {
    expect(clauses("copy a and b to c")).toEqual(["copy a and b to c"]);
    expect(clauses("say this then that")).toEqual(["say this then that"]);
    expect(clauses('say "delete x then list files"')).toEqual(['"delete x then list files"'].map((q) => `say ${q}`));
    expect(clauses("say 'stop; list files now'")).toEqual(["say 'stop; list files now'"]);
    expect(clauses("list files and show disk usage")).toEqual(["list files and show disk usage"]);
  });

  it("a piece of stop words only joins its neighbour", () => {
    expect(clauses("list files. please")).toEqual(["list files. please"]);
  });

  it("uses the bundle's DSL connectives", async () => {
    const dir = writeTree(tempDir("connectives"), {
      "bot.rules": `RuleSet.define "bot" do
  connectives ["afterwards"], ["once", "done"]
  rule("list files") { command "ls"; permission :yolo }
  rule("show disk usage") { command "df -h"; permission :yolo }
end
`,
    });
    const lint = lintSources([dir]);
    const npc = await loadNpc(compileNpc(lint.ir).bytes);
    expect(npc.payload.config.connectives).toEqual(expect.arrayContaining([["afterwards"], ["once", "done"]]));
    const on = new NpcModel(npc.payload, await learnedIndexFor(npc.payload));
    expect(clauses("list files afterwards show disk usage", on)).toEqual(["list files", "show disk usage"]);
    expect(clauses("list files once done show disk usage", on)).toEqual(["list files", "show disk usage"]);
    const answer = npc.session().process("list files afterwards show disk usage");
    expect(answer.tools.map((t) => (t.arguments as { command: string }).command)).toEqual(["ls", "df -h"]);
  });

  it("never loses or reorders a token (property)", () => {
    const words = fc.constantFrom("list", "files", "then", "and", "show", "disk", "usage", "old.log", ",", ".", "?", "after", "that", "next", '"a then list"', "please");
    fc.assert(
      fc.property(fc.array(words, { maxLength: 14 }), (parts) => {
        const { clean, tokens } = tokenize(parts.join(" "));
        const split = splitClauses(model, tokens, clean, new WordResolver(model));
        const kept = split.flatMap((c) => c.tokens);
        const connectiveWords = new Set(["then", "and", "after", "that", "next"]);
        expect(tokens.filter((t) => !kept.includes(t)).every((t) => connectiveWords.has(t.norm))).toBe(true);
        expect(kept.map((t) => tokens.indexOf(t))).toEqual([...kept.map((t) => tokens.indexOf(t))].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});

describe("composite answers", () => {
  it("answers each part in order and combines them (NDF rules)", () => {
    const answer = shelly.session({ seed: 2 }).process("delete old.log then list files");
    expect(answer.parts?.map((p) => [p.status, p.intent])).toEqual([
      ["template match", "file_delete"],
      ["exact match", "files_list"],
    ]);
    expect(answer.status).toBe("template match, exact match");
    expect(answer.intent).toBe("file_delete, files_list");
    expect(answer.permission).toBe("ask");
    expect(answer.confidence).toBe(1);
    expect(answer.response).toBe(answer.parts!.map((p) => p.response).join(" "));
    expect(answer.tools.map((t) => (t.arguments as { command: string }).command)).toEqual(["rm -- 'old.log'", "ls -la"]);
  });

  it("has the common status when all parts agree, the minimum confidence, and the last permission when none asks", () => {
    const same = shelly.session().process("list files then show disk usage");
    expect(same.status).toBe("exact match");
    expect(same.permission).toBe("yolo");
    const fuzzy = shelly.session().process("list files then show dsik usage");
    expect(fuzzy.parts?.[1]?.status).toBe("probabilistic match");
    expect(fuzzy.confidence).toBe(fuzzy.parts![1]!.confidence);
    expect(fuzzy.confidence).toBeLessThan(1);
  });

  it("any rejected part rejects the whole, with the parts kept", () => {
    const answer = shelly.session().process("list files then delete zzz qqq www");
    expect(answer.status).toBe("rejected");
    expect(answer.tools).toEqual([]);
    expect(answer.parts).toHaveLength(2);
    expect(answer.parts![0]!.intent).toBe("files_list");
  });

  it("never splits a message that is itself a dataset input", () => {
    expect(shelly.session().process("first this then that")).toMatchObject({ status: "exact match", intent: "then_what" });
  });
});

describe("composite invariants (property)", () => {
  it("parts answer in order; tools are the parts' tools; any rejected part rejects the whole", () => {
    const piece = fc.constantFrom("list files", "show disk usage", "delete old.log", "create folder x", "move it to /tmp", "zzz qqq", "thanks", 'say "a then b"', "hello");
    const glue = fc.constantFrom(" then ", " and then ", ". ", "; ", ", and ", " after that ", " next ");
    fc.assert(
      fc.property(fc.array(fc.tuple(glue, piece), { minLength: 1, maxLength: 6 }), fc.integer(), (pieces, seed) => {
        const message = pieces.map(([g, p], i) => (i === 0 ? p : g + p)).join("");
        const answer = shelly.session({ seed }).process(message);
        const parts = answer.parts ?? [answer];
        expect(parts.length).toBeLessThanOrEqual(pieces.length);
        if (parts.some((p) => p.status === "rejected")) expect(answer.status).toBe("rejected");
        else {
          expect(answer.tools).toEqual(parts.flatMap((p) => p.tools));
          expect(answer.confidence).toBe(Math.min(...parts.map((p) => p.confidence)));
          if (parts.some((p) => p.permission === "ask")) expect(answer.permission).toBe("ask");
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("limits", () => {
  it(`refuses more than 500 characters or ${MAX_CLAUSES} clauses, saying to split, without matching`, () => {
    const long = shelly.session().process(`list files ${"x".repeat(495)}`);
    expect(long).toMatchObject({ status: "rejected", intent: null, tools: [], tooLong: { unit: "characters", limit: 500, length: 506 } });
    expect(long.response).toMatch(/split it/i);
    const many = shelly.session().process(Array.from({ length: MAX_CLAUSES + 1 }, () => "list files").join(" then "));
    expect(many).toMatchObject({ status: "rejected", tools: [], tooLong: { unit: "clauses", limit: MAX_CLAUSES, length: MAX_CLAUSES + 1 } });
    expect(many.response).toMatch(/split it/i);
    const ten = shelly.session().process(Array.from({ length: MAX_CLAUSES }, () => "list files").join(" then "));
    expect(ten.parts).toHaveLength(MAX_CLAUSES);
  });
});
