// The compiler's passes by stage, in the order they run (docs/architecture.md draws the pipeline):
//   check      CHECK_PASSES report diagnostics and change nothing: `ndfc lint` is load + check;
//   transform  foldTeachings folds trusted teachings into the IR (CompileOptions.teachings);
//   compute    the compute-*.ts passes derive the runtime's tables; compileNpc calls them in order
//              with explicit data flow, each a pure function of what it is given;
//   emit       runtime/bundle/encode.ts encodes the payload into bundle bytes.
// Two entry points run them: lintSources (lint.ts) loads and checks; compileNpc (compile.ts)
// transforms, computes and emits. ndfc lint calls the first, ndfc build (--taught, --wordnet) both,
// refusing to compile on an error, and a library caller does the same with the same options.
import type { CheckPass } from "./check-pass.js";
import { checkConflicts } from "./check-conflicts.js";
import { checkLists } from "./check-lists.js";
import { checkReferences } from "./check-references.js";
import { checkRegexes } from "./check-regexes.js";
import { checkShadowing } from "./check-shadowing.js";
import { checkTcs } from "./check-tcs.js";
import { checkWordLists } from "./check-word-lists.js";

export const CHECK_PASSES: CheckPass[] = [checkReferences, checkLists, checkConflicts, checkShadowing, checkRegexes, checkTcs, checkWordLists];
