// Concept features of the learned stage: a word of a concept (a dataset synonym set; WordNet's
// relatives are the lexical stage's only) brings the concept's feature, so a synonym no phrasing spells still reaches what the
// model learned from the others. The table (compiler/learn/concept-table.ts) against its
// definition, the features, and an NPC end to end.
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { conceptTable, keptConcepts } from "../../compiler/learn/concept-table.js";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { learnedIndexFor } from "../../runtime/index.js";
import { learnedEvidence } from "../../runtime/match/learned-evidence.js";
import { CONCEPT_START, conceptFeature, conceptKey, featureWords, forEachFeature, type ConceptTable } from "../../runtime/match/learned-features.js";
import type { LearnedScores } from "../../runtime/match/match-learned.js";
import { tokenize } from "../../runtime/text/normalize.js";
import { validatePayload } from "../../runtime/bundle/validate-payload.js";
import { storedPayload } from "../../runtime/bundle/encode.js";
import { tempDir, writeTree } from "../support/cli.js";
import { ENTRIES } from "./fixture.js";

function lookedUp(table: ConceptTable | null, word: string): number[] {
  const out: number[] = [];
  table?.forEach(conceptKey(word), 0, (hash) => out.push(hash));
  return out;
}

const stems = fc.constantFrom("joke", "gag", "jest", "quip", "pun", "song", "tune", "poem", "verse");

describe("the concept table", () => {
  it("gives each stem the features of exactly the concepts it belongs to", () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(stems, { minLength: 2, maxLength: 4 }), { maxLength: 5 }), (sets) => {
        const concepts = sets.map((s) => ({ stems: [...s].sort(), weight: 0.9 }));
        const table = conceptTable(concepts);
        for (const stem of ["joke", "gag", "jest", "quip", "pun", "song", "tune", "poem", "verse", "unrelated"]) {
          const expected = concepts.flatMap((c, id) => (c.stems.some((s) => s === stem) ? [conceptFeature(id)] : []));
          expect(lookedUp(table, stem).sort()).toEqual([...new Set(expected)].sort());
        }
      }),
      { numRuns: 200, seed: 14 },
    );
  });

  it("keeps only the concept features asked for, and is null when none is left", () => {
    const table = conceptTable([
      { stems: ["gag", "joke"], weight: 0.9 },
      { stems: ["joke", "pun"], weight: 0.9 },
    ])!;
    const kept = keptConcepts(table, (feature) => feature === conceptFeature(1));
    expect(lookedUp(kept, "joke")).toEqual([conceptFeature(1)]);
    expect(lookedUp(kept, "gag")).toEqual([]);
    expect(lookedUp(kept, "pun")).toEqual([conceptFeature(1)]);
    expect(keptConcepts(table, () => false)).toBeNull();
    expect(conceptTable([])).toBeNull();
  });

  it("adds a concept feature after a member word's own feature, none without a table", () => {
    const table = conceptTable([{ stems: ["gag", "joke"], weight: 0.9 }]);
    const { tokens } = tokenize("tell me a gag");
    const words = featureWords(tokens);
    const origins: [number, number][] = [];
    forEachFeature(tokens, words, (hash, token, start) => start === CONCEPT_START && origins.push([hash, token]), table);
    expect(origins).toEqual([[conceptFeature(0), 3]]);
    const without: number[] = [];
    forEachFeature(tokens, words, (_hash, _token, start) => start === CONCEPT_START && without.push(start));
    expect(without).toEqual([]);
  });
});

/** The test NPC of fixture.ts, with a synonym set naming a word none of its inputs uses ("garbage"). */
function writeNpc(withSynonyms: boolean): string {
  const files: Record<string, string> = {
    "config.json": JSON.stringify({ npc_name: "Shelly", matcher: "learned" }),
    [join("dataset", "dataset_shell.json")]: JSON.stringify(ENTRIES, null, 2),
  };
  if (withSynonyms) files[join("dataset", "vocabulary", "templates.json")] = JSON.stringify({ "<||vocab_trash||>": ["trash", "garbage", "rubbish"] });
  return writeTree(tempDir("concepts"), files);
}

describe("concept features end to end", () => {
  it("bring a synonym no input spells closer to the entry its set belongs to, and name the concept when explaining", async () => {
    const withSynonyms = compileNpc(lintSources([writeNpc(true)]).ir);
    const without = compileNpc(lintSources([writeNpc(false)]).ir);
    expect(validatePayload(storedPayload(withSynonyms.payload), withSynonyms.bytes.length)).toBeNull();
    expect(withSynonyms.payload.learned!.conceptKeys.length).toBeGreaterThan(0);
    expect(without.payload.learned!.conceptKeys.length).toBe(0);
    const trash = withSynonyms.payload.intents.findIndex((i) => i.id === "trash_empty");
    /** How far trash_empty's score is below the winner's (negative: it wins by that much). */
    const gap = (scores: LearnedScores) => (scores.topIntent === trash ? -scores.margin : scores.runnerUpIntent === trash ? scores.margin : Infinity);
    const index = (await learnedIndexFor(withSynonyms.payload))!;
    const plain = (await learnedIndexFor(without.payload))!;
    for (const message of ["take out the garbage", "toss the rubbish"]) {
      const { tokens } = tokenize(message);
      expect(gap(index.score(tokens)), message).toBeLessThan(gap(plain.score(tokens)));
      const trashClass = withSynonyms.payload.learned!.intents.indexOf(trash);
      const evidence = learnedEvidence(index, tokens, trashClass, 3);
      expect(evidence.find((e) => e.feature.startsWith("k:"))?.weight, message).toBeGreaterThan(0);
    }
  });

  it("come from the dataset's synonym sets only: a lexical expansion (--wordnet) reaches the lexical stage, not the model", () => {
    const ir = lintSources([writeNpc(false)]).ir;
    const plain = compileNpc(ir);
    const expanded = compileNpc(ir, { lexicalExpansion: () => ({ synonyms: new Map([["trash", ["garbage", "rubbish"]]]), neighbours: new Map() }) });
    expect(expanded.payload.learned).toEqual(plain.payload.learned);
    expect(expanded.payload.learned!.conceptKeys.length).toBe(0);
    expect(expanded.payload.matching.concepts).not.toEqual(plain.payload.matching.concepts);
  });

  it("are refused when the concept table does not fit together", async () => {
    const built = compileNpc(lintSources([writeNpc(true)]).ir);
    const learned = built.payload.learned!;
    const keys = learned.conceptKeys.slice();
    keys[1] = keys[0]!;
    const broken = { conceptOffsets: learned.conceptOffsets.subarray(1), conceptKeys: keys };
    const messages = { conceptOffsets: "learned.conceptOffsets: not one per concept key, and one more", conceptKeys: "learned.conceptKeys: not ascending at 1" };
    for (const [field, bytes] of Object.entries(broken)) {
      await expect(learnedIndexFor({ ...built.payload, learned: { ...learned, [field]: bytes } })).rejects.toThrow(messages[field as keyof typeof messages]);
    }
    // A bundle does not reach the index with arrays that are not u32 at all.
    expect(validatePayload(storedPayload({ ...built.payload, learned: { ...learned, conceptFeatures: Uint8Array.from(learned.conceptFeatures) as unknown as Uint32Array } }), built.bytes.length)).toBe("learned.conceptFeatures: expected a Uint32Array section");
  });
});
