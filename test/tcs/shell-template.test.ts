// Shell commands are lexed at build time (compiler/tcs/shell-template.ts): the bundle tells the
// runtime where each placeholder sits, so the runtime needs no shell lexer of its own.
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { splitSegments } from "../../compiler/segments.js";
import { shellTemplate } from "../../compiler/tcs/shell-template.js";
import { loadNpc } from "../../runtime/index.js";
import { shellNpc } from "../runtime/ir-fixture.js";

describe("shell templates", () => {
  it("give each placeholder its quoting, backticks included", () => {
    const template = shellTemplate(splitSegments(`cp '<||from||>' "<||to||>" && echo \`echo <||n||>\` # <||note||>`));
    expect(template).toEqual({
      segments: ["cp '", "from", `' "`, "to", `" && echo \`echo `, "n", "` # ", "note", ""],
      places: [
        { context: "single", inBackticks: false },
        { context: "double", inBackticks: false },
        { context: "unquoted", inBackticks: true },
        { context: "comment", inBackticks: false },
      ],
      unsafe: null,
    });
  });

  it("refuse every value of a command that cannot be lexed, naming its first placeholder", () => {
    expect(shellTemplate(splitSegments("echo '<||x||> <||y||>"))).toEqual({
      segments: ["echo '<||x||> <||y||>"],
      places: [],
      unsafe: { tag: "x", reason: expect.stringMatching(/^the command cannot be parsed \(.+\), so no value can be placed in it safely$/) },
    });
  });

  it("are what a compiled bundle carries for arguments.command with placeholders, and only there", async () => {
    const ir = shellNpc();
    const tool = ir.intents.find((intent) => intent.tools.length > 0)!.tools[0]!;
    tool.raw = { name: "run", arguments: { command: "ls '<||dir||>'", explanation: "Lists <||dir||>." }, note: "<||dir||>" };
    const other = ir.intents.filter((intent) => intent.tools.length > 0)[1]!.tools[0]!;
    other.raw = { name: "run", arguments: { command: "ls -la" } };
    const npc = await loadNpc(compileNpc(ir).bytes);
    const tools = npc.payload.intents.flatMap((intent) => intent.tools);
    // Without placeholders a command is rendered as written: no template.
    expect(tools).toContainEqual({ o: [["name", ["run"]], ["arguments", { o: [["command", ["ls -la"]]] }]] });
    expect(tools).toContainEqual({
      o: [
        ["name", ["run"]],
        ["arguments", { o: [["command", { sh: { segments: ["ls '", "dir", "'"], places: [{ context: "single", inBackticks: false }], unsafe: null } }], ["explanation", ["Lists ", "dir", "."]]] }],
        ["note", ["", "dir", ""]],
      ],
    });
  });
});
