// The check passes `ndfc lint` (and `ndfc build`, before compiling) runs over the IR, in order.
import type { DiagnosticBag } from "../diagnostics.js";
import type { NpcIR } from "../ir/types.js";
import { checkConflicts } from "./check-conflicts.js";
import { checkLists } from "./check-lists.js";
import { checkReferences } from "./check-references.js";
import { checkRegexes } from "./check-regexes.js";
import { checkShadowing } from "./check-shadowing.js";
import { checkTcs } from "./check-tcs.js";
import { checkWordLists } from "./check-word-lists.js";

export interface CheckContext {
  /** Absolute file path → source text, for passes that locate things inside strings. */
  texts: Map<string, string>;
}

export type CheckPass = (ir: NpcIR, bag: DiagnosticBag, ctx: CheckContext) => void;

export const CHECK_PASSES: CheckPass[] = [checkReferences, checkLists, checkConflicts, checkShadowing, checkRegexes, checkTcs, checkWordLists];
