// compute-learned.ts on a tiny hand-built NPC (three entries of four distinct phrasings: two
// trainings of about a second each): the classes are the top-level entries with inputs, in bundle
// order, then none-of-these; each class trains on its distinct phrasings, sorted, and
// none-of-these on the generic sentences no class spells; "auto" counts distinct phrasings before
// it trains; the model ranks each entry's own phrasings first, keeps only the concepts it has
// weights for, and does not depend on the order of intents or of their inputs.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Intent, NpcIR } from "../../compiler/ir/types.js";
import { genericSentences } from "../../compiler/learn/generic-sentences.js";
import { computeConcepts, type Concept } from "../../compiler/passes/compute-concepts.js";
import { computeIntentOrder, type OrderedIntent } from "../../compiler/passes/compute-intent-order.js";
import { computeLearned, MIN_MEDIAN_PHRASINGS, trainingSet, type LearnedResult } from "../../compiler/passes/compute-learned.js";
import { conceptKey } from "../../runtime/match/learned-features.js";
import { LearnedIndex } from "../../runtime/match/match-learned.js";
import { keyOf, tokenize } from "../../runtime/text/normalize.js";
import { npcIr } from "../runtime/ir-fixture.js";

const PHRASINGS = {
  trash: ["empty the trash", "Empty the trash!", "clear the trash bin", "throw away the rubbish", "purge the trash"],
  disk: ["show disk usage", "how full is my disk", "free disk space", "check the disk"],
  memory: ["show memory usage", "how much ram is free", "check the memory", "free memory"],
};

const tinyNpc = (extra: Record<string, unknown>): NpcIR =>
  npcIr({
    config: { extra },
    synonyms: { vocab_trash: ["trash", "rubbish"], vocab_zoo: ["zebra", "okapi"] },
    intents: [
      { id: "trash", inputs: PHRASINGS.trash },
      // A template has no inputs, and a context child is no class of its own: neither is learned.
      { id: "copy", paths: ["copy src:string"] },
      { id: "disk", inputs: PHRASINGS.disk, context: [{ id: "disk_more", inputs: ["tell me more", "more please", "go on"] }] },
      { id: "memory", inputs: PHRASINGS.memory },
    ],
  });

const keysOf = (texts: readonly string[]) => texts.map((text) => keyOf(tokenize(text).tokens));
const classesOf = (ordered: readonly OrderedIntent[]) => ordered.filter((o) => o.parent === null && o.intent.inputs.length > 0);

/** The IR with its intents listed backwards and each intent's inputs reversed. */
function reversed(ir: NpcIR): NpcIR {
  const flip = (intent: Intent): Intent => ({ ...intent, inputs: [...intent.inputs].reverse(), ...(intent.context ? { context: intent.context.map(flip) } : {}) });
  return { ...ir, intents: [...ir.intents].reverse().map(flip) };
}

describe("trainingSet", () => {
  const ordered = computeIntentOrder(tinyNpc({}).intents);
  const classes = classesOf(ordered);

  it("labels each class's distinct phrasings, sorted by normalized text, in class order, then the generic sentences as none-of-these", () => {
    const samples = trainingSet(classes);
    const labelled = samples.filter((s) => s.label < classes.length).map((s) => [s.label, keyOf(s.tokens)]);
    expect(labelled).toEqual([
      [0, "clear the trash bin"],
      [0, "empty the trash"],
      [0, "purge the trash"],
      [0, "throw away the rubbish"],
      [1, "check the disk"],
      [1, "free disk space"],
      [1, "how full is my disk"],
      [1, "show disk usage"],
      [2, "check the memory"],
      [2, "free memory"],
      [2, "how much ram is free"],
      [2, "show memory usage"],
    ]);
    const none = samples.slice(labelled.length);
    expect(none.every((s) => s.label === classes.length)).toBe(true);
    expect(none.map((s) => keyOf(s.tokens))).toEqual([...new Set(keysOf(genericSentences()))]);
  });

  it("leaves out of none-of-these a generic sentence that a class spells, and keeps it in that class", () => {
    const [sentence, other] = genericSentences();
    const withGeneric = computeIntentOrder(
      npcIr({
        intents: [
          { id: "breathe", inputs: [sentence!.toUpperCase(), "breathe in"] },
          { id: "other", inputs: ["something else"] },
        ],
      }).intents,
    );
    const samples = trainingSet(withGeneric);
    const [key, otherKey] = keysOf([sentence!, other!]);
    expect(samples.filter((s) => keyOf(s.tokens) === key).map((s) => s.label)).toEqual([0]);
    expect(samples.filter((s) => keyOf(s.tokens) === otherKey).map((s) => s.label)).toEqual([2]);
    expect(samples.filter((s) => s.label === 2)).toHaveLength(new Set(keysOf(genericSentences())).size - 1);
  });

  it("gives the same samples, as training reads them, whatever order each class's inputs are listed in", () => {
    // Training reads a token's kind and normalized form (learned-features.ts forEachFeature), not its text as typed.
    const asRead = (samples: ReturnType<typeof trainingSet>) => samples.map((s) => [s.label, s.tokens.map((t) => `${t.kind}:${t.norm}`)]);
    const reference = asRead(trainingSet(classes));
    const shuffled = (o: OrderedIntent, order: readonly number[]): OrderedIntent => ({ ...o, intent: { ...o.intent, inputs: order.map((i) => o.intent.inputs[i]!) } });
    const permutation = (n: number) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n });
    fc.assert(
      fc.property(fc.tuple(...classes.map((o) => permutation(o.intent.inputs.length))), (orders) => {
        expect(asRead(trainingSet(classes.map((o, k) => shuffled(o, orders[k]!))))).toEqual(reference);
      }),
      { numRuns: 10 },
    );
  });

  it("keeps a quoted word and the same word unquoted as two phrasings, so their order in the file cannot pick the features", () => {
    // `say "running"` trains on the text "running", `say running` on the stem "run": one key would keep whichever came first.
    const asRead = (inputs: string[]) => {
      const ir = npcIr({ intents: [{ id: "say", inputs }, { id: "other", inputs: ["something else"] }] });
      return trainingSet(classesOf(computeIntentOrder(ir.intents)))
        .filter((s) => s.label === 0)
        .map((s) => s.tokens.map((t) => `${t.kind}:${t.norm}`).join(" "));
    };
    const forward = asRead(['say "running"', "say running"]);
    expect(forward).toHaveLength(2);
    expect(new Set(forward).size).toBe(2);
    expect(asRead(["say running", 'say "running"'])).toEqual(forward);
  });
});

describe("computeLearned before training", () => {
  it('"auto" counts distinct phrasings: entries whose inputs normalize alike are too few to train on', () => {
    const ir = npcIr({
      intents: [
        { id: "hello", inputs: ["Hello", "hello!", "HELLO?"] },
        { id: "bye", inputs: ["bye", "Bye.", "goodbye"] },
      ],
    });
    const result = computeLearned(computeIntentOrder(ir.intents), ir.config);
    expect(result).toEqual({
      learned: null,
      threshold: 0,
      calibration: null,
      note: `left out: a median of 1.5 phrasings per entry is too few to learn from (auto needs ${MIN_MEDIAN_PHRASINGS}; "matcher": "learned" forces the stage)`,
    });
  });

  it("needs two top-level entries with inputs, even when forced: a context child or a template does not count", () => {
    const ir = npcIr({
      config: { extra: { matcher: "learned" } },
      intents: [
        { id: "only", inputs: ["one", "two", "three"], context: [{ id: "child", inputs: ["four", "five", "six"] }] },
        { id: "template", paths: ["copy src:string"] },
      ],
    });
    const result = computeLearned(computeIntentOrder(ir.intents), ir.config);
    expect(result).toMatchObject({ learned: null, calibration: null, note: "left out: fewer than two entries with inputs" });
  });
});

describe("computeLearned's model", () => {
  const ir = tinyNpc({ matcher: "learned", learned_threshold: 0.5 });
  const ordered = computeIntentOrder(ir.intents);
  const concepts: Concept[] = computeConcepts(ir.synonyms, null, 0.5);
  let trained: LearnedResult;
  let reordered: LearnedResult;
  beforeAll(() => {
    trained = computeLearned(ordered, ir.config, concepts);
    // The same NPC listed backwards, inputs reversed, without a configured threshold.
    const other = reversed(tinyNpc({ matcher: "learned" }));
    reordered = computeLearned(computeIntentOrder(other.intents), other.config, computeConcepts(other.synonyms, null, 0.5));
  });

  it("has one class per top-level entry with inputs, by bundle index, and one for none-of-these", () => {
    const learned = trained.learned!;
    const index = (id: string) => ordered.findIndex((o) => o.intent.id === id);
    expect(learned.intents).toEqual([index("trash"), index("disk"), index("memory")]);
    expect(learned.intents).not.toContain(index("copy"));
    expect(learned.intents).not.toContain(index("disk_more"));
    expect(learned.bias).toHaveLength(4);
    expect(learned.scale).toHaveLength(4);
    expect([...learned.classes].every((c) => c < 4)).toBe(true);
    expect([...learned.hashes]).toEqual([...learned.hashes].sort((a, b) => a - b));
    expect(learned.idf).toHaveLength(learned.hashes.length);
    expect(learned.offsets).toHaveLength(learned.hashes.length + 1);
    expect(learned.offsets.at(-1)).toBe(learned.weights.length);
  });

  it("takes the configured threshold, and otherwise the calibrated one, never below 0.2", () => {
    expect(trained.threshold).toBe(0.5);
    expect(trained.note).toMatch(/^shipped: .* \("matcher": "learned"\)$/);
    const calibrated = reordered.calibration!.threshold!;
    expect(reordered.threshold).toBe(Math.max(0.2, calibrated));
    expect(trained.calibration).toEqual(reordered.calibration);
  });

  it("ranks each entry first on its own phrasings and none-of-these first on generic English", () => {
    const index = new LearnedIndex(trained.learned!, trained.threshold);
    const top = (text: string) => index.score(tokenize(text).tokens).topIntent;
    for (const [id, texts] of Object.entries(PHRASINGS)) {
      const expected = ordered.findIndex((o) => o.intent.id === id);
      for (const text of texts) expect(top(text), text).toBe(expected);
    }
    for (const text of ["the children played in the garden all afternoon", "she sang a song for her grandmother"]) expect(top(text), text).toBe(-1);
  });

  it("keeps the concepts whose features the model weighs and leaves out one no phrasing uses", () => {
    const learned = trained.learned!;
    expect([...learned.conceptKeys]).toEqual([conceptKey("rubbish"), conceptKey("trash")].sort((a, b) => a - b));
    expect([...learned.conceptKeys]).not.toContain(conceptKey("zebra"));
    expect(learned.conceptOffsets).toHaveLength(learned.conceptKeys.length + 1);
  });

  it("gives the same model whatever the order of intents and of their inputs", () => {
    expect(reordered.learned).toEqual(trained.learned);
  });
});
