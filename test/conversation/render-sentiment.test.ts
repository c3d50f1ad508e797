// Rendering order, seeded determinism, sentiment counts and the emoji ladder, sentiment-aware
// matching, slots that never end on a stop word, related suggestions.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { emojiFor, loadNpc, type Npc, type Sentiment } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";
import { loadShelly } from "./shelly.js";

let npc: Npc;
beforeAll(async () => {
  npc = await loadShelly();
});

describe("<||tag||> rendering order: slots → word lists → system values → the entry's own keys", () => {
  it("a slot wins over the entry's key of the same name", () => {
    expect(npc.session().process("rename report.txt").response).toBe("Renamed to report.txt.");
  });

  it("word lists win over system values, which win over the entry's keys", () => {
    // whoami has its own username/greetings/npc_name keys: the word list and system values win.
    expect(npc.session({ metadata: { username: "ada" } }).process("who am i").response).toBe("ada / Howdy / Shelly");
  });

  it("an entry's custom key renders for that entry only, never from another entry", () => {
    const s = npc.session();
    expect(s.process("list files").response).toMatch(/plain/);
    // disk_usage has no `flavour` key: the last loaded entry's key must not leak into it.
    expect(s.process("show disk usage").response).toBe("Disk usage ():");
  });
});

describe("seeded determinism", () => {
  const script = ["list files", "hello", "delete old.log then list files", "list files", "thanks"];
  const transcript = (seed: number) => {
    const s = npc.session({ seed });
    return script.map((m) => s.process(m).response).join(" | ");
  };

  it("same seed and messages → same text; seeds differ somewhere", () => {
    expect(transcript(5)).toBe(transcript(5));
    expect(new Set(Array.from({ length: 12 }, (_, seed) => transcript(seed))).size).toBeGreaterThan(1);
  });

  it("holds for any seed and message sequence (property)", () => {
    const message = fc.constantFrom(...script, "create folder x then move it to /tmp", "zzz", "you are amazing");
    fc.assert(
      fc.property(fc.integer(), fc.array(message, { maxLength: 6 }), (seed, messages) => {
        const run = () => {
          const s = npc.session({ seed });
          return messages.map((m) => JSON.stringify(s.process(m)));
        };
        expect(run()).toEqual(run());
      }),
      { numRuns: 60 },
    );
  });
});

describe("sentiment", () => {
  it("counts expletives, interjections, thanking, encouraging and discouraging over the session", () => {
    const s = npc.session();
    s.process("hmm dang list files");
    s.process("thanks");
    const last = s.process("great, you are useless");
    expect(last.sentiment).toEqual({ expletives: 1, interjections: 1, thanking: 1, encouraging: 1, discouraging: 1 });
  });

  it.each<[Partial<Sentiment>, string]>([
    [{}, "🙂"],
    [{ interjections: 2 }, "🤔"],
    [{ encouraging: 1 }, "😊"],
    [{ thanking: 1, encouraging: 1 }, "🤗"],
    [{ discouraging: 2, encouraging: 1 }, "😞"],
    [{ expletives: 2, thanking: 1 }, "😠"],
  ])("emoji ladder: %o → %s", (counts, emoji) => {
    expect(emojiFor({ expletives: 0, interjections: 0, thanking: 0, encouraging: 0, discouraging: 0, ...counts })).toBe(emoji);
  });

  it("a thanking phrase with filler reaches the entry that lists it", () => {
    expect(npc.session().process("thanks a lot")).toMatchObject({ status: "exact match", intent: "thanks" });
    expect(npc.session().process("thank you very much")).toMatchObject({ intent: "thanks" });
  });

  it("a sentiment phrase with a contraction reaches the entry that lists it ('don't worry' is read 'do not worry')", async () => {
    const json = (value: unknown) => JSON.stringify(value);
    const dir = writeTree(tempDir("contraction-phrase"), {
      "config.json": json({ npc_name: "Calm", creator: "the tests" }),
      "dataset/vocabulary/vocabulary.json": json({ stop_words: ["the"], encouraging_words: ["don't worry"] }),
      "dataset/personality.json": json([
        { unknown: ["I did not get that."] },
        { intent: "reassured", input: ["don't worry"], output: "I will not.", permission: "yolo" },
        { intent: "greet", input: ["hello"], output: "Hi.", permission: "yolo" },
      ]),
    });
    const calm = await loadNpc(compileNpc(lintSources([dir]).ir).bytes);
    // "mate" is unknown: the message is only the phrase and filler, so the phrase alone decides.
    const answer = calm.session().process("don't worry mate");
    expect(answer).toMatchObject({ status: "exact match", intent: "reassured", sentiment: { encouraging: 1 } });
    // The witness quotes the phrase as typed: "don't" is two tokens of one span, shown once.
    expect(answer.witness[0]!.items[0]).toEqual({ word: "don't worry", kind: "word", matched: "encouraging" });
  });

  it("an input whose key is more than plain words (a file name, an apostrophe, a quoted \"great!\") is read with its sentiment phrases left out too", async () => {
    const json = (value: unknown) => JSON.stringify(value);
    const dir = writeTree(tempDir("sentiment-literal"), {
      "config.json": json({ npc_name: "Praise", creator: "the tests" }),
      "dataset/vocabulary/vocabulary.json": json({ stop_words: ["the"], encouraging_words: ["nice", "great", "superb"] }),
      "dataset/personality.json": json([
        { unknown: ["I did not get that."] },
        { intent: "report", input: ["nice work on report.txt"], output: "Thanks.", permission: "yolo" },
        { intent: "owner", input: ["great work o'brien"], output: "Thanks, O'Brien says.", permission: "yolo" },
        { intent: "rate", input: ['rate it "great!"'], output: "Rated.", permission: "yolo" },
        { intent: "greet", input: ["hello"], output: "Hi.", permission: "yolo" },
      ]),
    });
    const praise = await loadNpc(compileNpc(lintSources([dir]).ir).bytes);
    expect(praise.session().process("superb work on report.txt")).toMatchObject({ status: "exact match", intent: "report" });
    expect(praise.session().process("superb work o'brien")).toMatchObject({ status: "exact match", intent: "owner" });
    // The key is `rate it great!`: the quoted word keeps its "!", and only tokenizing the key finds "great" in it.
    expect(praise.session().process("rate it superb")).toMatchObject({ status: "exact match", intent: "rate" });
  });

  it("sentiment words are left out on both sides: 'you are amazing' is a compliment, not 'how are you'", () => {
    expect(npc.session().process("you are amazing")).toMatchObject({ status: "exact match", intent: "compliment" });
    expect(npc.session().process("you are terrible")).toMatchObject({ intent: "insult" });
    // A request with a thank-you still reaches the request.
    expect(npc.session().process("thanks, list files")).toMatchObject({ intent: "files_list" });
  });

  it("a slot never captures a stop word at the end", () => {
    expect(npc.session().process("install htop please")).toMatchObject({ intent: "pkg_install", slots: { package: "htop" } });
    expect(npc.session().process("install please").slots.package).toBeUndefined();
  });

  it("a rejection suggests related intents that share evidence", () => {
    const answer = npc.session().process("list disk");
    expect(answer.status).toBe("rejected");
    expect(answer.related.map((r) => r.intent)).toEqual(expect.arrayContaining(["files_list", "disk_usage"]));
    expect(answer.response).toBe("Did you mean one of these?");
  });
});
