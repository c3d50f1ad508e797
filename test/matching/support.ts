// Shared by the matching tests: the TERMy corpus bundles, plain and with --wordnet.
import { compileNpc } from "../../compiler/compile.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import { wordnetExpansion } from "../../compiler/wordnet.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { termyDir } from "../compile/termy-corpus.js";

export { hasTermy, termyDir } from "../compile/termy-corpus.js";

export interface TermyBundles {
  lint: LintResult;
  plain: Npc;
  wordnet: Npc;
}

export async function termyBundles(): Promise<TermyBundles> {
  const lint = lintSources([termyDir]);
  const plain = await loadNpc(compileNpc(lint.ir).bytes);
  const wordnet = await loadNpc(compileNpc(lint.ir, { lexicalExpansion: wordnetExpansion }).bytes);
  return { lint, plain, wordnet };
}

export { typoOf, unambiguousInputs } from "../../bench/matching-inputs.js";
