// datasets/shell: the natural-language shell written in the DSL lints clean (TCS included),
// compiles, and answers the requests it was written for.
import { resolve } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { allIntents } from "../../compiler/ir/walk.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import { checkTcs } from "../../compiler/passes/check-tcs.js";
import { loadNpc, type NpcResponse, type NpcSession } from "../../runtime/index.js";

const SHELL = resolve(import.meta.dirname, "../../datasets/shell");

/** The shell commands of an answer (tools are rendered as plain objects). */
function commandsOf(response: NpcResponse): unknown[] {
  return response.tools.flatMap((tool) => {
    const args = tool["arguments"] as Record<string, unknown> | undefined;
    return args?.["command"] === undefined ? [] : [args["command"]];
  });
}

describe("datasets/shell", () => {
  let lint: LintResult;
  let session: NpcSession;

  beforeAll(async () => {
    lint = lintSources([SHELL]);
    session = (await loadNpc(compileNpc(lint.ir).bytes)).session({ seed: 3 });
  });

  test("lints without any diagnostic and is named by its rule set", () => {
    expect(lint.diagnostics.map((d) => `${d.loc.line}:${d.loc.column} ${d.code} ${d.message}`)).toEqual([]);
    expect(lint.ir.config.name).toBe("shell");
  });

  test("every command is TCS-clean (quoted placeholders, -- for native binaries, destructive commands ask)", () => {
    const bag = new DiagnosticBag();
    checkTcs(lint.ir, bag, { texts: lint.texts });
    expect(bag.sorted().map((d) => `${d.loc.line}:${d.loc.column} ${d.code} ${d.message}`)).toEqual([]);
    const terminalTools = allIntents(lint.ir).flatMap((intent) => intent.tools.filter((tool) => tool.name === "run_in_terminal"));
    expect(terminalTools.length).toBeGreaterThanOrEqual(20);
    expect(terminalTools.every((tool) => typeof tool.arguments["command"] === "string" && tool.commandLoc !== undefined)).toBe(true);
  });

  test("synonyms: wipe, erase and remove mean delete; kill means terminate", () => {
    const sets = new Map(lint.ir.synonyms.map((set) => [set.tag, set.words]));
    expect(sets.get("word_delete")).toEqual(expect.arrayContaining(["delete", "wipe", "erase", "remove"]));
    expect(sets.get("word_terminate")).toEqual(expect.arrayContaining(["terminate", "kill"]));
  });

  test.each([
    ["ls", "ls -la", "yolo"],
    ["show the files", "ls -la", "yolo"],
    ["list files in src/lib", "ls -la -- 'src/lib'", "yolo"],
    ["where am i", "pwd", "yolo"],
    ["change directory to /tmp", "cd -- '/tmp'", "yolo"],
    ["cd ..", "cd -- '..'", "yolo"],
    ["wipe notes.txt", "rm -- 'notes.txt'", "ask"],
    ["erase the file a.txt", "rm -- 'a.txt'", "ask"],
    ["rename a.txt to b.txt", "mv -- 'a.txt' 'b.txt'", "ask"],
    ["copy a to b", "cp -- 'a' 'b'", "ask"],
    ["create a new folder build", "mkdir -p -- 'build'", "ask"],
    ["how much disk space is left", "df -h", "yolo"],
    ["disk usage of /var", "du -sh -- '/var'", "yolo"],
    ["kill 1234", "kill -- '1234'", "ask"],
    ["git status", "git status --short --branch", "yolo"],
    ["show the git history", "git --no-pager log --oneline -n 20", "yolo"],
    ["show the last 5 commits", "git --no-pager log --oneline -n '5'", "yolo"],
    ["git diff of src/x.ts", "git --no-pager diff -- 'src/x.ts'", "yolo"],
    ["find files named *.ts", "find . -name '*.ts' -print", "yolo"],
    ["find files containing TODO", "grep -rl -e 'TODO' -- .", "yolo"],
  ])("%j runs %j with permission %s", (message, command, permission) => {
    const response = session.process(message);
    expect(commandsOf(response)).toContain(command);
    expect(response.permission).toBe(permission);
  });

  test("file operands are one word, or quoted by the user; a following clause never reaches rm", () => {
    expect(commandsOf(session.process("delete 'old notes.txt'"))).toEqual(["rm -- 'old notes.txt'"]);
    // A composite message: "delete x" is its own clause, so rm gets exactly "x" and nothing after it.
    expect(commandsOf(session.process("delete x and then list the files")).filter((command) => String(command).startsWith("rm"))).toEqual(["rm -- 'x'"]);
  });

  test("the clean-up chain lists, then deletes, in order", () => {
    expect(commandsOf(session.process("clean up tmp"))).toEqual([
      "cd -- 'tmp' && find . -type f -empty -print",
      "cd -- 'tmp' && find . -type f -empty -delete",
    ]);
  });

  test("queries resolve and run their lookup", () => {
    expect(session.process("where is config.json").tools).toEqual([
      { name: "locate", arguments: { name: "config.json" } },
      { name: "run_in_terminal", arguments: { command: "find . -name 'config.json' -print" } },
    ]);
    expect(session.process("how do I list open ports")).toMatchObject({ slots: { topic: "list open ports" } });
  });

  test("git diff opens a context where 'stage everything' is understood", () => {
    session.process("git diff");
    expect(session.process("stage everything")).toMatchObject({ status: "context match", permission: "ask", tools: [{ arguments: { command: "git add --all" } }] });
  });
});
