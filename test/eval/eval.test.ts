// The evaluation library (compiler/eval) and `ndfc eval`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EvalCasesError, parseCases } from "../../compiler/eval/cases.js";
import { formatReport } from "../../compiler/eval/report.js";
import { evaluate } from "../../compiler/eval/score.js";
import type { Npc } from "../../runtime/index.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { datasetNpc } from "../support/datasets.js";
import { repoRoot } from "../support/repo-root.js";
import { npcForgeDir } from "../support/corpus.js";
import { loadShelly, writeShelly } from "../conversation/shelly.js";

let npc: Npc;
beforeAll(async () => {
  npc = await loadShelly();
});

const jsonl = (cases: object[]) => cases.map((c) => JSON.stringify(c)).join("\n") + "\n";

describe("reading cases", () => {
  it("reads JSONL cases with their line numbers, skipping blank lines", () => {
    const cases = parseCases(`${JSON.stringify({ input: "ls", expect: { intent: "files_list" } })}\n\n${JSON.stringify({ input: "zz", expect: { status: "rejected" } })}\n`, "c.jsonl");
    expect(cases).toEqual([
      { input: "ls", line: 1, expect: { format: "jsonl", intent: "files_list" } },
      { input: "zz", line: 3, expect: { format: "jsonl", status: "rejected" } },
    ]);
  });

  it("reads NDF eval blocks: one case per input", () => {
    const text = JSON.stringify([{ input: ["a b", "c d"], output: "x", description: "y", permission: "yolo" }, { input: "e", output: "z" }], null, 2);
    const cases = parseCases(text, "eval.json");
    expect(cases.map((c) => [c.input, c.expect])).toEqual([
      ["a b", { format: "ndf", output: "x", description: "y", permission: "yolo" }],
      ["c d", { format: "ndf", output: "x", description: "y", permission: "yolo" }],
      ["e", { format: "ndf", output: "z" }],
    ]);
    expect(cases[1]!.line).toBe(text.split("\n").findIndex((l) => l.includes('"c d"')) + 1);
  });

  it("says which line is wrong", () => {
    expect(() => parseCases('{"input": "a", "expect": {"intent": "x"}}\n{"input": 3}\n', "c.jsonl")).toThrow(new EvalCasesError('c.jsonl:2: expected {"input": "...", "expect": {...}}'));
    expect(() => parseCases('{"input": "a", "expect": {}}', "c.jsonl")).toThrow(/c\.jsonl:1: "expect" needs intent/);
    expect(() => parseCases("{oops", "c.jsonl")).toThrow(/c\.jsonl:1: not valid JSON/);
    expect(() => parseCases('[{"input": ["a"]}]', "e.json")).toThrow(/e\.json: block 1: needs "output" or "description"/);
  });
});

describe("scoring", () => {
  it("JSONL: intent, slots, status and output must all hold; reports rates and failures", () => {
    const report = evaluate(
      npc,
      parseCases(
        jsonl([
          { input: "show the files", expect: { intent: "files_list" } },
          { input: "copy a.txt to b.txt", expect: { intent: "file_copy", slots: { source: "a.txt", destination: "b.txt" } } },
          { input: "copy a.txt to b.txt", expect: { intent: "file_copy", slots: { source: "b.txt" } } },
          { input: "say hello", expect: { output: "hello", status: "template match" } },
          { input: "how do i bake bread", expect: { status: "rejected" } },
          { input: "list files", expect: { status: "rejected" } },
        ]),
        "c.jsonl",
      ),
    );
    expect(report).toMatchObject({ cases: 6, correct: 4, answered: 5, answeredCorrect: 3, rejected: 1 });
    expect(report.inScope).toEqual({ cases: 4, correct: 3, accuracy: 0.75 });
    expect(report.offTopic).toEqual({ cases: 2, correct: 1, accuracy: 0.5 });
    expect(report.failures.map((f) => f.line)).toEqual([3, 6]);
    expect(report.statuses).toEqual({ "probabilistic match": 1, "exact match": 1, "template match": 3, rejected: 1 });
    expect(report.latencyUs.p50).toBeLessThanOrEqual(report.latencyUs.p90);
    expect(report.latencyUs.p90).toBeLessThanOrEqual(report.latencyUs.p99);
  });

  it("NDF: the entry's output, command or tool name (raw or rendered), or description/explanation", () => {
    const blocks = [
      { input: ["show the files"], output: "ls -la", permission: "yolo" }, // a tool command
      { input: ["copy a.txt to b.txt"], output: "cp -n -- '<||source||>' '<||destination||>'", permission: "yolo" }, // raw template text (asks)
      { input: ["copy x.txt to y.txt"], output: "Copying x.txt to y.txt." }, // rendered output
      { input: ["show disk usage"], output: "run_in_terminal" }, // a tool name
      { input: ["show disk usage"], description: "Runs df." }, // a tool explanation
      { input: ["show disk usage"], output: "something else" }, // wrong
      { input: ["what is the weather"], output: "get_weather" }, // rejected, and not in the bundle
    ];
    const report = evaluate(npc, parseCases(JSON.stringify(blocks), "eval.json"));
    expect(report).toMatchObject({ cases: 7, correct: 5, answered: 6, answeredCorrect: 5, rejected: 1 });
    expect(report.failures.map((f) => f.input)).toEqual(["show disk usage", "what is the weather"]);
    expect(report.permission).toEqual({ compared: 2, agree: 1 });
    // Reachable: the expected answer is written somewhere in the bundle (not "something else", not
    // "get_weather", and not a rendered text such as "Copying x.txt to y.txt.", which is nowhere as such).
    expect(report.reachable).toMatchObject({ cases: 4, correct: 4, answered: 4, answeredCorrect: 4, precision: 1 });
  });
  it("counts a question naming the expected intent as asked: neither correct nor a failure, and not in precision", () => {
    const report = evaluate(
      npc,
      parseCases(
        jsonl([
          { input: "delete", expect: { intent: "file_delete" } }, // "Delete what?": asked
          { input: "delete", expect: { intent: "files_list" } }, // the same question names another intent: a failure
          { input: "list files", expect: { intent: "files_list" } },
          { input: "show the files", expect: { intent: "disk_usage" } },
        ]),
        "c.jsonl",
      ),
    );
    expect(report).toMatchObject({ cases: 4, correct: 1, asked: 1, answered: 2, answeredCorrect: 1, precision: 0.5, rejected: 0, statuses: { elicit: 2 } });
    expect(report.failures.map((f) => f.line)).toEqual([2, 4]);
    expect(report.confidenceHistogram.reduce((sum, bin) => sum + bin.asked, 0)).toBe(1);
    expect(report.suggested.rejected).toBe(0); // a question is not a rejection
    expect(formatReport(report, { failures: 5, intents: 5, confusions: 5 })).toMatch(/^asked {12}1\/4 asked for what the request lacked, naming the expected intent/m);
  });

  it("counts rejections that offered the expected entry among their suggestions", () => {
    // "files disk" is too close to call between files_list and disk_usage: rejected, both suggested.
    const jsonlReport = evaluate(
      npc,
      parseCases(
        jsonl([
          { input: "files disk", expect: { intent: "files_list" } },
          { input: "files disk", expect: { intent: "whoami" } },
          { input: "how do i bake bread", expect: { status: "rejected" } },
          { input: "list files", expect: { intent: "files_list" } },
        ]),
        "c.jsonl",
      ),
    );
    expect(jsonlReport.suggested).toEqual({ rejected: 2, offered: 1 });
    const blocks = [
      { input: ["files disk"], output: "df -h" },
      { input: ["files disk"], description: "Runs ls." },
      { input: ["files disk"], output: "whoami" },
    ];
    expect(evaluate(npc, parseCases(JSON.stringify(blocks), "eval.json")).suggested).toEqual({ rejected: 3, offered: 2 });
  });
});

describe("ndfc eval", () => {
  let dir: string;
  let bundle: string;
  beforeAll(async () => {
    dir = tempDir("eval");
    bundle = join(dir, "shelly.npc");
    const built = await runCaptured(["build", writeShelly(), "--output", bundle], dir);
    expect(built.code, built.err).toBe(0);
    writeFileSync(join(dir, "cases.jsonl"), jsonl([{ input: "list files", expect: { intent: "files_list" } }, { input: "bake bread now", expect: { intent: "files_list" } }]));
  });

  it("prints a report, --json, and fails under --min-accuracy", async () => {
    const text = await runCaptured(["eval", bundle, "cases.jsonl"], dir);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^accuracy {9}50\.0 % \(1\/2\)$/m);
    expect(text.out).toMatch(/^latency {10}p50 [\d.]+ µs, p90 [\d.]+ µs, p99 [\d.]+ µs$/m);
    expect(text.out).toContain('line 2: "bake bread now" expected {"intent":"files_list"}, got rejected');
    const json = await runCaptured(["eval", bundle, "cases.jsonl", "--json"], dir);
    expect(JSON.parse(json.out)).toMatchObject({ cases: 2, correct: 1, accuracy: 0.5 });
    const floor = await runCaptured(["eval", bundle, "cases.jsonl", "--min-accuracy", "0.9"], dir);
    expect(floor.code).toBe(1);
    expect(floor.err).toMatch(/accuracy 50\.0 % is below --min-accuracy 0\.9/);
    expect((await runCaptured(["eval", bundle, "cases.jsonl", "--min-accuracy", "0.5"], dir)).code).toBe(0);
  });

  it("refuses unreadable or malformed cases and bad options with exit 2", async () => {
    expect(await runCaptured(["eval", bundle, "missing.jsonl"], dir)).toMatchObject({ code: 2, err: expect.stringMatching(/cannot read cases missing\.jsonl: ENOENT/) });
    writeFileSync(join(dir, "bad.jsonl"), '{"input": "x"}\n');
    expect(await runCaptured(["eval", bundle, "bad.jsonl"], dir)).toMatchObject({ code: 2, err: expect.stringMatching(/bad\.jsonl:1: "expect" must be an object/) });
    expect((await runCaptured(["eval", bundle, "cases.jsonl", "--min-accuracy", "85"], dir)).code).toBe(2);
  });
});

const corpus = npcForgeDir;

describe.skipIf(!existsSync(corpus))("ndfc eval on the corpus TERMy and its eval.json", () => {
  it("prints the report", async () => {
    const dir = tempDir("eval-corpus");
    const bundle = join(dir, "termy.npc");
    expect((await runCaptured(["build", join(corpus, "termy"), "--output", bundle], dir)).code).toBe(0);
    const run = await runCaptured(["eval", bundle, join(corpus, "termy/dataset/eval.json"), "--show-failures", "0"], dir);
    console.log(`corpus TERMy on eval.json:\n${run.out}`);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^cases {12}491$/m);
    expect(run.out).toMatch(/^reachable .*cases whose expected answer exists in the bundle$/m);
    expect(run.out).toMatch(/^suggested {8}\d+\/\d+ rejected cases offered the expected answer among their suggestions$/m);
  });
});

describe("CI floors: datasets/termy on its eval.jsonl", () => {
  it("keeps in-scope accuracy and off-topic rejection above their floors", async () => {
    const termy = await datasetNpc("termy");
    const file = join(repoRoot, "datasets/termy/eval.jsonl");
    const report = evaluate(termy, parseCases(readFileSync(file, "utf8"), file));
    console.log(
      `datasets/termy eval.jsonl: in scope ${(report.inScope.accuracy * 100).toFixed(1)} % (${report.inScope.correct}/${report.inScope.cases}), ` +
        `off-topic rejected ${(report.offTopic.accuracy * 100).toFixed(1)} % (${report.offTopic.correct}/${report.offTopic.cases}), ` +
        `precision ${(report.precision * 100).toFixed(1)} %`,
    );
    // Measured 94.5 % and 96.6 % with the stemmed probabilistic stage (2026-11-29; 91.7 % and
    // 99.3 % before it); floors a little below.
    expect(report.inScope.accuracy).toBeGreaterThanOrEqual(0.92);
    expect(report.offTopic.accuracy).toBeGreaterThanOrEqual(0.94);
  });
});
