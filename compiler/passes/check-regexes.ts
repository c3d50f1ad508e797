// Type regexes, judged by the engine that runs them: the runtime's linear-time VM
// (runtime/text/regex-vm.ts), through the same compiler the build uses (compute-type-programs.ts), so
// lint and build cannot disagree. A pattern the VM cannot compile is an error (its templates would
// never match). What other engines would make of a pattern (JavaScript's RegExp rejecting Python
// spellings, backtracking blow-ups in Python's re or RegExp) is only a note: the VM has neither.
import type { DiagnosticBag } from "../diagnostics.js";
import type { NpcIR, TypeDef } from "../ir/types.js";
import { CODES } from "../codes.js";
import { compileTypeRegex } from "./compute-type-programs.js";
import { analyseRedos } from "../redos-analysis.js";

export function checkRegexes(ir: NpcIR, bag: DiagnosticBag): void {
  for (const type of ir.types) checkType(type, bag);
}

function checkType(type: TypeDef, bag: DiagnosticBag): void {
  const { unusable } = compileTypeRegex(type.name, type.pattern, type.flags);
  if (unusable !== null) {
    bag.error(
      CODES.invalidRegex,
      `type "${type.name}" cannot run in ndfc's regex engine: ${unusable}; ${hintFor(unusable)} (until then no template slot of this type ever matches)`,
      type.loc,
    );
    return;
  }
  const jsError = javaScriptError(type.pattern, type.flags);
  if (jsError !== null) {
    bag.info(
      CODES.nonJsRegex,
      `type "${type.name}" runs in ndfc, but JavaScript's RegExp rejects it (${jsError}): only a tool reusing this regex outside ndfc is affected`,
      type.loc,
    );
    return;
  }
  const verdict = analyseRedos(type.pattern, type.flags);
  if (verdict.complexity !== "exponential" && verdict.complexity !== "polynomial") return;
  const attack = verdict.attack ? ` on an input like ${JSON.stringify(verdict.attack)}` : " on long inputs";
  const growth = verdict.complexity === "exponential" ? "exponentially (nested quantifiers such as (x+)+)" : "polynomially";
  bag.info(
    verdict.complexity === "exponential" ? CODES.redosExponential : CODES.redosPolynomial,
    `type "${type.name}" backtracks ${growth}${attack} in backtracking engines (Python's re, as in NPC-Forge; JavaScript's RegExp); ndfc's runtime matches it in linear time, so this matters only where the regex is reused elsewhere`,
    type.loc,
  );
}

/** What to write instead of the construct the VM refused. */
function hintFor(reason: string): string {
  if (reason.includes("\\b") || reason.includes("\\B")) return "a type tests one token at a time, so anchor it with ^ and $ instead of word boundaries";
  if (reason.includes("lookaround") || reason.includes("backreference")) return "rewrite it without lookaround or backreferences (the engine is linear-time and has neither)";
  return "fix or simplify the pattern";
}

function javaScriptError(pattern: string, flags: string): string | null {
  try {
    new RegExp(pattern, flags);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : String(error);
  }
}
