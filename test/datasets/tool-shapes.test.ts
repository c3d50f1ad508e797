// Tools written in OpenAI's shape (`{type: "function", function: {name, arguments}}`, arguments a
// JSON string or an object) load beside NDF's `{name, arguments}` (issue 19): no NDF003, the NPC
// builds, and every answer gives each tool back in the shape it was written. On the real smith
// NPC of NPC-Forge when the corpus is present, always on test/fixtures/two-tool-shapes.
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { completionBody } from "../../compiler/serve/openai.js";
import { compileNpc } from "../../compiler/compile.js";
import type { Intent } from "../../compiler/ir/types.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { toolCallParts } from "../../runtime/render/tool-call.js";
import { corpusNpc } from "../support/corpus.js";
import { repoRoot } from "../support/repo-root.js";

const fixture = join(repoRoot, "test/fixtures/two-tool-shapes");
const smith = corpusNpc("smith");

async function built(dir: string): Promise<{ lint: LintResult; npc: Npc }> {
  const lint = lintSources([dir]);
  return { lint, npc: await loadNpc(compileNpc(lint.ir).bytes) };
}

describe("test/fixtures/two-tool-shapes", () => {
  let lint: LintResult;
  let npc: Npc;
  beforeAll(async () => ({ lint, npc } = await built(fixture)));

  it("lints clean: both shapes are valid tools", () => {
    expect(lint.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  });

  it("lowers both shapes to one name and arguments object in the IR", () => {
    const tools = Object.fromEntries(lint.ir.intents.map((i) => [i.id, i.tools[0]!]));
    expect(tools["list_files"]).toMatchObject({ name: "run_in_terminal", arguments: { command: "ls -la" } });
    expect(tools["list_files"]!.shape).toBeUndefined();
    expect(tools["favourite_colour"]).toMatchObject({ name: "Question", arguments: { contextKey: "colour" }, shape: { kind: "openai", argumentsAsJson: true } });
    expect(tools["play_video"]).toMatchObject({ name: "InjectYoutubeEmbed", arguments: { keyword: "jNQXAC9IVRw" }, shape: { kind: "openai", argumentsAsJson: false } });
  });

  it("answers each tool in the shape it was written", () => {
    const ask = (message: string) => npc.session({ seed: 1 }).process(message).tools;
    expect(ask("list files")).toEqual([{ name: "run_in_terminal", arguments: { command: "ls -la", explanation: "List the files" } }]);
    expect(ask("ask me my favourite colour")).toEqual([
      { type: "function", function: { name: "Question", arguments: '{"question":"What is your favourite colour?","contextKey":"colour"}' } },
    ]);
    expect(ask("play the first video")).toEqual([{ function: { name: "InjectYoutubeEmbed", arguments: { keyword: "jNQXAC9IVRw" } } }]);
  });

  it("fills a slot into JSON-string arguments as valid JSON, whatever the value holds", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[\w"\\' ]+$/.test(s) && s.trim() !== ""), (subject) => {
        const answer = npc.session({ seed: 1 }).process(`show ${subject}`);
        if (answer.intent !== "show_image") return;
        const tool = answer.tools[0]!;
        expect(tool).toMatchObject({ id: "show_image", type: "function", function: { name: "InjectImage" } });
        const args = toolCallParts(tool).arguments;
        expect(args).not.toBeNull();
        expect(args!["alt"]).toBe(`a picture of ${answer.slots["subject"]}`);
      }),
      { numRuns: 60 },
    );
  });

  it("serve's OpenAI API sends OpenAI-shaped arguments as written, NDF ones serialized", () => {
    const answer = npc.session({ seed: 1 }).process("ask me my favourite colour");
    const body = completionBody("two-shapes", "ask me my favourite colour", { ...answer }, "chatcmpl-0123456789abcdef", 0);
    const calls = (body.choices[0]!.message as { tool_calls: { function: { name: string; arguments: string } }[] }).tool_calls;
    expect(calls.map((c) => c.function)).toEqual([{ name: "Question", arguments: '{"question":"What is your favourite colour?","contextKey":"colour"}' }]);
  });

  it("reports arguments that are not a JSON object at the string", () => {
    const bad = lintSources([join(repoRoot, "test/fixtures/two-tool-shapes-bad")]);
    expect(bad.diagnostics.map((d) => [d.code, d.loc.line, d.message.startsWith('"function.arguments" must be a JSON object')])).toEqual([["NDF003", 6, true]]);
  });
});

/** Whether `intent` (or one with the same input) answered: duplicates answer for the first. */
const inputsOf = (intents: readonly Intent[]) => intents.flatMap((intent) => intent.inputs.map((input) => ({ intent, input: input.value })));

describe.skipIf(smith === undefined)("the smith NPC of NPC-Forge", () => {
  let lint: LintResult;
  let npc: Npc;
  beforeAll(async () => ({ lint, npc } = await built(smith!)));

  it("lints without errors (no NDF003 for its OpenAI-shaped tools)", () => {
    expect(lint.diagnostics.filter((d) => d.code === "NDF003" || d.severity === "error")).toEqual([]);
    expect(lint.ir.intents.flatMap((i) => i.tools).filter((t) => t.shape?.kind === "openai").length).toBeGreaterThanOrEqual(10);
  });

  it("answers its own top-level inputs with an entry that lists them, tools in their written shape", () => {
    const owners = new Map<string, Set<string>>();
    for (const { intent, input } of inputsOf(lint.ir.intents)) owners.set(input, (owners.get(input) ?? new Set()).add(intent.id));
    const wrong: string[] = [];
    for (const { intent, input } of inputsOf(lint.ir.intents)) {
      const answer = npc.session({ seed: 1 }).process(input);
      if (answer.intent === null || !owners.get(input)!.has(answer.intent)) wrong.push(`${input} → ${answer.intent ?? answer.status}`);
      else if (answer.intent === intent.id) {
        intent.tools.forEach((tool, i) => expect(Object.keys(answer.tools[i]!), input).toEqual(Object.keys(tool.raw)));
      }
    }
    expect(wrong).toEqual([]);
  });
});
