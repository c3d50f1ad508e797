// Shared by the matching tests: the TERMy corpus bundle (plain and with --wordnet) and its
// training inputs that the lint does not report as conflicting.
import { compileNpc } from "../../compiler/compile.js";
import type { Intent } from "../../compiler/ir/types.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import { CODES } from "../../compiler/passes/codes.js";
import { wordnetExpansion } from "../../compiler/passes/compute-wordnet.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { normalizeKey } from "../../runtime/normalize.js";
import { termyDir } from "../compile/termy-corpus.js";

export { hasTermy, termyDir } from "../compile/termy-corpus.js";

export interface TermyBundles {
  lint: LintResult;
  plain: Npc;
  wordnet: Npc;
}

export async function termyBundles(): Promise<TermyBundles> {
  const lint = lintSources([termyDir]);
  const plain = await loadNpc(compileNpc(lint).bytes);
  const wordnet = await loadNpc(compileNpc(lint, { lexicalExpansion: wordnetExpansion(lint.ir) }).bytes);
  return { lint, plain, wordnet };
}

/** Top-level training inputs with their intent, minus lint-reported conflicts and shared keys. */
export function unambiguousInputs(lint: LintResult): { intent: string; input: string }[] {
  const conflictCodes = new Set<string>([CODES.duplicateInput, CODES.sanitizedInput]);
  const at = (loc: { file: string; offset: number }) => `${loc.file}@${loc.offset}`;
  const excluded = new Set<string>();
  for (const d of lint.diagnostics.filter((d) => conflictCodes.has(d.code))) {
    excluded.add(at(d.loc));
    for (const r of d.related ?? []) excluded.add(at(r.loc));
  }
  const owners = new Map<string, Set<string>>();
  for (const intent of lint.ir.intents) {
    for (const input of intent.inputs) {
      const key = normalizeKey(input.value);
      owners.set(key, (owners.get(key) ?? new Set()).add(intent.id));
    }
  }
  return lint.ir.intents.flatMap((intent: Intent) =>
    intent.inputs
      .filter((input) => !excluded.has(at(input.loc)) && owners.get(normalizeKey(input.value))!.size === 1)
      .map((input) => ({ intent: intent.id, input: input.value })),
  );
}
