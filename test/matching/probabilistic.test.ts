// The probabilistic stage on small invented NPCs: stems, concepts, typo budget, function words,
// the asymmetric score, the config keys it honours, and its invariants (order independence,
// determinism, no crash on arbitrary text).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { computeConcepts } from "../../compiler/passes/compute-concepts.js";
import { wordnetExpansion } from "../../compiler/wordnet.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { stem } from "../../runtime/text/stem.js";
import { npcIr, type NpcSpec } from "../runtime/ir-fixture.js";

const TOOLS: NpcSpec = {
  synonyms: { vocab_folder: ["folder", "directory", "dir"] },
  lists: { stop_words: ["the"], thanking_words: ["thanks"] },
  intents: [
    { id: "remove_empty_dirs", inputs: ["remove empty folders", "delete empty directories"], outputs: ["ok"], command: "find . -type d -empty -delete" },
    { id: "make_dir", inputs: ["create a folder", "make a new directory"], outputs: ["ok"], command: "mkdir -p -- x" },
    { id: "show_memory", inputs: ["show memory usage", "how much ram is free"], outputs: ["ok"], command: "free -h", permission: "yolo" },
    { id: "weather", inputs: ["what is the weather like"], outputs: ["Sunny."], permission: "yolo" },
  ],
};

async function build(spec: NpcSpec, options: Parameters<typeof compileNpc>[1] = {}): Promise<Npc> {
  return loadNpc(compileNpc(npcIr(spec), options).bytes);
}

const ask = (npc: Npc, message: string) => npc.session().process(message);

describe("Porter stemmer", () => {
  it("gives Porter's published stems", () => {
    const pairs: [string, string][] = [
      ["caresses", "caress"], ["ponies", "poni"], ["agreed", "agre"], ["motoring", "motor"], ["hopping", "hop"],
      ["filing", "file"], ["happy", "happi"], ["relational", "relat"], ["conditional", "condit"], ["digitizer", "digit"],
      ["operator", "oper"], ["hopefulness", "hope"], ["electrical", "electr"], ["adjustment", "adjust"],
      ["adoption", "adopt"], ["controll", "control"], ["directories", "directori"], ["directory", "directori"],
      // A double consonant stays after l, s or z (step 1b); -ion goes only after s or t (step 4).
      ["falling", "fall"], ["hissing", "hiss"], ["fizzed", "fizz"], ["communion", "communion"],
    ];
    for (const [word, expected] of pairs) expect(stem(word), word).toBe(expected);
  });

  it("leaves short words, literals and non-ASCII words alone, and never grows a word by more than a letter", () => {
    expect(["ls", "notes.txt", "-rf", "café", "42"].map(stem)).toEqual(["ls", "notes.txt", "-rf", "café", "42"]);
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{0,14}$/), (word) => stem(word).length <= word.length + 1), { numRuns: 2000 });
  });
});

describe("probabilistic stage", async () => {
  const npc = await build(TOOLS);

  it("matches inflected forms through stems", () => {
    const answer = ask(npc, "removing the empty directory");
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "remove_empty_dirs" });
  });

  it("matches a dataset synonym of an input word (a concept), weighted by synonym_contribution", async () => {
    const answer = ask(npc, "remove empty dir");
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "remove_empty_dirs" });
    const items = answer.witness.find((w) => w.stage === "probabilistic")!.items;
    expect(items).toContainEqual({ word: "dir", kind: "synonym", matched: stem("folder") });
    const none = await build({ ...TOOLS, config: { synonymContribution: 0 } });
    const weaker = ask(none, "remove empty dir");
    expect(weaker.status === "rejected" || weaker.confidence < answer.confidence).toBe(true);
  });

  it("corrects typos within the budget, never a literal, and honours word_threshold", async () => {
    expect(ask(npc, "shwo memroy usage")).toMatchObject({ status: "probabilistic match", intent: "show_memory" });
    const strict = await build({ ...TOOLS, config: { wordThreshold: 0.95 } });
    expect(ask(strict, "shwo memroy usage").status).toBe("rejected");
    const literal = ask(npc, "show memory.usage");
    const items = literal.witness.flatMap((w) => w.items);
    expect(items.some((i) => i.word === "memory.usage" && i.kind === "fuzzy")).toBe(false);
  });

  it("gives function words almost no weight on either side", () => {
    const bare = ask(npc, "show memory usage please now");
    const padded = ask(npc, "show the memory usage for me");
    expect(padded.intent).toBe("show_memory");
    expect(padded.confidence).toBeGreaterThan(0.9);
    const items = padded.witness.find((w) => w.stage === "probabilistic")!.items;
    expect(items).toContainEqual({ word: "for", kind: "stop word", matched: "" });
    expect(bare.intent).toBe("show_memory");
  });

  it("costs more for a missing input word than for an extra message word", () => {
    const missing = ask(npc, "empty folders").confidence; // "remove" missing
    const extra = ask(npc, "remove empty folders quickly").confidence;
    expect(extra).toBeGreaterThan(missing);
  });

  it("rejects messages about something else, and near-ties between two intents", () => {
    expect(ask(npc, "how do i bake banana bread").status).toBe("rejected");
    const tie = ask(npc, "folder memory");
    expect(tie.status).toBe("rejected");
  });

  it("needs less lead for a near-complete match than for a partial one (margin scaled by 1 − score)", async () => {
    const topics = ["disk usage", "memory", "network cards", "open ports", "processes", "mounted drives"];
    const spec: NpcSpec = {
      intents: [
        { id: "show_history", inputs: ["show command history"], outputs: ["ok"] },
        { id: "search_history", inputs: ["search command history"], outputs: ["ok"] },
        ...topics.map((topic, i) => ({ id: `topic_${i}`, inputs: [`show ${topic}`, `search ${topic}`], outputs: ["ok"] })),
      ],
    };
    const margin = 0.3;
    const message = "show command histroy";
    // With an unreachable threshold the stage abstains and shows both scores: the lead is below the margin.
    const ranked = ask(await build({ ...spec, config: { sentenceThreshold: 0.999 } }), message).related;
    expect(ranked.map((r) => r.intent)).toEqual(["show_history", "search_history"]);
    expect(ranked[0]!.score).toBeGreaterThan(0.9);
    expect(ranked[0]!.score - ranked[1]!.score).toBeLessThan(margin);
    const npc = await build({ ...spec, config: { extra: { margin } } });
    expect(ask(npc, message)).toMatchObject({ status: "probabilistic match", intent: "show_history" });
    // Two partial matches as close are still a coin flip.
    expect(ask(npc, "command history").status).toBe("rejected");
  });

  it("takes a typo'd training input for that input, not for a template the correction also fits", async () => {
    const spec: NpcSpec = {
      synonyms: { vocab_delete: ["delete", "remove"], vocab_file: ["file"] },
      intents: [
        { id: "delete_last", paths: ["vocab_delete ?vocab_a vocab_file"], outputs: ["last"] },
        { id: "delete_file", inputs: ["delete a file"], outputs: ["which"] },
      ],
    };
    const npc = await build(spec);
    expect(ask(npc, "delete a file")).toMatchObject({ status: "exact match", intent: "delete_file" });
    expect(ask(npc, "remove a file")).toMatchObject({ status: "template match", intent: "delete_last" });
    const typo = ask(npc, "deleet a file");
    expect(typo).toMatchObject({ status: "probabilistic match", intent: "delete_file" });
    expect(typo.confidence).toBeLessThan(1);
    expect(typo.witness.flatMap((w) => w.items)).toContainEqual({ word: "deleet", kind: "fuzzy", matched: "delete" });
    // A typo of a word no input spells that way still goes to the template.
    expect(ask(npc, "remvoe a file")).toMatchObject({ status: "template match", intent: "delete_last" });
    // word_threshold bounds the correction as in the probabilistic stage.
    const strict = await build({ ...spec, config: { wordThreshold: 0.95 } });
    expect(ask(strict, "deleet a file").intent).not.toBe("delete_file");
  });

  it("does not depend on word order, and is deterministic", () => {
    const words = ["remove", "empty", "the", "directories", "show", "memory", "usage", "make", "new", "folder", "shwo", "xyzzy", "notes.txt"];
    fc.assert(
      fc.property(fc.shuffledSubarray(words, { minLength: 1 }), fc.nat(), (picked, seed) => {
        const rotated = [...picked.slice(seed % picked.length), ...picked.slice(0, seed % picked.length)];
        const a = ask(npc, picked.join(" "));
        const b = ask(npc, rotated.join(" "));
        expect(b.intent).toBe(a.intent);
        expect(b.confidence).toBe(a.confidence);
        expect(b.related.map((r) => r.intent)).toEqual(a.related.map((r) => r.intent));
      }),
      { numRuns: 300 },
    );
  });

  it("never fails on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const answer = ask(npc, text);
        expect(answer.witness.some((w) => w.note?.startsWith("internal error"))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe("concepts and WordNet knowledge (build time)", () => {
  it("builds the same concepts whatever the order of the synonym sets", () => {
    const ir = npcIr(TOOLS);
    const reversed = [...ir.synonyms].reverse();
    expect(computeConcepts(reversed, null, 0.9)).toEqual(computeConcepts(ir.synonyms, null, 0.9));
  });

  it("expands the dataset's words with WordNet synonyms and derivations, deterministically", () => {
    const ir = npcIr(TOOLS);
    const { synonyms } = wordnetExpansion(ir);
    expect(synonyms.get("remove")).toContain("take");
    expect(synonyms.get("delete")).toContain("erase");
    expect(synonyms.get("create")).toContain("creation");
    expect([...wordnetExpansion(ir).synonyms]).toEqual([...synonyms]);
  });

  it("lets a WordNet synonym answer, weaker than the dataset's own words, with the same runtime", async () => {
    const plain = await build(TOOLS);
    const withWordnet = await build(TOOLS, { lexicalExpansion: wordnetExpansion });
    const answer = ask(withWordnet, "erase empty directories");
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "remove_empty_dirs" });
    expect(answer.confidence).toBeGreaterThan(ask(plain, "erase empty directories").confidence);
    expect(answer.confidence).toBeLessThan(ask(withWordnet, "delete empty directories").confidence);
  });
});
