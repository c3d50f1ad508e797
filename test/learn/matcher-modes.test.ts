// Config `matcher`: "auto" (the default) ships the learned stage only when cross-validation says
// it answers enough held-out phrasings (MIN_COVERAGE) and skips training when intents have too
// few phrasings; "learned" forces it, "lexical" leaves it out. The decision is in the bundle for
// `ndfc inspect`, and `ndfc build` prints it when a measurement left the stage out.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { PRUNE_LEVELS } from "../../compiler/learn/int8-model.js";
import { coverage, MIN_COVERAGE, MIN_MEDIAN_PHRASINGS, TARGET_PRECISION } from "../../compiler/passes/compute-learned.js";
import { repoRoot } from "../support/repo-root.js";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";
import { ENTRIES, writeLearnedNpc } from "./fixture.js";

/** Two entries of two phrasings each: too few for auto to train. */
function writeTinyNpc(config: Record<string, unknown>): string {
  return writeTree(tempDir("tiny-learned"), {
    "config.json": JSON.stringify({ npc_name: "Tiny", ...config }),
    [join("dataset", "dataset_tiny.json")]: JSON.stringify([
      { intent: "greet", input: ["hello there", "good morning"], output: "Hi." },
      { intent: "bye", input: ["goodbye now", "see you later"], output: "Bye." },
    ]),
  });
}

const build = (dir: string) => compileNpc(lintSources([dir]).ir);

describe('config "matcher"', () => {
  const autoFixture = build(writeLearnedNpc({ matcher: undefined }));

  const target = (TARGET_PRECISION * 100).toFixed(1).replace(".", "\\.");

  it("auto is the default and leaves the stage out when cross-validation answers too few held-out phrasings", () => {
    const { summary, payload } = autoFixture;
    expect(payload.learned).toBeNull();
    expect(summary.learnedShipped).toBe(false);
    expect(summary.learned).not.toBeNull();
    expect(coverage(summary.learned!)).toBeLessThan(MIN_COVERAGE);
    expect(summary.learned!.cases).toBe(49);
    expect(payload.config.learnedNote).toMatch(new RegExp(`^left out: cross-validation answered \\d+\\.\\d % of 49 held-out phrasings correctly at ${target} % precision \\(auto needs 66\\.7 %; "matcher": "learned" forces the stage\\)$`));
    const explicit = build(writeLearnedNpc({ matcher: "auto" }));
    expect({ learned: explicit.payload.learned, note: explicit.payload.config.learnedNote }).toEqual({ learned: null, note: payload.config.learnedNote });
  });

  it("auto stops after the first fold when it is clearly below (six phrasings an entry)", () => {
    const dir = writeTree(tempDir("learned-six"), {
      "config.json": JSON.stringify({ npc_name: "Shelly" }),
      [join("dataset", "dataset_shell.json")]: JSON.stringify(ENTRIES.map((entry) => ({ ...entry, input: entry.input.slice(0, 6) }))),
    });
    const { summary, payload } = build(dir);
    expect(payload.learned).toBeNull();
    // 12 of the 36 phrasings are fold 0's: far enough below two thirds that the other folds and the model are not trained.
    expect(coverage(summary.learned!)).toBeLessThan(MIN_COVERAGE - 0.05);
    expect(summary.learned!.cases).toBe(12);
    expect(payload.config.learnedNote).toMatch(new RegExp(`^left out: the first of 3 cross-validation folds answered \\d+\\.\\d % of 12 held-out phrasings correctly at ${target} % precision \\(auto needs 66\\.7 %; "matcher": "learned" forces the stage\\)$`));
  });

  it("auto ships the stage when cross-validation answers enough of the held-out phrasings (datasets/shell)", () => {
    const { summary, payload } = build(join(repoRoot, "datasets/shell"));
    expect(coverage(summary.learned!)).toBeGreaterThanOrEqual(MIN_COVERAGE);
    expect(payload.learned).not.toBeNull();
    expect(payload.config.learnedNote).toMatch(/^shipped: cross-validation answered \d+\.\d % of \d+ held-out phrasings/);
    // The pruning level cross-validation chose is named, and no weight under it ships.
    const level = Number(/weights below (\d+)\/127 pruned/.exec(payload.config.learnedNote)?.[1]);
    expect(PRUNE_LEVELS).toContain(level);
    const weights = new Int8Array(payload.learned!.weights.buffer, payload.learned!.weights.byteOffset, payload.learned!.weights.length);
    expect(weights.length).toBeGreaterThan(0);
    expect(weights.every((w) => Math.abs(w) >= level)).toBe(true);
  });

  it("auto does not train when the intents' median number of phrasings is below the minimum; learned does", () => {
    const auto = build(writeTinyNpc({}));
    expect(auto.summary.learned).toBeNull();
    expect(auto.payload.learned).toBeNull();
    expect(auto.payload.config.learnedNote).toContain(`a median of 2 phrasings per entry is too few to learn from (auto needs ${MIN_MEDIAN_PHRASINGS}`);
    const forced = build(writeTinyNpc({ matcher: "learned", learned_threshold: 0.5 }));
    expect(forced.summary.learned).not.toBeNull();
    expect(forced.payload.learned).not.toBeNull();
  });

  it("learned forces the stage where auto leaves it out; lexical leaves it out without training", () => {
    const forced = build(writeLearnedNpc({ matcher: "learned" }));
    expect(forced.payload.learned).not.toBeNull();
    expect(forced.payload.config.learnedNote).toMatch(/^shipped: .* \("matcher": "learned"\)$/);
    const lexical = build(writeLearnedNpc({ matcher: "lexical" }));
    expect(lexical.payload.learned).toBeNull();
    expect(lexical.summary.learned).toBeNull();
    expect(lexical.payload.config.learnedNote).toBe('left out: "matcher": "lexical"');
  });

  it("a configured learned_threshold ships the stage under auto", () => {
    const fixed = build(writeLearnedNpc({ matcher: undefined, learned_threshold: 0.75 }));
    expect(fixed.payload.learned).not.toBeNull();
    expect(fixed.payload.config.learnedThreshold).toBe(0.75);
  });

  it("ndfc build prints the measured reason in one line and ndfc inspect shows it", async () => {
    const dir = writeLearnedNpc({ matcher: undefined });
    const work = tempDir("matcher-cli");
    const built = await runCaptured(["build", dir, "-o", "shelly.npc"], work);
    expect(built.code).toBe(0);
    const lines = built.out.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`learned stage ${autoFixture.payload.config.learnedNote}`);
    const inspected = await runCaptured(["inspect", "shelly.npc"], work);
    expect(inspected.out).toContain(`learned          none (lexical matching only): ${autoFixture.payload.config.learnedNote}`);
    const quiet = await runCaptured(["build", writeTinyNpc({}), "-o", "tiny.npc"], work);
    expect(quiet.out.trimEnd().split("\n")).toHaveLength(1);
  });
});
