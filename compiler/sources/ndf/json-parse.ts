// A strict JSON parser (RFC 8259) that keeps each value's offsets and nothing else: lines and
// columns are computed from the file's line map only when a location is asked for. momoa builds
// a full line/column record per node and token, which made a 4 MB templates file take over a
// second to parse (JSON.parse: 26 ms); this one returns the same tree shape. Text it refuses goes
// to momoa (json-ast.ts), which gives the syntax error its message, so the fast path never decides
// what is valid.
import type { LineMap } from "../location.js";

export interface Span {
  start: number;
  end: number;
  lines: LineMap;
}

export type JsonNode =
  | { type: "Object"; members: JsonMemberNode[]; loc: Span }
  | { type: "Array"; elements: { value: JsonNode }[]; loc: Span }
  | { type: "String"; value: string; loc: Span }
  | { type: "Number"; value: number; loc: Span }
  | { type: "Boolean"; value: boolean; loc: Span }
  | { type: "Null"; loc: Span };

export type ObjectNode = Extract<JsonNode, { type: "Object" }>;
export type StringNode = Extract<JsonNode, { type: "String" }>;

export interface JsonMemberNode {
  name: StringNode;
  value: JsonNode;
}

/** Thrown on the first character that is not valid JSON; the caller asks momoa why. */
class NotJson extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A run of string characters that need no decoding. */
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
/** Nesting beyond which the text goes to momoa (this parser is recursive). */
const MAX_DEPTH = 512;

/** The tree of `text`, or undefined when it is not strict JSON. */
export function parseJsonFast(text: string, lines: LineMap): JsonNode | undefined {
  let i = 0;
  const span = (start: number): Span => ({ start, end: i, lines });
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
    let value = "";
    for (;;) {
      PLAIN.lastIndex = i;
      const run = PLAIN.exec(text)![0];
      value += run;
      i += run.length;
      const c = text[i];
      if (c === '"') break;
      if (c !== "\\") fail(); // a control character or the end of the text
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
    }
    i++;
    return { type: "String", value, loc: span(start) };
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
      return { type: "Object", members, loc: span(start) };
    }
    if (c === "[") {
      i++;
      const elements: { value: JsonNode }[] = [];
      skipSpace();
      if (text[i] !== "]") {
        for (;;) {
          elements.push({ value: value(depth + 1) });
          skipSpace();
          if (text[i] !== ",") break;
          i++;
        }
      }
      expect("]");
      return { type: "Array", elements, loc: span(start) };
    }
    if (c === '"') return string();
    for (const [word, literal] of [["true", true], ["false", false], ["null", null]] as const) {
      if (!text.startsWith(word, i)) continue;
      i += word.length;
      return literal === null ? { type: "Null", loc: span(start) } : { type: "Boolean", value: literal, loc: span(start) };
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number === null) fail();
    i += number![0].length;
    return { type: "Number", value: Number(number![0]), loc: span(start) };
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
