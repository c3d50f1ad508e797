import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { shellNpc } from "./ir-fixture.js";

const npc: Npc = await loadNpc(compileNpc(shellNpc()).bytes);

function ask(message: string, seed = 0) {
  return npc.session({ seed, metadata: { username: "ada", computer_name: "box" } }).process(message);
}

describe("exact and context matches", () => {
  it("matches inputs whatever the case, spacing, punctuation and contractions", () => {
    for (const message of ["list files", "  LIST   Files!! ", "what is in this folder?", "What's in this folder"]) {
      const answer = ask(message);
      expect(answer.status, message).toBe("exact match");
      expect(answer.intent).toBe("list_files");
      expect(answer.confidence).toBe(1);
    }
  });

  it("matches an input that contains a noise word as typed", () => {
    expect(ask("wipe screen")).toMatchObject({ status: "exact match", intent: "wipe_screen" });
  });

  it("reaches context children only after their parent, and [] clears the context", () => {
    const session = npc.session();
    expect(session.process("why").status).not.toBe("context match");
    expect(session.process("do you like coffee")).toMatchObject({ status: "exact match", intent: "ask_coffee" });
    expect(session.context).toBe("ask_coffee");
    expect(session.process("why")).toMatchObject({ status: "context match", intent: "why_coffee", response: "It smells good." });
    expect(session.process("stop it")).toMatchObject({ status: "context match", intent: "end_coffee" });
    expect(session.context).toBeNull();
    expect(session.process("why").status).not.toBe("context match");
  });

  it("lets context children answer typos only while their parent is active", () => {
    expect(ask("stopp it").intent).not.toBe("end_coffee");
    const session = npc.session();
    session.process("do you like coffee");
    expect(session.process("stopp it")).toMatchObject({ status: "probabilistic match", intent: "end_coffee" });
    expect(session.context).toBeNull();
  });

  it("keeps the context when the answering entry says nothing about it", () => {
    const session = npc.session();
    session.process("do you like coffee");
    session.process("list files");
    expect(session.process("why").intent).toBe("why_coffee");
  });
});

describe("template matches", () => {
  it("captures typed slots, skipping optional nodes and stop words", () => {
    const answer = ask("please copy the file Notes.TXT to backup.txt");
    expect(answer).toMatchObject({ status: "template match", intent: "copy_file", slots: { src: "Notes.TXT", dst: "backup.txt" } });
    expect(answer.response).toBe("Copying Notes.TXT to backup.txt.");
    expect(answer.tools[0]).toEqual({ name: "run_in_terminal", arguments: { command: "cp -- 'Notes.TXT' 'backup.txt'" } });
    expect(ask("duplicate a.md b.md").slots).toEqual({ src: "a.md", dst: "b.md" });
  });

  it("prefers more vocab words, then fewer free strings", () => {
    // Both delete templates match; the typed one matched "file" as a word and has no free string.
    expect(ask("delete file x.txt")).toMatchObject({ intent: "delete_file", slots: { target: "x.txt" } });
    expect(ask("delete x.txt")).toMatchObject({ intent: "delete_file" });
    expect(ask("delete my old photos")).toMatchObject({ intent: "delete_anything", slots: { what: "my old photos" } });
  });

  it("matches multi-word synonyms, undefined vocab tags by their own word, and typos of long words", () => {
    expect(ask("tell me hello world")).toMatchObject({ intent: "echo_text", slots: { text: "hello world" } });
    expect(ask("repeat 3 times").response).toBe("3 times, vanilla");
    expect(ask("dupliacte a.md b.md")).toMatchObject({ intent: "copy_file" });
  });

  it("escapes slot values in commands so quotes cannot break out", () => {
    const answer = ask("say it's a trap'; rm -rf ~");
    expect(answer.intent).toBe("echo_text");
    expect(answer.slots.text).toBe("it's a trap'; rm -rf ~");
    expect((answer.tools[0]!.arguments as { command: string }).command).toBe("echo 'it'\\''s a trap'\\''; rm -rf ~'");
    expect(answer.response).toBe("it's a trap'; rm -rf ~");
  });

  it("refuses, without any tool, a slot value that cannot sit where the command puts it", async () => {
    const ir = shellNpc();
    ir.intents.push({ ...ir.intents[0]!, id: "shout", inputs: [], paths: [{ nodes: [{ tags: ["shout"], type: "vocab", required: true, loc: ir.intents[0]!.loc }, { tags: ["text"], type: "string", required: true, loc: ir.intents[0]!.loc }], loc: ir.intents[0]!.loc }] });
    ir.intents.at(-1)!.tools = [{ ...ir.intents[0]!.tools[0]!, raw: { name: "run_in_terminal", arguments: { command: 'echo "<||text||>"' } } }];
    const custom = await loadNpc(compileNpc(ir).bytes);
    const safe = custom.session().process("shout hello there");
    expect(safe).toMatchObject({ intent: "shout", tools: [{ arguments: { command: 'echo "hello there"' } }] });
    const refused = custom.session().process("shout $(reboot)");
    expect(refused).toMatchObject({ status: "rejected", tools: [], related: [{ intent: "shout" }] });
    expect(refused.notice).toMatch(/slot "text" cannot be passed to a shell safely.*nothing will run/);
  });

  it("takes a quoted text as one free-string slot", () => {
    expect(ask('say "hello   there"').slots).toEqual({ text: "hello   there" });
  });

  it("answers in linear time even with a backtracking-prone type regex", () => {
    const answer = ask(`delete ${"a".repeat(200)}#`);
    expect(answer.intent).toBe("delete_anything");
  });
});

describe("probabilistic matches and rejection", () => {
  it("tolerates typos and word order", () => {
    const answer = ask("shwo dsik usage");
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "disk_usage" });
    expect(answer.confidence).toBeGreaterThan(0.6);
    expect(answer.confidence).toBeLessThan(1);
    expect(ask("usage disk show").intent).toBe("disk_usage");
    const witness = answer.witness.find((w) => w.stage === "probabilistic")!;
    expect(witness.items).toContainEqual({ word: "shwo", kind: "fuzzy", matched: "show" });
  });

  it("uses synonyms", () => {
    expect(ask("display disk usage")).toMatchObject({ status: "probabilistic match", intent: "disk_usage" });
  });

  it("rejects near-ties and weak matches with related suggestions that share evidence", () => {
    const tie = ask("my disk files");
    expect(tie).toMatchObject({ status: "rejected", intent: null, confidence: 0, response: "Did you mean one of these?" });
    expect(tie.related.map((r) => r.intent).sort()).toEqual(["disk_usage", "list_files"]);
    expect(tie.related.every((r) => r.score >= 0.3)).toBe(true);
    const unrelated = ask("show me the weather forecast for tomorrow in paris");
    expect(unrelated).toMatchObject({ status: "rejected", related: [], response: "What do you mean, ada?" });
    expect(ask("zzz qqq")).toMatchObject({ status: "rejected", related: [] });
  });

  it("limits related suggestions to the configured number", async () => {
    const ir = shellNpc();
    ir.config.suggestions = 1;
    const one = await loadNpc(compileNpc(ir).bytes);
    expect(one.session().process("my disk files").related).toHaveLength(1);
  });

  it("never lets a guess run a destructive command without asking", () => {
    const ir = shellNpc();
    ir.intents.push({ ...ir.intents[2]!, id: "nuke", inputs: [{ value: "nuke the build folder", loc: ir.intents[2]!.loc }], permission: "yolo" });
    ir.intents.at(-1)!.tools = [{ ...ir.intents[0]!.tools[0]!, arguments: { command: "rm -rf build" } }];
    return loadNpc(compileNpc(ir).bytes).then((custom) => {
      const s = custom.session();
      expect(s.process("nuke the build folder")).toMatchObject({ status: "exact match", permission: "yolo" });
      expect(s.process("nuke teh build folder")).toMatchObject({ status: "probabilistic match", intent: "nuke", permission: "ask" });
      const negated = s.process("don't nuke the build folder");
      expect(negated).toMatchObject({ status: "rejected", tools: [] });
      expect(negated.notice).toMatch(/not to do something destructive/);
      expect(negated.related.map((r) => r.intent)).toContain("nuke");
      // The guard's reading of negation (runtime/match/guards.ts), not a shorter list of its own.
      for (const message of ["dont nuke the build folder", "avoid nuking the build folder", "you cannot nuke the build folder"]) {
        const answer = s.process(message);
        expect(answer, message).toMatchObject({ status: "rejected", tools: [] });
        expect(answer.notice, message).toMatch(/not to do something destructive/);
      }
    });
  });
});

describe("sanitizing, sentiment and rendering", () => {
  it("strips noise words outside quotes and counts sentiment over the session", () => {
    const session = npc.session();
    const first = session.process("hmm dang it list files");
    expect(first).toMatchObject({ status: "exact match", intent: "list_files" });
    expect(first.sentiment).toMatchObject({ expletives: 1, interjections: 1 });
    expect(first.emoji).toBe("😠");
    const second = session.process("thank you, great");
    expect(second.sentiment).toMatchObject({ expletives: 1, interjections: 1, thanking: 1, encouraging: 1 });
    expect(session.process('say "hmm darn"').slots).toEqual({ text: "hmm darn" });
  });

  it("renders slots, word lists, system values and custom keys; names come from the session only", () => {
    const greet = npc.session({ metadata: { username: "ada" } });
    const texts = new Set<string>();
    for (let i = 0; i < 20; i++) texts.add(greet.process("hello").response);
    expect(texts).toEqual(new Set(["Hi ada, I am Testy by The Testers.", "Hello ada!"]));
    expect(npc.session().process("hello").thinking).toBe("A greeting from user.");
    expect(ask("how full is my disk").response).toBe("Disk usage on box:");
    expect(npc.session().process("how full is my disk").response).toBe("Disk usage on localhost:");
  });

  it("gives the same text for the same seed and messages", () => {
    const run = (seed: number) => {
      const s = npc.session({ seed });
      return ["hello", "list files", "hello", "hello", "list files"].map((m) => s.process(m).response);
    };
    expect(run(7)).toEqual(run(7));
    const seeds = new Set(Array.from({ length: 16 }, (_, seed) => run(seed).join("|")));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it("says when a message was cut or a quote left open", () => {
    const long = ask(`list files ${"x".repeat(600)}`);
    expect(long).toMatchObject({ status: "rejected", tools: [], tooLong: { unit: "characters", limit: 500, length: 611 } });
    expect(long.response).toMatch(/split it/i);
    expect(ask('say "unfinished').notice).toMatch(/quote/);
  });
});

describe("process never throws", () => {
  it("on arbitrary strings", () => {
    const session = npc.session({ seed: 3 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: "grapheme", maxLength: 100 }),
          fc.string({ unit: "binary", maxLength: 100 }),
          fc.array(fc.constantFrom("'", '"', "<||", "||>", "copy", "a.txt", "\\", " ", "…", "¿", "__proto__", "constructor"), { maxLength: 30 }).map((parts) => parts.join("")),
        ),
        (message) => {
          const answer = session.process(message);
          expect(typeof answer.response).toBe("string");
          expect(["exact match", "context match", "template match", "probabilistic match", "rejected"]).toContain(answer.status);
          expect(answer.witness.some((w) => w.note?.startsWith("internal error"))).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("on huge, punctuation-only and odd inputs", () => {
    const session = npc.session();
    // process() turns an internal error into a rejection with an "internal error" note, so not
    // throwing proves nothing: each answer must be a real one.
    for (const message of ["x".repeat(100_000), "!?.,;:".repeat(1000), "", "   ", "\u0000\u0001", "'", '"', "<||username||>", "say <||username||>"]) {
      const answer = session.process(message);
      expect(typeof answer.response).toBe("string");
      expect(answer.witness.some((w) => w.note?.startsWith("internal error")), message.slice(0, 20)).toBe(false);
    }
    expect(session.process("say <||username||>").slots.text).toBe("<||username||>");
    expect(session.process("").status).toBe("rejected");
  });
});
