// Diagnostics deep inside a big NDF templates file keep their exact file:line:column: the loader
// reads offsets while parsing and turns them into lines only for what it reports, so this checks
// that what the lint prints is where the text really is, far from the start of a ~1 MB file.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

const work = tempDir("deep-locations");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENTRIES = 2_000;
const DEEP = 1_873;

/** A templates file of ENTRIES intents; entry DEEP has an unknown node key and an invalid permission. */
function bigTemplates(): string {
  const entries = Array.from({ length: ENTRIES }, (_, i) => ({
    intent: `intent_${i}`,
    type: "template",
    structure: [
      [
        { tag: `<||vocab_${i}||>`, type: "vocab", required: true },
        { tag: "<||name||>", type: "string", required: true, ...(i === DEEP ? { wieght: 2 } : {}) },
      ],
    ],
    output: "Done <||name||>.",
    permission: i === DEEP ? "sometimes" : "yolo",
  }));
  return JSON.stringify(entries, null, 2);
}

/** 1-based line and column of the first occurrence of `needle`, counted here from the text itself. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}

describe("diagnostics deep in a big NDF file", () => {
  it("are located at the line and column the text has there", async () => {
    const templates = bigTemplates();
    const dir = writeTree(join(work, "big"), {
      "config.json": JSON.stringify({ npc_name: "Big" }),
      "dataset/templates_big.json": templates,
    });
    const run = await runCaptured(["lint", dir, "--format", "json"], work);
    expect(run.err).not.toMatch(/internal error|\n\s+at /);
    const rows = JSON.parse(run.out) as { code: string; file: string; line: number; column: number; message: string }[];
    const unknownKey = positionOf(templates, '"wieght"');
    const permission = positionOf(templates, '"sometimes"');
    expect(unknownKey.line).toBeGreaterThan(20_000);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF004", file: "big/dataset/templates_big.json", ...unknownKey }));
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF003", file: "big/dataset/templates_big.json", ...permission }));
  });
});
