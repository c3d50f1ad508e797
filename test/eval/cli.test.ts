// `ndfc eval` with CSV cases and --cross-validate: the text report's sections, the --json fields
// (the names --help documents), progress on stderr, and the exit codes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";
import { writeLetters } from "./letters-npc.js";

let dir: string;
let letters: string;
let bundle: string;
beforeAll(async () => {
  dir = tempDir("eval-cli");
  letters = writeLetters();
  bundle = join(dir, "letters.npc");
  const built = await runCaptured(["build", letters, "--output", bundle], dir);
  expect(built.code, built.err).toBe(0);
  writeFileSync(join(dir, "cases.csv"), "text,category\nalpha one,alpha\nbravo one,alpha\nbravo four,alpha\ncharlie one,bravo\nbravo two,bravo\nzzz qqq,charlie\nalpha one,\n");
});

const REPORT_FIELDS = [
  "cases", "correct", "accuracy", "answered", "answeredCorrect", "precision", "asked", "rejected", "rejectionRate", "statuses",
  "inScope", "offTopic", "reachable", "suggested", "permission", "latencyUs", "intents", "averages", "confusions",
  "confidenceHistogram", "failures",
];

describe("ndfc eval on CSV cases", () => {
  it("--json has every documented field with stable names", async () => {
    const run = await runCaptured(["eval", bundle, "cases.csv", "--json"], dir);
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(run.out) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(REPORT_FIELDS);
    expect(report.intents).toEqual([
      { intent: "alpha", support: 3, answered: 2, correct: 1, precision: 0.5, recall: 1 / 3, f1: 0.4 },
      { intent: "bravo", support: 2, answered: 3, correct: 1, precision: 1 / 3, recall: 0.5, f1: 0.4 },
      { intent: "charlie", support: 1, answered: 1, correct: 0, precision: 0, recall: 0, f1: 0 },
    ]);
    expect(Object.keys(report.averages as object)).toEqual(["intents", "support", "macro", "weighted"]);
    expect(Object.keys((report.averages as { macro: object }).macro)).toEqual(["precision", "recall", "f1"]);
    expect((report.confusions as object[])[0]).toEqual({ expected: "alpha", answered: "bravo", count: 2, example: "bravo one" });
    const bins = report.confidenceHistogram as object[];
    expect(bins).toHaveLength(10);
    expect(Object.keys(bins[0]!)).toEqual(["from", "to", "correct", "wrong", "asked", "rejected"]);
    expect(Object.keys((report.failures as object[])[0]!)).toEqual(["input", "line", "expected", "status", "intent", "response"]);
  });

  it("prints the lists shortened, saying which option shows more, and the histogram", async () => {
    const run = await runCaptured(["eval", bundle, "cases.csv", "--show-intents", "2", "--show-confusions", "1", "--show-failures", "1"], dir);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^macro avg {8}precision 27\.8 %, recall 27\.8 %, F1 26\.7 % over 3 intents$/m);
    expect(run.out).toContain("lowest F1 (2 of 3 intents; --show-intents N for more):");
    expect(run.out).toContain(
      [
        "  intent   support  answered  precision  recall      F1",
        "  charlie        1         1      0.0 %   0.0 %   0.0 %",
        "  alpha          3         2     50.0 %  33.3 %  40.0 %",
      ].join("\n"),
    );
    expect(run.out).toContain(["most confused (1 of 3 pairs; --show-confusions N for more):", "  count  expected → answered  example", '      2  alpha → bravo        "bravo one"'].join("\n"));
    expect(run.out).toMatch(/^ {2}0\.9–1\.0 +2 +4 +0 +0 +#+x+$/m);
    expect(run.out).toMatch(/^ {2}0\.0–0\.1 +0 +0 +0 +1 +\.+$/m);
    expect(run.out).toContain("failures (1 of 5 failures; --show-failures N for more):\n  line 3:");
  });

  it("reports a malformed CSV case as file:line with exit 2", async () => {
    writeFileSync(join(dir, "bad.csv"), 'text,category\nok,alpha\nsay "hi",alpha\n');
    expect(await runCaptured(["eval", bundle, "bad.csv"], dir)).toMatchObject({ code: 2, err: expect.stringContaining("bad.csv:3: a quote inside an unquoted field") });
  });
});

describe("ndfc eval --cross-validate", () => {
  it("scores the NPC on its own phrasings, with progress on stderr and the summary in --json", async () => {
    const run = await runCaptured(["eval", letters, "--cross-validate", "2", "--json"], dir);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(/^cross-validation: fold 1 of 2 \(\d+ phrasings held out\)\ncross-validation: fold 2 of 2 \(\d+ phrasings held out\)\n$/);
    const report = JSON.parse(run.out) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual([...REPORT_FIELDS, "crossValidation"]);
    expect(report.crossValidation).toEqual({ folds: 2, seed: 0, heldOut: 10, intents: 4, skipped: { intents: 1, inputs: 2, followUpInputs: 0 } });
    expect((report.failures as { file?: string }[]).every((f) => f.file?.startsWith("dataset/dataset_"))).toBe(true);
    const text = await runCaptured(["eval", letters, "--cross-validate", "2", "--seed", "3"], dir);
    expect(text.out).toMatch(/^cross-validation 2 folds, seed 3: 10 phrasings of 4 intents, each held out of one fold\nnot tested {7}1 intent\(s\) with a single phrasing \(2 input\(s\)\)\ncases {12}10$/m);
    expect(text.out).toMatch(/^ {2}dataset\/dataset_e\.json:\d+: "(xylophone|quartz)" expected \{"intent":"echo"\}, got rejected$/m);
  });

  it("--wordnet builds each fold as ndfc build --wordnet: a phrasing is understood from a WordNet synonym", async () => {
    const entry = (intent: string, input: string[]) => ({ intent, input, output: intent, permission: "yolo" });
    const shop = writeTree(tempDir("eval-wordnet"), {
      "config.json": JSON.stringify({ npc_name: "Shop" }),
      "dataset/dataset_x.json": JSON.stringify([entry("shop", ["purchase a ticket", "buy a ticket"]), entry("music", ["sing a song", "hum a song"])]),
    });
    const shopCorrect = async (...options: string[]) => {
      const run = await runCaptured(["eval", shop, "--cross-validate", "2", "--json", ...options], dir);
      expect(run.code, run.err).toBe(0);
      return (JSON.parse(run.out) as { intents: { intent: string; correct: number }[] }).intents.find((m) => m.intent === "shop")?.correct ?? 0;
    };
    // Without WordNet "buy" and "purchase" share nothing, and "ticket" alone is too little; with it
    // each is a synonym of the other and lifts what "ticket" nearly makes (a relative alone makes no
    // match: test/matching/wordnet-own-evidence.test.ts).
    expect(await shopCorrect()).toBe(0);
    expect(await shopCorrect("--wordnet")).toBeGreaterThan(0);
  });

  it("exits 1 under --min-accuracy (echo's phrasings can never be right), 0 at or above it", async () => {
    const floor = await runCaptured(["eval", letters, "--cross-validate", "2", "--min-accuracy", "1"], dir);
    expect(floor.code).toBe(1);
    expect(floor.err).toMatch(/accuracy [\d.]+ % is below --min-accuracy 1/);
    expect((await runCaptured(["eval", letters, "--cross-validate", "2", "--min-accuracy", "0"], dir)).code).toBe(0);
  });

  it("refuses what it cannot do with exit 2 and says why", async () => {
    const usage = async (argv: string[], message: RegExp) => expect(await runCaptured(argv, dir)).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    await usage(["eval", bundle], /needs a cases file after the bundle \(or --cross-validate K and an NPC directory\)/);
    await usage(["eval", letters, "cases.csv", "--cross-validate", "2"], /give the NPC directory without a cases file/);
    await usage(["eval", letters, "--cross-validate", "1"], /a whole number of folds, at least 2/);
    await usage(["eval", letters, "--cross-validate", "two"], /a whole number of folds, at least 2/);
    await usage(["eval", bundle, "--cross-validate", "3"], /needs the NPC's source directory, not a bundle/);
    await usage(["eval", bundle, "cases.csv", "--seed", "1"], /--seed and --wordnet only go with --cross-validate/);
    await usage(["eval", join(dir, "missing"), "--cross-validate", "2"], /missing/);
    const broken = writeTree(tempDir("eval-broken"), { "config.json": "{}", "dataset/dataset_x.json": "[{]" });
    await usage(["eval", broken, "--cross-validate", "2"], /cannot cross-validate: \d+ lint error\(s\); fix them/);
  });
});
