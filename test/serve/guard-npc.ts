// A small NPC for the teaching guards: one destructive entry that answers without asking (yolo,
// as the shared TERMy corpus has), one harmless entry, and a synonym set.
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

const entry = (intent: string, input: string[], command: string, permission: string) => ({
  intent,
  input,
  output: ["On it."],
  tools: [{ name: "run_in_terminal", arguments: { command, explanation: "x", goal: "x", mode: "sync" } }],
  permission,
});

/** The dataset directory of Sweeper. */
export function guardNpcDir(): string {
  return writeTree(tempDir("guard-npc"), {
    "config.json": JSON.stringify({ name: "Sweeper", sentence_threshold: 0.6, word_threshold: 0.75 }),
    "dataset/dataset_main.json": JSON.stringify([
      entry("sweep_empty", ["delete empty directories", "remove empty folders"], "find . -type d -empty -delete", "yolo"),
      entry("list_files", ["list files", "show files"], "ls -la", "yolo"),
    ]),
    "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_show||>": ["show", "display"] }),
  });
}

export async function guardNpc(): Promise<Npc> {
  const lint = lintSources([guardNpcDir()]);
  const errors = lint.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join("; "));
  return loadNpc(compileNpc(lint.ir).bytes);
}

export const guardNpcIr = (): ReturnType<typeof lintSources>["ir"] => lintSources([guardNpcDir()]).ir;
