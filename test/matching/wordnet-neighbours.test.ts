// WordNet neighbours (ndfc build --wordnet, compiler/wordnet.ts): the narrower, broader and
// similar words of a dataset word's first sense become weak concepts of two, so a request naming a
// kind of the thing ("tremor" for "earthquake") reaches the entry; `"wordnet_neighbours": false`
// leaves them out.
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { computeConcepts, LEXICAL_SCALE, NEIGHBOUR_SCALE } from "../../compiler/passes/compute-concepts.js";
import { wordnetExpansion } from "../../compiler/wordnet.js";
import { loadNpc } from "../../runtime/index.js";
import { stem } from "../../runtime/text/stem.js";
import { npcIr, type NpcSpec } from "../runtime/ir-fixture.js";

const QUAKES: NpcSpec = {
  lists: { stop_words: ["the", "me", "about"] },
  intents: [
    { id: "earthquakes", inputs: ["show the latest earthquakes", "tell me about recent earthquakes"], outputs: ["Here."], permission: "yolo" },
    { id: "memory", inputs: ["show memory usage", "how much ram is free"], outputs: ["ok"], permission: "yolo" },
    { id: "empty_dirs", inputs: ["remove empty folders"], outputs: ["ok"], command: "find . -type d -empty -delete" },
  ],
};

describe("WordNet neighbours", () => {
  it("reads narrower, broader and similar words of the first sense, apart from the synonyms, deterministically", () => {
    const ir = npcIr(QUAKES);
    const { synonyms, neighbours } = wordnetExpansion(ir);
    expect(neighbours.get("earthquakes")).toContain("tremor"); // narrower: a kind of earthquake (read through its base form)
    expect(neighbours.get("empty")).toContain("vacant"); // similar adjective
    for (const [word, near] of neighbours) for (const other of near) expect(synonyms.get(word) ?? []).not.toContain(other);
    expect([...wordnetExpansion(npcIr(QUAKES)).neighbours]).toEqual([...neighbours]);
  });

  it("makes one weaker concept of two per neighbour, so two neighbours of a word never stand for each other", () => {
    const expansion = { synonyms: new Map([["delete", ["erase"]]]), neighbours: new Map([["earthquake", ["tremor", "seaquake"]]]) };
    const concepts = computeConcepts([], expansion, 0.9);
    expect(concepts).toContainEqual({ stems: [stem("delete"), stem("erase")], weight: 0.9 * LEXICAL_SCALE });
    expect(concepts).toContainEqual({ stems: [stem("earthquake"), stem("tremor")], weight: 0.9 * NEIGHBOUR_SCALE });
    expect(concepts).toContainEqual({ stems: [stem("earthquake"), stem("seaquake")], weight: 0.9 * NEIGHBOUR_SCALE });
    expect(concepts.some((c) => c.stems.includes(stem("tremor")) && c.stems.includes(stem("seaquake")))).toBe(false);
    expect(NEIGHBOUR_SCALE).toBeLessThan(LEXICAL_SCALE);
  });

  it("lets a narrower word reach its entry, and config wordnet_neighbours false takes that away", async () => {
    const withNeighbours = await loadNpc(compileNpc(npcIr(QUAKES), { lexicalExpansion: wordnetExpansion }).bytes);
    const off = npcIr({ ...QUAKES, config: { extra: { wordnet_neighbours: false } } });
    const without = await loadNpc(compileNpc(off, { lexicalExpansion: wordnetExpansion }).bytes);
    const message = "show the latest tremors";
    const answer = withNeighbours.session().process(message);
    expect(answer).toMatchObject({ status: "probabilistic match", intent: "earthquakes" });
    const items = answer.witness.find((w) => w.stage === "probabilistic")!.items;
    expect(items).toContainEqual({ word: "tremors", kind: "synonym", matched: stem("earthquakes") });
    expect(without.session().process(message).confidence).toBeLessThan(answer.confidence);
    expect(wordnetExpansion(off).neighbours.size).toBe(0);
  });
});
