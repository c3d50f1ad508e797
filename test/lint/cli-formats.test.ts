// `ndfc lint` output formats, exit codes and `ndfc schema`.
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, describe, expect, it } from "vitest";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

// The official SARIF 2.1.0 schema (test/fixtures/sarif). It is written for draft-04, which ajv 8
// does not read; its body uses no keyword whose meaning changed since, so only the draft-04 header
// (`$schema`, `id`) is left out. Formats (uri, date-time) are not checked; its patterns are not
// valid as unicode regexes (a stray `]`), hence unicodeRegExp off.
const { $schema: _draft, id: _id, ...sarifSchema } = JSON.parse(
  readFileSync(join(import.meta.dirname, "../fixtures/sarif/sarif-2.1.0-rtm.5.json"), "utf8"),
) as Record<string, unknown>;
const validSarif = new Ajv({ strict: false, validateFormats: false, allErrors: true, unicodeRegExp: false }).compile(sarifSchema);

const work = tempDir("lint-cli");
afterAll(() => rmSync(work, { recursive: true, force: true }));

// One warning (an unknown key close to `output`), no errors.
writeTree(join(work, "warned"), {
  "config.json": JSON.stringify({ npc_name: "Warned" }),
  "dataset/dataset_a.json": '[\n  {\n    "input": ["hello"],\n    "outptu": "Hi.",\n    "permission": "yolo"\n  }\n]\n',
});
writeTree(join(work, "clean"), {
  "config.json": JSON.stringify({ npc_name: "Clean" }),
  "dataset/dataset_a.json": JSON.stringify([{ input: ["hello"], output: "Hi.", permission: "yolo" }]),
});

describe("ndfc lint formats and exit codes", () => {
  it("text output shows file:line:col, severity, code, message and the source line with a caret", async () => {
    const run = await runCaptured(["lint", "warned"], work);
    expect(run.code).toBe(0);
    expect(run.out).toContain('warned/dataset/dataset_a.json:4:5: warning NDF004: unknown key "outptu": did you mean "output"?');
    expect(run.out).toContain('\n      "outptu": "Hi.",\n      ^\n');
    expect(run.err).toContain("0 errors, 1 warning, 0 notes");
  });

  it("--format json prints one array of {code, severity, file, line, column, message}", async () => {
    const run = await runCaptured(["lint", "warned", "--format", "json"], work);
    const rows = JSON.parse(run.out) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: "NDF004", severity: "warning", file: "warned/dataset/dataset_a.json", line: 4, column: 5 });
  });

  it("--format sarif prints a SARIF 2.1.0 log with rules and located results", async () => {
    const run = await runCaptured(["lint", "warned", "--format", "sarif"], work);
    const log = JSON.parse(run.out);
    expect(validSarif(log), JSON.stringify(validSarif.errors)).toBe(true);
    expect(log.version).toBe("2.1.0");
    const [result] = log.runs[0].results;
    expect(result).toMatchObject({ ruleId: "NDF004", level: "warning" });
    expect(result.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: "warned/dataset/dataset_a.json" }, region: { startLine: 4, startColumn: 5 } });
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain("NDF004");
  });

  it("--strict and --max-warnings turn warnings into exit 1", async () => {
    expect((await runCaptured(["lint", "warned", "--strict"], work)).code).toBe(1);
    expect((await runCaptured(["lint", "warned", "--max-warnings", "0"], work)).code).toBe(1);
    expect((await runCaptured(["lint", "warned", "--max-warnings", "1"], work)).code).toBe(0);
    expect((await runCaptured(["lint", "clean", "--strict"], work)).code).toBe(0);
  });

  it("usage mistakes exit 2 with a message, not a stack trace", async () => {
    const bad = await runCaptured(["lint", "clean", "--format", "xml"], work);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Allowed choices are text, json, sarif/);
    const count = await runCaptured(["lint", "clean", "--max-warnings", "many"], work);
    expect(count.code).toBe(2);
    expect(count.err).toContain('--max-warnings expects a whole number, got "many"');
    expect((await runCaptured(["lint"], work)).code).toBe(2);
  });

  it("lints several directories in one run", async () => {
    const run = await runCaptured(["lint", "clean", "warned", "--format", "json"], work);
    expect(JSON.parse(run.out)).toHaveLength(1);
  });
});

describe("ndfc schema", () => {
  it("writes one schema per NDF file kind, and they accept a valid dataset and reject a broken one", async () => {
    const run = await runCaptured(["schema", "--out", "schemas-out"], work);
    expect(run.code).toBe(0);
    const dir = join(work, "schemas-out");
    expect(readdirSync(dir).sort()).toEqual([
      "ndf-config.schema.json",
      "ndf-dataset.schema.json",
      "ndf-types.schema.json",
      "ndf-vocabulary-expansions.schema.json",
      "ndf-vocabulary-lists.schema.json",
      "ndf-vocabulary-templates.schema.json",
      "ndf-vocabulary.schema.json",
    ]);
    // ndfc's own validator skips the meta-schema check at start-up: every schema it ships is checked here.
    const metaCheck = new Ajv({ strict: false });
    for (const file of readdirSync(dir)) {
      expect(metaCheck.validateSchema(JSON.parse(readFileSync(join(dir, file), "utf8"))), `${file}: ${metaCheck.errorsText()}`).toBe(true);
    }
    const validate = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(join(dir, "ndf-dataset.schema.json"), "utf8")));
    expect(validate([{ input: "hi", output: ["a", "b"], permission: "ask" }])).toBe(true);
    expect(validate([{ input: "hi", permission: "sometimes" }])).toBe(false);
    // ndfc's extension keys: list and range nodes, fixed slots; a list node names its list
    const template = (node: object) => [{ type: "template", slots: { domain: "light" }, structure: [[{ tag: "<||area||>", ...node }]] }];
    expect(validate(template({ type: "list", list: "area" }))).toBe(true);
    expect(validate(template({ type: "range", range: { min: 0, max: 100, unit: "%" } }))).toBe(true);
    expect(validate(template({ type: "list" }))).toBe(false);
    expect(validate(template({ type: "range", range: { min: 0 } }))).toBe(false);
    const lists = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(join(dir, "ndf-vocabulary-lists.schema.json"), "utf8")));
    expect(lists({ area: { kitchen: "kitchen", "living room": "living_room" } })).toBe(true);
    expect(lists({ area: ["kitchen"] })).toBe(false);
  });
});
