// The probabilistic stage stops looking for intents once the words left cannot lift one over the
// `limit`-th best score (MaxScore). Invariant: its ranking and its answer are those of scoring
// every intent a word finds (what it does when asked for the whole ranking). And while a context is
// active, its children win on their own inputs (scored, and their own evidence read, with the context).
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { syntheticNpc } from "../../bench/synthetic.js";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc } from "../../runtime/index.js";
import { matchProbabilistic, type RankedIntent } from "../../runtime/match/match-probabilistic.js";
import { NpcModel } from "../../runtime/bundle/model.js";
import { tokenize } from "../../runtime/text/normalize.js";
import { WordResolver } from "../../runtime/text/word-resolver.js";
import { repoRoot } from "../compile/termy-corpus.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";

async function modelOf(ir: Parameters<typeof compileNpc>[0]): Promise<NpcModel> {
  return new NpcModel((await loadNpc(compileNpc(ir).bytes)).payload);
}

/** Messages of words from `vocabulary`, function words, an unknown word and one-letter typos. */
function messageArb(vocabulary: readonly string[]): fc.Arbitrary<string> {
  const word = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...vocabulary) },
    { weight: 1, arbitrary: fc.constantFrom("the", "to", "please", "zorbly") },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...vocabulary), fc.nat()).map(([w, at]) => w.slice(0, at % w.length) + w.slice((at % w.length) + 1)) },
  );
  return fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(" "));
}

function checkSameAsExhaustive(model: NpcModel, vocabulary: readonly string[], numRuns: number): void {
  const everything = model.payload.intents.length;
  fc.assert(
    fc.property(messageArb(vocabulary), fc.integer({ min: 2, max: 8 }), (message, limit) => {
      const { tokens } = tokenize(message);
      const pruned = matchProbabilistic(model, tokens, limit, new WordResolver(model), null);
      const full = matchProbabilistic(model, tokens, everything, new WordResolver(model), null);
      expect(pruned.ranking).toEqual(full.ranking.slice(0, limit));
      expect(pruned.hit).toEqual(full.hit);
    }),
    { seed: 2026, numRuns },
  );
}

/**
 * While a context is active the whole ranking is asked for, but only its first `suggestions` (5
 * for explain) and the context's best two children must be exact: compared with the same NPC
 * told to keep every suggestion (so nothing is pruned).
 */
function checkContextMode(model: NpcModel, vocabulary: readonly string[], numRuns: number): void {
  const everything = model.payload.intents.length;
  const unpruned = new NpcModel({ ...model.payload, config: { ...model.payload.config, suggestions: everything } });
  const parents = model.payload.intents.flatMap((intent, i) => ((intent.context ?? []).length > 0 ? [i] : []));
  expect(parents.length).toBeGreaterThan(0);
  const shown = Math.max(model.payload.config.suggestions, 5);
  const read = (ranking: readonly RankedIntent[], parent: number) => ({
    first: ranking.slice(0, shown),
    children: ranking.filter((r) => model.payload.intents[r.intent]!.parent === parent).slice(0, 2),
  });
  fc.assert(
    fc.property(messageArb(vocabulary), fc.constantFrom(...parents), (message, parent) => {
      const { tokens } = tokenize(message);
      const pruned = matchProbabilistic(model, tokens, everything, new WordResolver(model), parent);
      const full = matchProbabilistic(unpruned, tokens, everything, new WordResolver(unpruned), parent);
      expect(read(pruned.ranking, parent)).toEqual(read(full.ranking, parent));
      expect(pruned.hit).toEqual(full.hit);
    }),
    { seed: 2027, numRuns },
  );
}

describe("a context's children while it is active", () => {
  it("win on their own inputs with a word more (the winner's own evidence is read with the context too)", async () => {
    const ir = lintSources([resolve(repoRoot, "datasets/termy")]).ir;
    const model = await modelOf(ir);
    const { intents } = model.payload;
    const indexOf = (id: string, parent: number | null) => intents.findIndex((intent) => intent.id === id && intent.parent === parent);
    let asked = 0;
    let won = 0;
    for (const entry of ir.intents) {
      const parent = indexOf(entry.id, null);
      for (const child of entry.context ?? []) {
        for (const input of child.inputs) {
          const { tokens } = tokenize(`${input.value} please`);
          const result = matchProbabilistic(model, tokens, 2, new WordResolver(model), parent);
          asked++;
          if (result.hit?.intent === indexOf(child.id, parent)) won++;
        }
      }
    }
    expect(asked).toBeGreaterThan(20);
    expect(won).toBeGreaterThan(asked * 0.9);
  });
});

describe("MaxScore pruning changes no ranking", () => {
  it("on a synthetic NPC (Zipf vocabulary, 3,000 inputs)", async () => {
    const synthetic = syntheticNpc(3_000, 7);
    checkSameAsExhaustive(await modelOf(synthetic.ir), synthetic.vocabulary.slice(0, 400), 300);
  });

  it("on datasets/termy (synonyms, descriptions, function words)", async () => {
    const model = await modelOf(lintSources([resolve(repoRoot, "datasets/termy")]).ir);
    checkSameAsExhaustive(model, stringsOf(model.payload.lexicon.words), 300);
  });

  it("on datasets/termy while a context is active (its best children stay exact)", async () => {
    const model = await modelOf(lintSources([resolve(repoRoot, "datasets/termy")]).ir);
    checkContextMode(model, stringsOf(model.payload.lexicon.words), 300);
  });
});
