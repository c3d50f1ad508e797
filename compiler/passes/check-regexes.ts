// Type regexes: they must compile in JavaScript and must not backtrack catastrophically.
import type { DiagnosticBag } from "../diagnostics.js";
import type { NpcIR, TypeDef } from "../ir/types.js";
import { CODES } from "./codes.js";
import { analyseRedos } from "./redos-analysis.js";

/** Python's inline flag groups `(?i:…)`, `(?i)`: JavaScript (Node 20) has neither. */
const PYTHON_INLINE_FLAGS = /\(\?[aiLmsux]+[:)]/;

export function checkRegexes(ir: NpcIR, bag: DiagnosticBag): void {
  for (const type of ir.types) checkType(type, bag);
}

function checkType(type: TypeDef, bag: DiagnosticBag): void {
  const inline = PYTHON_INLINE_FLAGS.exec(type.pattern);
  if (inline) {
    bag.warning(
      CODES.nonJsRegex,
      `type "${type.name}" uses the Python inline flag group "${inline[0]}", which JavaScript does not have; spell the cases out instead (e.g. [kKmMgG]?[bB])`,
      type.loc,
    );
    return;
  }
  try {
    new RegExp(type.pattern, type.flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : String(error);
    bag.error(CODES.invalidRegex, `type "${type.name}" has an invalid regex: ${reason}`, type.loc);
    return;
  }
  const verdict = analyseRedos(type.pattern, type.flags);
  const attack = verdict.attack ? `; an input like ${JSON.stringify(verdict.attack)} makes it hang` : "";
  if (verdict.complexity === "exponential") {
    bag.warning(CODES.redosExponential, `type "${type.name}" backtracks exponentially (nested quantifiers such as (x+)+)${attack}; rewrite it without nested repetition`, type.loc);
  } else if (verdict.complexity === "polynomial") {
    bag.info(CODES.redosPolynomial, `type "${type.name}" backtracks polynomially on long inputs (the runtime bounds input length, so this is only slow)`, type.loc);
  }
}
