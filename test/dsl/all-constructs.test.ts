// One DSL file using every construct: it lints clean, compiles into a bundle, and the runtime
// answers with the intents, slots, tools and permissions the rules describe.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import type { CallNode } from "../../compiler/sources/dsl/ast.js";
import { LineMap } from "../../compiler/sources/location.js";
import { parseDsl } from "../../compiler/sources/dsl/syntax.js";
import { loadNpc, type NpcSession } from "../../runtime/index.js";

const FIXTURE = resolve(import.meta.dirname, "fixtures/all-constructs.rules");
const text = readFileSync(FIXTURE, "utf8");

function methodsUsed(calls: CallNode[]): Set<string> {
  const names = new Set<string>();
  const visit = (call: CallNode): void => {
    names.add(call.receiver === undefined ? call.name : `${call.receiver}.${call.name}`);
    call.block?.statements.forEach(visit);
  };
  calls.forEach(visit);
  return names;
}

describe("all-constructs.rules", () => {
  let lint: LintResult;
  let session: NpcSession;

  beforeAll(async () => {
    lint = lintSources([FIXTURE]);
    const npc = await loadNpc(compileNpc(lint.ir).bytes);
    session = npc.session({ seed: 7 });
  });

  test("the fixture uses every construct of the DSL", () => {
    const used = methodsUsed(parseDsl(new LineMap(FIXTURE, text), new DiagnosticBag()).statements);
    const constructs = ["RuleSet.define", "Ruleset.create", "types", "connectives", "synonym", "rule", "chain", "step", "query", "resolve"];
    const body = ["action", "command", "output", "thinking", "permission", "category", "description", "intent", "context"];
    expect([...constructs, ...body].filter((name) => !used.has(name))).toEqual([]);
    for (const literal of ["%r{", "%w[", "/\\d+/", "'kill'", "=>", "nil", "true", "false", "[", "{ ", "do\n", "#"]) expect(text).toContain(literal);
  });

  test("it lints without any diagnostic", () => {
    expect(lint.diagnostics.map((d) => `${d.loc.line}:${d.loc.column} ${d.code} ${d.message}`)).toEqual([]);
    expect(lint.ir.config.name).toBe("kit");
    expect(lint.ir.config.connectives).toEqual([
      ["after", "that"],
      ["and", "then"],
    ]);
  });

  test("exact rules answer exact matches, every phrasing of [optional] (a|b) included", () => {
    expect(session.process("list files")).toMatchObject({ status: "exact match", tools: [{ name: "list_files", arguments: {} }] });
    expect(session.process("please display disk space")).toMatchObject({
      status: "exact match",
      response: "Disk space:",
      permission: "yolo",
      tools: [{ name: "run_in_terminal", arguments: { command: "df -h" } }],
    });
  });

  test("a typed slot is captured and rendered into the single-quoted command", () => {
    expect(session.process("list files in /tmp/x")).toMatchObject({
      status: "template match",
      slots: { path: "/tmp/x" },
      response: "Here is /tmp/x.",
      tools: [{ name: "run_in_terminal", arguments: { command: "ls -la -- '/tmp/x'", explanation: "Lists /tmp/x", mode: "sync" } }],
    });
  });

  test("synonyms reach the rule of the word they mean; context follow-ups answer next", () => {
    expect(session.process("wipe notes.txt")).toMatchObject({
      status: "template match",
      intent: "delete_file",
      permission: "ask",
      slots: { target: "notes.txt" },
      tools: [
        { name: "delete", arguments: { target: "notes.txt" } },
        { name: "run_in_terminal", arguments: { command: "rm -- 'notes.txt'" } },
      ],
    });
    expect(session.process("undo that")).toMatchObject({ status: "context match", intent: "delete_file/context#0" });
    expect(session.process("kill process 1234")).toMatchObject({ status: "template match", slots: { pid: "1234" }, tools: [{ arguments: { command: "kill -- '1234'" } }] });
  });

  test("a slot value cannot break out of its single quotes", () => {
    const response = session.process("erase x'; rm -rf ~");
    expect(response.tools[1]).toMatchObject({ arguments: { command: "rm -- 'x'\\''; rm -rf ~'" } });
  });

  test("a chain answers with its steps in order; a query with its resolve", () => {
    expect(session.process("clean up build")).toMatchObject({
      status: "template match",
      tools: [
        { name: "list_files", arguments: { path: "build" } },
        { name: "filter", arguments: { criterion: "empty", options: { recursive: true, depth: 2, hidden: false, skip: null, tags: ["tmp"] } } },
        { name: "delete", arguments: { target: { $result_of: 1 } } },
      ],
    });
    expect(session.process("where is my config")).toMatchObject({ slots: { thing: "my config" }, tools: [{ name: "get_path", arguments: { target: "my config" } }] });
  });

  test("rules of the second block (Ruleset.create) join the same NPC", () => {
    expect(session.process("show the last 5 commits")).toMatchObject({ slots: { count: "5" }, response: "The last 5 commits." });
  });
});
