// A strict JSON parser (RFC 8259) that keeps each value's offsets and nothing else: lines and
// columns are computed from the file's line map only when a location is asked for. momoa builds
// a full line/column record per node and token, which made a 4 MB templates file take over a
// second to parse (JSON.parse: 26 ms); this one returns the same tree shape. Text it refuses goes
// to momoa (json-ast.ts), which gives the syntax error its message, so the fast path never decides
// what is valid.
import type { LineMap } from "../location.js";

/** Where a value was written: offsets into the text of `lines`, which turns them into lines and columns on demand. */
export interface Span {
  start: number;
  end: number;
  lines: LineMap;
}

// The span is on the node itself, and arrays hold their nodes directly: a big templates file has
// hundreds of thousands of values, and every object less per value is time the parse and the
// collector do not spend.
export type JsonNode = Span &
  (
    | { type: "Object"; members: JsonMemberNode[] }
    | { type: "Array"; elements: JsonNode[] }
    | { type: "String"; value: string }
    | { type: "Number"; value: number }
    | { type: "Boolean"; value: boolean }
    | { type: "Null" }
  );

export type ObjectNode = Extract<JsonNode, { type: "Object" }>;
export type StringNode = Extract<JsonNode, { type: "String" }>;

export interface JsonMemberNode {
  name: StringNode;
  value: JsonNode;
}

/** Thrown on the first character that is not valid JSON; the caller asks momoa why. */
class NotJson extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
/** Nesting beyond which the text goes to momoa (this parser is recursive). */
const MAX_DEPTH = 512;

/** The tree of `text`, or undefined when it is not strict JSON. */
export function parseJsonFast(text: string, lines: LineMap): JsonNode | undefined {
  let i = 0;
  const fail = (): never => {
    throw new NotJson();
  };
  const skipSpace = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  };
  const expect = (char: string) => {
    if (text[i] !== char) fail();
    i++;
  };
  const string = (): StringNode => {
    const start = i;
    expect('"');
    // Most strings have no escape: one slice of the text, no regex and no concatenation.
    let runStart = i;
    let value = "";
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) break; // the closing quote
      if (c >= 32 && c !== 92) {
        i++;
        continue;
      }
      if (c !== 92) fail(); // a control character, or the end of the text (NaN)
      value += text.slice(runStart, i);
      const escape = text[i + 1]!;
      if (escape === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail();
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const decoded = ESCAPES[escape];
        if (decoded === undefined) fail();
        value += decoded;
        i += 2;
      }
      runStart = i;
    }
    value += text.slice(runStart, i); // "" + the slice when there was no escape: no copy
    i++;
    return { type: "String", value, start, end: i, lines };
  };
  /** true, false or null at `start`, as a node (undefined when none is there). */
  const literal = (start: number): JsonNode | undefined => {
    if (text.startsWith("true", i)) {
      i += 4;
      return { type: "Boolean", value: true, start, end: i, lines };
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return { type: "Boolean", value: false, start, end: i, lines };
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return { type: "Null", start, end: i, lines };
    }
    return undefined;
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail();
    skipSpace();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const members: JsonMemberNode[] = [];
      skipSpace();
      if (text[i] !== "}") {
        for (;;) {
          skipSpace();
          const name = string();
          skipSpace();
          expect(":");
          members.push({ name, value: value(depth + 1) });
          skipSpace();
          if (text[i] !== ",") break;
          i++;
        }
      }
      expect("}");
      return { type: "Object", members, start, end: i, lines };
    }
    if (c === "[") {
      i++;
      const elements: JsonNode[] = [];
      skipSpace();
      if (text[i] !== "]") {
        for (;;) {
          elements.push(value(depth + 1));
          skipSpace();
          if (text[i] !== ",") break;
          i++;
        }
      }
      expect("]");
      return { type: "Array", elements, start, end: i, lines };
    }
    if (c === '"') return string();
    const named = literal(start);
    if (named !== undefined) return named;
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number === null) fail();
    i += number![0].length;
    return { type: "Number", value: Number(number![0]), start, end: i, lines };
  };
  try {
    const root = value(0);
    skipSpace();
    return i === text.length ? root : undefined;
  } catch (error) {
    if (error instanceof NotJson) return undefined;
    throw error;
  }
}
