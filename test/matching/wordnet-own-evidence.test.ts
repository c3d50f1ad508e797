// WordNet relatives (ndfc build --wordnet) may lift a probabilistic match, not make one: the
// winner needs half the threshold from the message's own words, their typo corrections and the
// dataset's synonyms (match-probabilistic.ts, ownEvidence). The expansion here is written by hand,
// so the test does not depend on WordNet's lists.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import type { LexicalExpansion } from "../../compiler/passes/compute-concepts.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { npcIr, type NpcSpec } from "../runtime/ir-fixture.js";

const DIRS: NpcSpec = {
  synonyms: { vocab_clear: ["clear", "flush"], vocab_cache: ["cache", "stash"] },
  lists: { stop_words: ["the", "all"] },
  intents: [
    { id: "remove_empty", inputs: ["remove empty folders"], outputs: ["ok"], command: "find . -type d -empty -delete" },
    { id: "clear_cache", inputs: ["clear cache"], outputs: ["ok"], command: "rm -rf ~/.cache/x" },
    { id: "show_memory", inputs: ["show memory usage"], outputs: ["ok"], command: "free -h", permission: "yolo" },
  ],
};

/** Relatives of the dataset's words, as wordnetExpansion would give them. */
const RELATIVES: LexicalExpansion = {
  synonyms: new Map([
    ["remove", ["erase", "purge"]],
    ["empty", ["vacant", "blank"]],
    ["folders", ["binders", "portfolios"]],
  ]),
  neighbours: new Map([["memory", ["recall"]]]),
};
const RELATIVE_WORDS = [...RELATIVES.synonyms.values(), ...RELATIVES.neighbours.values()].flat();

async function build(spec: NpcSpec, expansion: LexicalExpansion | null): Promise<Npc> {
  return loadNpc(compileNpc(npcIr(spec), expansion ? { lexicalExpansion: () => expansion } : {}).bytes);
}

describe("WordNet relatives need the message's own evidence", async () => {
  const npc = await build(DIRS, RELATIVES);
  const threshold = npc.payload.config.sentenceThreshold;

  it("does not answer a message that meets an entry through relatives alone, though it scores above the threshold", () => {
    const answer = npc.session().process("erase vacant binders");
    expect(answer.status).toBe("rejected");
    // Only the own-evidence rule refused it: it ranks first, above the threshold, well ahead.
    expect(answer.related[0]).toMatchObject({ intent: "remove_empty" });
    expect(answer.related[0]!.score).toBeGreaterThanOrEqual(threshold);
  });

  it("lets the same relatives lift a match the message's own words half make", () => {
    const answer = npc.session().process("remove vacant binders");
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "remove_empty" });
    const items = answer.witness.find((w) => w.stage === "probabilistic")!.items;
    expect(items).toContainEqual({ word: "vacant", kind: "synonym", matched: "empti" });
  });

  it("counts the dataset's own synonyms as the message's evidence", () => {
    const answer = npc.session().process("flush stash");
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "clear_cache" });
    expect(answer.witness.find((w) => w.stage === "probabilistic")!.items.map((item) => item.kind)).toEqual(["synonym", "synonym"]);
  });

  it("never answers, by the probabilistic stage, a message of relatives and stop words only", () => {
    const words = fc.constantFrom(...RELATIVE_WORDS, "the", "all");
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 6 }), (message) => {
        expect(npc.session().process(message.join(" ")).status).not.toBe("probabilistic match");
      }),
      { numRuns: 300 },
    );
  });
});
