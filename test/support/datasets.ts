// NPCs compiled from this repository's datasets/, once per test file.
import { join } from "node:path";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { repoRoot } from "./repo-root.js";

const compiled = new Map<string, Uint8Array>();

/** The bytes of datasets/<name> compiled now (once per test file). */
export function datasetBundle(name: string): Uint8Array {
  let bytes = compiled.get(name);
  if (!bytes) {
    const lint = lintSources([join(repoRoot, "datasets", name)]);
    const errors = lint.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`datasets/${name} has lint errors: ${errors.map((e) => e.message).join("; ")}`);
    bytes = compileNpc(lint.ir).bytes;
    compiled.set(name, bytes);
  }
  return bytes;
}

export async function datasetNpc(name: string): Promise<Npc> {
  return loadNpc(datasetBundle(name));
}
