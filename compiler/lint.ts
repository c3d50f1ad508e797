// Lint: load the sources and run every check pass.
import type { Diagnostic } from "./diagnostics.js";
import type { NpcIR } from "./ir/types.js";
import { CHECK_PASSES } from "./passes/index.js";
import { loadSources } from "./sources/load.js";

export interface LintResult {
  ir: NpcIR;
  /** Sorted by file, line, column, code. */
  diagnostics: Diagnostic[];
  texts: Map<string, string>;
  root: string;
}

export function lintSources(inputs: string[]): LintResult {
  const { ir, diagnostics, texts, root } = loadSources(inputs);
  for (const pass of CHECK_PASSES) pass(ir, diagnostics, { texts });
  return { ir, diagnostics: diagnostics.sorted(), texts, root };
}
