// The check passes `ndfc lint` (and `ndfc build`, before compiling) runs over the IR, in order.
import type { CheckPass } from "./check-pass.js";
import { checkConflicts } from "./check-conflicts.js";
import { checkLists } from "./check-lists.js";
import { checkReferences } from "./check-references.js";
import { checkRegexes } from "./check-regexes.js";
import { checkShadowing } from "./check-shadowing.js";
import { checkTcs } from "./check-tcs.js";
import { checkWordLists } from "./check-word-lists.js";

export const CHECK_PASSES: CheckPass[] = [checkReferences, checkLists, checkConflicts, checkShadowing, checkRegexes, checkTcs, checkWordLists];
