// Rendering values into a shell command by where each placeholder sits, as the compiler's shell
// lexer saw the command before any value is put in (the bundle's ShellTemplate). A TCS-clean
// command has every user value in single quotes, where escaping `'` is all it takes; a command
// that is not clean still never hands a value to the shell raw:
//   unquoted            → quoted: 'value' (so no splitting, globbing or syntax)
//   '…'                 → '\'' for each quote
//   "…"                 → as is, or refused when it holds $ ` \ " (they would be interpreted)
//   $'…'                → \\ and \' escaped
//   ${…}, here-documents, comments → only plain characters ([letters digits _ . , : / @ % + = -])
//   $((…))              → only a number: digits . + - and spaces
//   right after a bare $ → refused unless empty ($value would be an expansion)
//   inside backticks    → refused when it holds $ ` \ " (backticks unescape before parsing, and a "
//                         in backticks within "…" is undefined in POSIX: bash reads "…>({ as a
//                         process substitution there)
// NUL is refused everywhere (a C string cannot carry it).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).
import type { ShellPlace, ShellTemplate } from "../bundle/bundle-types.js";
import { UnsafeSlotValueError } from "./shell-escape.js";

/** The value a tag renders to; "" for a tag nothing fills. */
export type TagValues = (tag: string) => string;

const PLAIN = /^[\p{L}\p{N}_.,:/@%+=-]*$/u;
const NUMERIC = /^[0-9.+\- ]*$/;
/** The characters a double-quoted or backticked value must not hold. */
const SUBSTITUTION_LIVE = /[$`\\"]/;

/** Renders a command with each placeholder's value escaped for where it sits; throws UnsafeSlotValueError when it cannot be. */
export const renderShellTemplate = (function renderShellTemplate(template: ShellTemplate, valueOf: TagValues): string {
  if (template.unsafe) throw new UnsafeSlotValueError(template.unsafe.tag, template.unsafe.reason);
  const { segments, places } = template;
  let out = segments[0]!;
  for (let i = 1; i < segments.length; i += 2) out += escapeForPlace(segments[i]!, valueOf(segments[i]!), places[(i - 1) / 2]!) + segments[i + 1]!;
  return out;
});

/** `value` for use between single quotes, where the shell interprets nothing: `'` becomes `'\''` (NUL is refused before). */
const singleQuoted = (value: string): string => value.replaceAll("'", "'\\''");

/** Refuses a value that `$ \` \\ "` would make the shell interpret where it sits. */
function refuseLive(tag: string, value: string, where: string): void {
  if (SUBSTITUTION_LIVE.test(value)) throw new UnsafeSlotValueError(tag, `it sits inside ${where} and contains $ \` \\ or "`);
}

const escapeForPlace = (function escapeForPlace(tag: string, value: string, { context, inBackticks }: ShellPlace): string {
  if (value.includes("\u0000")) throw new UnsafeSlotValueError(tag, "it contains a NUL byte");
  if (inBackticks) refuseLive(tag, value, "backticks");
  switch (context) {
    case "single":
      return singleQuoted(value);
    case "unquoted":
      return `'${singleQuoted(value)}'`;
    case "double":
      refuseLive(tag, value, "double quotes");
      return value;
    case "ansi-c":
      return value.replace(/[\\']/g, (c) => `\\${c}`);
    case "arith":
      if (!NUMERIC.test(value)) throw new UnsafeSlotValueError(tag, "it sits inside $(( … )) and is not a number");
      return value;
    case "dollar":
      if (value !== "") throw new UnsafeSlotValueError(tag, "it follows a bare $, which would expand it");
      return value;
    default:
      if (!PLAIN.test(value)) throw new UnsafeSlotValueError(tag, `it sits in a ${context} position where only letters, digits and _ . , : / @ % + = - are safe`);
      return value;
  }
});
