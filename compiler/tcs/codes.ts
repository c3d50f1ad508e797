// Diagnostic codes of the Terminal Commands Security rules, and their part of the lint catalogue.
import type { CodeInfo, Severity } from "../diagnostics.js";

export const TCS_CODES = {
  unquotedInput: "TCS001",
  joinedInputs: "TCS002",
  missingDoubleDash: "TCS003",
  unparsable: "TCS004",
  destructiveWithoutAsk: "TCS005",
  inputAsCode: "TCS006",
} as const;

// Findings that the runtime still renders safely (slot values are quoted wherever they land, and a
// destructive tool reached by a guess asks) are warnings: `ndfc build` still writes the bundle, and
// `ndfc lint --strict` (the pre-commit hook) fails on them. A command that cannot be parsed is an
// error: nothing can render it safely.
export const TCS_CATALOGUE: CodeInfo[] = [
  { code: TCS_CODES.unquotedInput, severity: "warning", title: "A placeholder carrying user input sits outside single quotes in a shell command (bare, in double quotes, in ${ }, $(( )), a here-document or backticks)." },
  { code: TCS_CODES.joinedInputs, severity: "warning", title: "One shell argument joins several user-input placeholders; build it with printf." },
  { code: TCS_CODES.missingDoubleDash, severity: "warning", title: "A native program (rm, cat, grep, …) receives user input where it could be read as an option: put -- before it." },
  { code: TCS_CODES.unparsable, severity: "error", title: "A shell command cannot be parsed (unbalanced quotes, unterminated $( ), here-document without its delimiter)." },
  { code: TCS_CODES.destructiveWithoutAsk, severity: "warning", title: "A destructive command (rm, mv over, dd, mkfs, chmod -R, kill, reboot, sudo, > onto a run-time path, force push, …) whose permission is not ask." },
  { code: TCS_CODES.inputAsCode, severity: "warning", title: "User input becomes code for another interpreter (sh -c, eval, python -c, an awk program, a sed script, a remote ssh command) or chooses the program to run." },
];

export function tcsSeverity(code: string): Severity {
  return TCS_CATALOGUE.find((info) => info.code === code)?.severity ?? "error";
}
