// Diagnostic codes of the Terminal Commands Security rules, each written once in codes.json.
//
// Findings that the runtime still renders safely (slot values are quoted wherever they land, and a
// destructive tool reached by a guess asks) are warnings: `ndfc build` still writes the bundle, and
// `ndfc lint --strict` (the pre-commit hook) fails on them. A command that cannot be parsed is an
// error: nothing can render it safely.
import { codeArea, type Severity } from "../diagnostics.js";
import table from "./codes.json" with { type: "json" };

export const { codes: TCS_CODES, catalogue: TCS_CATALOGUE } = codeArea(table);

export function tcsSeverity(code: string): Severity {
  return TCS_CATALOGUE.find((info) => info.code === code)?.severity ?? "error";
}
