// `ndfc lint --fix`: mechanical TCS fixes written back into the JSON, byte for byte elsewhere.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { applyEdits, applyFixes } from "../../compiler/fix.js";
import { lintSources } from "../../compiler/lint.js";
import { runCaptured, tempDir, type CliRun } from "../support/cli.js";
import { hasTermy, termyDir } from "../compile/termy-corpus.js";

const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A temp directory removed after the test. */
function fixDir(): string {
  const dir = tempDir("fix");
  temps.push(dir);
  return dir;
}

const lintCli = (args: string[]): Promise<CliRun> => runCaptured(["lint", ...args], process.cwd());

/** A one-template NPC whose tool commands are `commands`, written as JSON strings. */
function npcWithCommands(commands: string[]): { dir: string; file: string } {
  const dir = fixDir();
  mkdirSync(join(dir, "dataset"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ name: "Fixme" }));
  writeFileSync(join(dir, "dataset", "types.json"), JSON.stringify({ "<||path||>": "\\S+", "<||string||>": ".+" }));
  const template = (command: string, i: number) => `  {
    "intent": "t${i}",
    "type": "template",
    "structure": [[{ "tag": "<||vocab_do||>", "type": "vocab", "required": true }, { "tag": "<||f||>", "type": "path", "required": true }, { "tag": "<||s||>", "type": "string", "required": true }]],
    "output": "ok",
    "tools": [{ "name": "run_in_terminal", "arguments": { "command": ${JSON.stringify(command)} } }],
    "permission": "ask"
  }`;
  const file = join(dir, "dataset", "templates_fix.json");
  writeFileSync(file, `[\n${commands.map(template).join(",\n")}\n]\n`);
  mkdirSync(join(dir, "dataset", "vocabulary"));
  writeFileSync(join(dir, "dataset", "vocabulary", "templates.json"), JSON.stringify({ "<||vocab_do||>": ["do"] }));
  return { dir, file };
}

function commandsIn(file: string): string[] {
  return (JSON.parse(readFileSync(file, "utf8")) as { tools: { arguments: { command: string } }[] }[]).map((t) => t.tools[0]!.arguments.command);
}

describe("applying edits", () => {
  const edit = (offset: number, endOffset: number, text: string) => ({ file: "f", offset, endOffset, text });

  it("applies edits from the end so offsets stay valid", () => {
    expect(applyEdits("abcdef", [edit(1, 2, "X"), edit(4, 4, "--"), edit(0, 0, ">")])).toBe(">aXcd--ef");
  });

  it("takes a fix whole or defers it when it overlaps or inserts at the same point as one taken", () => {
    const dir = fixDir();
    const file = join(dir, "t.txt");
    writeFileSync(file, "0123456789");
    const diag = (fix: ReturnType<typeof edit>[]): Diagnostic => ({ code: "X", severity: "error", message: "", loc: { file, line: 1, column: 1, offset: 0 }, fix: fix.map((e) => ({ ...e, file })) });
    const result = applyFixes(
      [diag([edit(2, 2, "'"), edit(4, 4, "'")]), diag([edit(2, 2, "-- ")]), diag([edit(3, 5, "Z")]), diag([edit(7, 8, "Y")]), diag([edit(7, 8, "Y")])],
      new Map([[file, "0123456789"]]),
    );
    expect(readFileSync(file, "utf8")).toBe("01'23'456Y89");
    expect(result).toEqual({ applied: 3, deferred: 2, files: [file], changedOnDisk: [] });
  });

  it("leaves a file alone when it changed since it was linted", () => {
    const dir = fixDir();
    const file = join(dir, "t.txt");
    writeFileSync(file, "new text");
    const fix: Diagnostic = { code: "X", severity: "error", message: "", loc: { file, line: 1, column: 1, offset: 0 }, fix: [{ file, offset: 0, endOffset: 0, text: "!" }] };
    expect(applyFixes([fix], new Map([[file, "old text"]])).changedOnDisk).toEqual([file]);
    expect(readFileSync(file, "utf8")).toBe("new text");
  });
});

describe("ndfc lint --fix", () => {
  const cases: [string, string][] = [
    ["sort <||f||>", "sort -- '<||f||>'"],
    ["grep -c '<||s||>' '<||f||>'", "grep -c -- '<||s||>' '<||f||>'"],
    ["split -l 10 <||f||> chunk_", "split -l 10 -- '<||f||>' chunk_"],
    ["sudo chown root <||f||>", "sudo chown -- root '<||f||>'"],
    ['say "saved <||f||> now"', `say "saved "'<||f||>'" now"`],
    ['say "<||f||>"', "say '<||f||>'"],
    ["find . -exec grep -Hn <||s||> {} +", "find . -exec grep -Hn -- '<||s||>' {} +"],
    ["grep <||s||> -r .", "grep '<||s||>' -r ."],
    // Left alone: the meaning could change.
    ['say "$(date) <||f||>"', 'say "$(date) <||f||>"'],
    ['say "$<||f||>"', 'say "$<||f||>"'],
    ["cat 'a'<||f||>", "cat 'a'<||f||>"],
    ["echo $((<||s||> + 1))", "echo $((<||s||> + 1))"],
  ];

  it("rewrites only what it can keep the meaning of, and keeps every other byte", async () => {
    const { dir, file } = npcWithCommands(cases.map(([before]) => before));
    const before = readFileSync(file, "utf8");
    const run = await lintCli([dir, "--fix"]);
    expect(run.err).toMatch(/^fixed 12 problem\(s\) in 1 file\(s\)$/m);
    expect(commandsIn(file)).toEqual(cases.map(([, after]) => after));
    const beforeLines = before.split("\n");
    const afterLines = readFileSync(file, "utf8").split("\n");
    expect(afterLines).toHaveLength(beforeLines.length);
    beforeLines.forEach((line, i) => {
      if (line !== afterLines[i]) expect(line).toContain('"command": ');
    });
    // What remains is what had no safe fix.
    const left = lintSources([dir]).diagnostics.filter((d) => d.code.startsWith("TCS"));
    expect(left.every((d) => d.fix === undefined)).toBe(true);
    expect(left.map((d) => d.code).sort()).toEqual(["TCS001", "TCS001", "TCS001", "TCS001", "TCS003"]);
  });

  it("is idempotent: a second run changes nothing", async () => {
    const { dir, file } = npcWithCommands(cases.map(([before]) => before));
    await lintCli([dir, "--fix"]);
    const once = readFileSync(file, "utf8");
    const second = await lintCli([dir, "--fix"]);
    expect(second.err).toMatch(/^fixed 0 problem\(s\) in 0 file\(s\)$/m);
    expect(readFileSync(file, "utf8")).toBe(once);
  });

  it("writes quotes with the escaping JSON needs around escaped characters", async () => {
    const { dir, file } = npcWithCommands(['say "tab\there \\"q\\" <||f||>" && cat <||f||>']);
    await lintCli([dir, "--fix"]);
    expect(commandsIn(file)).toEqual([`say "tab\there \\"q\\" <||f||>" && cat -- '<||f||>'`]);
  });
});

describe("ndfc lint --fix on rule DSL files", () => {
  it("writes the fixes with Ruby's escaping, in double- and single-quoted strings", async () => {
    const dir = fixDir();
    const file = join(dir, "fixme.rules");
    const source = `RuleSet.define "fixme" do
  rule "show :f" do
    command "cat <||f||> # \\"<||f||>\\""
    permission :ask
  end
  rule "sort :f" do
    command 'sort <||f||>'
    permission :ask
  end
end
`;
    writeFileSync(file, source);
    const run = await lintCli([file, "--fix"]);
    expect(run.err).toMatch(/^fixed \d+ problem\(s\) in 1 file\(s\)$/m);
    const after = readFileSync(file, "utf8");
    expect(after.split("\n")[2]).toBe(`    command "cat -- '<||f||>' # \\"<||f||>\\""`);
    expect(after.split("\n")[6]).toBe(`    command 'sort -- \\'<||f||>\\''`);
    expect(after.replace(/cat -- '<\|\|f\|\|>'/, "cat <||f||>").replace("sort -- \\'<||f||>\\'", "sort <||f||>")).toBe(source);
    expect(lintSources([file]).diagnostics.filter((d) => d.fix)).toEqual([]);
  });
});

const corpus = termyDir;
const corpusExists = hasTermy;

describe.skipIf(!corpusExists)("ndfc lint --fix on a copy of TERMy", () => {
  it("leaves no fixable TCS finding, changes only command lines, and is idempotent", async () => {
    const dir = fixDir();
    cpSync(corpus, dir, { recursive: true });
    const fixable = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.code.startsWith("TCS") && d.fix);
    const before = lintSources([dir]).diagnostics;
    expect(fixable(before).length).toBeGreaterThan(20);
    const originals = new Map(readdirSync(join(dir, "dataset")).filter((f) => f.endsWith(".json")).map((f) => [f, readFileSync(join(dir, "dataset", f), "utf8")]));

    const run = await lintCli([dir, "--fix", "--format", "json"]);
    console.log(`TERMy --fix: ${run.err.trim().split("\n")[0]}`);
    const after = lintSources([dir]).diagnostics;
    expect(fixable(after)).toEqual([]);
    const count = (ds: Diagnostic[], code: string) => ds.filter((d) => d.code === code).length;
    expect(count(after, "TCS001")).toBeLessThan(count(before, "TCS001"));
    expect(count(after, "TCS003")).toBe(0);
    // Nothing but TCS findings changed: every other diagnostic is still there, at the same line.
    const others = (ds: Diagnostic[]) => ds.filter((d) => !d.code.startsWith("TCS")).map((d) => `${d.code} ${d.loc.file}:${d.loc.line}`);
    expect(others(after)).toEqual(others(before));
    for (const [name, text] of originals) {
      const now = readFileSync(join(dir, "dataset", name), "utf8").split("\n");
      text.split("\n").forEach((line, i) => {
        if (line !== now[i]) expect(line).toMatch(/"command": "/);
      });
    }
    const again = await lintCli([dir, "--fix", "--format", "json"]);
    expect(again.err).toMatch(/^fixed 0 problem\(s\) in 0 file\(s\)$/m);
  });
});
