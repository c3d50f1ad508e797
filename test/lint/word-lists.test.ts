// RND001 (issue 13 item 2): a word list that refers to itself, directly or through other lists,
// or that fans out past what one answer renders, is reported where vocabulary.json declares it.
// `"amp": ["<||amp||>" × 300]` with `unknown: ["<||amp||>"]` used to lint with 0 warnings.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RENDER_LIMITS } from "../../runtime/render/render.js";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

const work = tempDir("word-lists");
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Row {
  code: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

/** Lints an NPC whose vocabulary.json holds `vocabulary` and returns its RND001 rows. */
async function wordListRows(name: string, vocabulary: Record<string, string[]>): Promise<Row[]> {
  const dir = writeTree(join(work, name), {
    "config.json": JSON.stringify({ name: "Lists" }),
    "dataset/vocabulary/vocabulary.json": vocabularyText(vocabulary),
    "dataset/personality.json": JSON.stringify([{ unknown: ["<||amp||>"] }, { intent: "greet", input: ["hello"], output: ["<||greeting||>"] }]),
  });
  const run = await runCaptured(["lint", dir, "--format", "json"], work);
  expect(run.err).not.toMatch(/internal error|\n\s+at /);
  return (JSON.parse(run.out) as Row[]).filter((row) => row.code === "RND001");
}

const vocabulary = `${join("dataset", "vocabulary", "vocabulary.json")}`;

/** vocabulary.json with one list per line, after the opening brace: list k sits at line k + 2, column 3. */
function vocabularyText(lists: Record<string, string[]>): string {
  return `{\n${Object.entries(lists).map(([key, words]) => `  ${JSON.stringify(key)}: ${JSON.stringify(words)}`).join(",\n")}\n}\n`;
}

describe("RND001: word lists that expand without end or past the render limit", () => {
  it("reports the self-amplifying list once, at its key in vocabulary.json, saying what to do", async () => {
    const rows = await wordListRows("amp", { greeting: ["Hi"], amp: ["<||amp||>".repeat(300)] });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ severity: "warning", file: expect.stringContaining(vocabulary), line: 3, column: 3 });
    expect(rows[0]!.message).toMatch(/word list "amp" refers to itself \(amp → amp\).*write the text out/);
  });

  it("names the lists a loop goes through", async () => {
    const rows = await wordListRows("loop", { greeting: ["Hi"], amp: ["x"], a: ["one <||b||>"], b: ["two <||c||>"], c: ["three <||a||>", "end"] });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 4, column: 3 });
    expect(rows[0]!.message).toMatch(/"a" refers to itself through "b", "c" \(a → b → c → a\)/);
  });

  it("reports a list that fans out past the limit where the growth starts, not the lists above it", async () => {
    const rows = await wordListRows("fan-out", {
      greeting: ["<||wide||>"],
      amp: ["x"],
      wide: ["<||mid||>".repeat(100)],
      mid: ["<||leaf||>".repeat(100)],
      leaf: ["xyz"],
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 4, column: 3 });
    // 201 pieces of its item, plus 100 × (201 of mid's item + 100 × 1 of leaf's)
    expect(rows[0]!.message).toMatch(new RegExp(`"wide" can expand to 30301 texts and tags \\(the limit is ${RENDER_LIMITS.pieces}\\)`));
  });

  it("stays quiet on lists that refer to other lists within the limits", async () => {
    const rows = await wordListRows("healthy", { greeting: ["<||hello||>, <||name||>", "Hey"], hello: ["Hello", "Hi"], name: ["friend"], amp: ["x"] });
    expect(rows).toEqual([]);
  });
});
