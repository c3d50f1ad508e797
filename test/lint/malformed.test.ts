// Malformed input never produces a stack trace: each case gets a located message and exit 1 or 2.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

const work = tempDir("malformed");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const config = JSON.stringify({ npc_name: "Probe" });
const entry = { input: ["hello there"], output: "Hi.", permission: "yolo" };

function npc(name: string, files: Record<string, string | Uint8Array>): string {
  return writeTree(join(work, name), files);
}

async function lintJson(dir: string) {
  const run = await runCaptured(["lint", dir, "--format", "json"], work);
  expect(run.err).not.toMatch(/internal error|\n\s+at /);
  const rows = run.out ? (JSON.parse(run.out) as { code: string; file: string; line: number; column: number; message: string }[]) : [];
  return { ...run, rows };
}

describe("malformed NPC sources", () => {
  it("a missing directory is a usage error (exit 2) naming the path", async () => {
    const run = await runCaptured(["lint", join(work, "nowhere")], work);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/nowhere: no such file or directory/);
    expect(run.err).not.toMatch(/\n\s+at /);
  });

  it("a missing config.json is an error located at the expected path", async () => {
    const dir = npc("no-config", { "dataset/dataset_a.json": JSON.stringify([entry]) });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF007", file: "no-config/config.json", line: 1, column: 1 }));
  });

  it("an invalid config.json is reported at the offending value", async () => {
    const dir = npc("bad-config", {
      "config.json": '{\n  "npc_name": "X",\n  "sentence_threshold": "high"\n}\n',
      "dataset/dataset_a.json": JSON.stringify([entry]),
    });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF003", file: "bad-config/config.json", line: 3, column: 25 }));
  });

  it("truncated JSON is a syntax error at the end of the text", async () => {
    const dir = npc("truncated", { "config.json": config, "dataset/dataset_a.json": '[\n  {\n    "input": ["hi"],\n    "output": "Hel' });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    const syntax = rows.find((r) => r.code === "NDF002")!;
    expect(syntax.file).toBe("truncated/dataset/dataset_a.json");
    expect(syntax.line).toBe(4);
    expect(syntax.message).toMatch(/invalid JSON/);
  });

  it("a dataset file holding an object instead of an array is a schema error at 1:1", async () => {
    const dir = npc("object-file", { "config.json": config, "dataset/dataset_a.json": JSON.stringify(entry) });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF003", line: 1, column: 1, message: "the file must be array" }));
  });

  it("a template node without `tag` is a schema error at that node", async () => {
    const template = [{ type: "template", structure: [[{ type: "vocab", required: true }]], output: "x" }];
    const dir = npc("no-tag", { "config.json": config, "dataset/templates_a.json": JSON.stringify(template, null, 2) });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    const missing = rows.find((r) => r.code === "NDF003")!;
    expect(missing.message).toBe('"0.structure.0.0" is missing the required key "tag"');
    expect([missing.line, missing.column]).toEqual([6, 9]);
  });

  it("a 50 MB file is refused without being read", async () => {
    const dir = npc("huge", { "config.json": config });
    writeTree(dir, { "dataset/dataset_big.json": "" });
    writeFileSync(join(dir, "dataset/dataset_big.json"), Buffer.alloc(50 * 1024 * 1024, 0x20));
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF001", file: "huge/dataset/dataset_big.json", line: 1, column: 1 }));
    expect(rows.find((r) => r.code === "NDF001")!.message).toMatch(/50\.0 MB/);
  });

  it("non-UTF-8 bytes are reported at their line and column", async () => {
    const bytes = Buffer.concat([Buffer.from('[\n  {"input": ["caf'), Buffer.from([0xe9]), Buffer.from('"], "output": "x"}\n]\n')]);
    const dir = npc("latin1", { "config.json": config, "dataset/dataset_a.json": bytes });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(1);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF001", line: 2, column: 18, message: "file is not valid UTF-8 (save it as UTF-8)" }));
  });

  it("files named dataset.json / templates.json load with a warning", async () => {
    const dir = npc("misnamed", { "config.json": config, "dataset/dataset.json": JSON.stringify([entry]) });
    const { code, rows } = await lintJson(dir);
    expect(code).toBe(0);
    expect(rows).toContainEqual(expect.objectContaining({ code: "NDF005", file: "misnamed/dataset/dataset.json" }));
  });
});
