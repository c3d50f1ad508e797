// Keeper, a small NPC for the escalation tests: a slot-less intent with exact inputs, a
// destructive template intent with a typed slot that answers without asking (yolo), and a greeting.
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

const terminal = (command: string) => ({ name: "run_in_terminal", arguments: { command, explanation: "x", goal: "x", mode: "sync" } });

export function keeperDir(): string {
  return writeTree(tempDir("keeper-npc"), {
    "config.json": JSON.stringify({ name: "Keeper" }),
    "dataset/dataset_main.json": JSON.stringify([
      { intent: "list_files", input: ["list files", "show files"], output: ["Here are your files."], description: "List the files of this folder", tools: [terminal("ls -la")], permission: "yolo" },
      { intent: "greet", input: ["hello", "hi"], output: ["Hello!"], permission: "yolo" },
    ]),
    "dataset/templates_main.json": JSON.stringify([
      {
        intent: "delete_file",
        type: "template",
        structure: [
          [
            { tag: "<||vocab_delete||>", type: "vocab", required: true },
            { tag: "<||target||>", type: "path", required: true },
          ],
        ],
        output: ["Deleting <||target||>."],
        description: "Delete a file",
        tools: [terminal("rm -- '<||target||>'")],
        permission: "yolo",
      },
    ]),
    "dataset/types.json": JSON.stringify({ "<||path||>": "^[\\w.~\\-/]+\\.\\w+$" }),
    "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_delete||>": ["delete", "remove"] }),
  });
}

export async function keeperNpc(): Promise<Npc> {
  const lint = lintSources([keeperDir()]);
  const errors = lint.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join("; "));
  return loadNpc(compileNpc(lint.ir).bytes);
}
