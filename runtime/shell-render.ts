// Rendering values into a shell command by where each placeholder sits, as the shell lexer sees
// the command before any value is put in. A TCS-clean command has every user value in single
// quotes, where escaping `'` is all it takes; a command that is not clean still never hands a
// value to the shell raw:
//   unquoted            → quoted: 'value' (so no splitting, globbing or syntax)
//   '…'                 → '\'' for each quote
//   "…"                 → as is, or refused when it holds $ ` \ " (they would be interpreted)
//   $'…'                → \\ and \' escaped
//   ${…}, here-documents, comments → only plain characters ([letters digits _ . , : / @ % + = -])
//   $((…))              → only a number: digits . + - and spaces
//   right after a bare $ → refused unless empty ($value would be an expansion)
//   inside backticks    → refused when it holds ` \ $ (backticks unescape before parsing)
// NUL is refused everywhere (a C string cannot carry it).
import { lexShell, type QuoteContext } from "./shell-lexer.js";
import { escapeForSingleQuotes, UnsafeSlotValueError } from "./shell-escape.js";

type ShellSegment = string | { tag: string; context: QuoteContext; inBackticks: boolean };

/** The value a tag renders to; "" for a tag nothing fills. */
export type TagValues = (tag: string) => string;

const PLAIN = /^[\p{L}\p{N}_.,:/@%+=-]*$/u;
const NUMERIC = /^[0-9.+\- ]*$/;
const DOUBLE_QUOTE_LIVE = /[$`\\"]/;
const BACKTICK_LIVE = /[`\\$]/;
const SEGMENT_CACHE_LIMIT = 512;
const segmentCache = new Map<string, ShellSegment[]>();

/** Splits a command into literal text and placeholders with their quoting. Throws when it cannot be parsed. */
function shellSegments(command: string): ShellSegment[] {
  const cached = segmentCache.get(command);
  if (cached) return cached;
  const lexed = lexShell(command);
  const anyTag = /<\|\|([\w.-]+)\|\|>/.exec(command);
  if (lexed.error && anyTag) {
    throw new UnsafeSlotValueError(anyTag[1]!, `the command cannot be parsed (${lexed.error.message}), so no value can be placed in it safely`);
  }
  const segments: ShellSegment[] = [];
  let at = 0;
  for (const site of lexed.placeholders) {
    segments.push(command.slice(at, site.start), { tag: site.tag, context: site.context, inBackticks: site.inBackticks });
    at = site.end;
  }
  segments.push(command.slice(at));
  if (segmentCache.size >= SEGMENT_CACHE_LIMIT) segmentCache.clear();
  segmentCache.set(command, segments);
  return segments;
}

/** Renders `command` with each placeholder's value escaped for where it sits; throws UnsafeSlotValueError when it cannot be. */
export function renderShellCommand(command: string, valueOf: TagValues): string {
  return renderShellSegments(shellSegments(command), valueOf);
}

const splitCache = new WeakMap<readonly string[], ShellSegment[]>();

/** The same, from a command pre-split as [literal, tag, literal, tag, …, literal] (the bundle's form). */
export function renderSplitShellCommand(split: readonly string[], valueOf: TagValues): string {
  let segments = splitCache.get(split);
  if (!segments) {
    segments = shellSegments(split.map((piece, i) => (i % 2 === 0 ? piece : `<||${piece}||>`)).join(""));
    splitCache.set(split, segments);
  }
  return renderShellSegments(segments, valueOf);
}

function renderShellSegments(segments: readonly ShellSegment[], valueOf: TagValues): string {
  let out = "";
  for (const segment of segments) {
    out += typeof segment === "string" ? segment : escapeForContext(segment.tag, valueOf(segment.tag), segment.context, segment.inBackticks);
  }
  return out;
}

function escapeForContext(tag: string, value: string, context: QuoteContext, inBackticks: boolean): string {
  if (value.includes("\u0000")) throw new UnsafeSlotValueError(tag, "it contains a NUL byte");
  if (inBackticks && BACKTICK_LIVE.test(value)) throw new UnsafeSlotValueError(tag, "it sits inside backticks and contains ` \\ or $");
  switch (context) {
    case "single":
      return escapeForSingleQuotes(tag, value);
    case "unquoted":
      return `'${escapeForSingleQuotes(tag, value)}'`;
    case "double":
      if (DOUBLE_QUOTE_LIVE.test(value)) throw new UnsafeSlotValueError(tag, 'it sits inside double quotes and contains $ ` \\ or "');
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
}
