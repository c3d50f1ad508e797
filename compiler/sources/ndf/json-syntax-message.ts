// What a JSON syntax error means, in words: "expected ',' or '}' but found a string" rather than
// momoa's token names ("Unexpected token String found."). The text before the error is scanned
// once to learn what the grammar expected there; a comment gets its own advice, since NDF files
// are plain JSON (other NDF tools read them with a strict parser, so ndfc does not take JSONC).
import { positionAt } from "../location.js";

type Expecting = "firstKey" | "key" | "colon" | "firstValue" | "value" | "after";

interface Scan {
  /** Open `{` / `[` with their offsets, innermost last. */
  open: { char: "{" | "["; offset: number }[];
  expecting: Expecting;
}

/** The message for a syntax error at `offset` of `text` (momoa's position of the offending token). */
export function jsonSyntaxMessage(text: string, at: number): string {
  const offset = at + /^\s*/.exec(text.slice(at))![0].length; // momoa may stop before trailing whitespace
  const scan = scanTo(text, offset);
  const found = describeFound(text, offset);
  if (found === "a comment") return "JSON has no comments: remove this comment (NDF files are plain JSON, as other NDF tools read them)";
  const innermost = scan.open[scan.open.length - 1];
  let message = `expected ${describeExpected(scan.expecting, innermost?.char)} but found ${found}`;
  if (offset >= text.length && innermost !== undefined) {
    const { line, column } = positionAt(text, innermost.offset);
    message += `: the '${innermost.char}' opened at ${line}:${column} is never closed`;
  }
  return message;
}

function scanTo(text: string, offset: number): Scan {
  const scan: Scan = { open: [], expecting: "value" };
  let i = 0;
  while (i < offset) {
    const c = text[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '"') {
      i = stringEnd(text, i);
      scan.expecting = scan.expecting === "firstKey" || scan.expecting === "key" ? "colon" : "after";
    } else if (c === "{" || c === "[") {
      scan.open.push({ char: c, offset: i++ });
      scan.expecting = c === "{" ? "firstKey" : "firstValue";
    } else if (c === "}" || c === "]") {
      scan.open.pop();
      scan.expecting = "after";
      i++;
    } else if (c === ":") {
      scan.expecting = "value";
      i++;
    } else if (c === ",") {
      scan.expecting = scan.open[scan.open.length - 1]?.char === "{" ? "key" : "value";
      i++;
    } else {
      while (i < offset && /[\w.+-]/.test(text[i]!)) i++; // a number, true, false or null
      if (!/[\w.+-]/.test(c)) i++;
      scan.expecting = "after";
    }
  }
  return scan;
}

/** The offset just past the string opening at `open` (or the end of the text). */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

function describeExpected(expecting: Expecting, container: "{" | "[" | undefined): string {
  const VALUE = "a value (a string, a number, an object, a list, true, false or null)";
  switch (expecting) {
    case "firstKey":
      return "a key in double quotes, or '}'";
    case "key":
      return "a key in double quotes (JSON allows no ',' before '}')";
    case "colon":
      return "':' after the key";
    case "firstValue":
      return `${VALUE}, or ']'`;
    case "value":
      return container === "[" ? `${VALUE} (JSON allows no ',' before ']')` : VALUE;
    case "after":
      if (container === "{") return "',' between members, or '}' to close the object";
      if (container === "[") return "',' between elements, or ']' to close the list";
      return "the end of the file (a file holds one JSON value)";
  }
}

function describeFound(text: string, offset: number): string {
  if (offset >= text.length) return "the end of the file";
  const c = text[offset]!;
  if (c === "/" && (text[offset + 1] === "/" || text[offset + 1] === "*")) return "a comment";
  if (c === '"') return "a string";
  if (c === "'") return "a single quote (JSON strings use double quotes)";
  if (/[-\d]/.test(c)) return "a number";
  const word = /^[\p{L}\p{N}_$]+/u.exec(text.slice(offset, offset + 40))?.[0];
  if (word !== undefined) return `the word '${word}' (strings and keys need double quotes)`;
  return `'${c}'`;
}
