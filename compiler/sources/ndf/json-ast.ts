// Position-aware JSON: the fast strict parser (json-parse.ts), momoa for text it refuses (which
// gives a syntax error its message, or parses what the fast path did not take), and small helpers
// over the tree, so every value the loader reads keeps the file, line and column it was written at.
import { parse } from "@humanwhocodes/momoa";
import type { ValueNode } from "@humanwhocodes/momoa";
import type { DiagnosticBag } from "../../diagnostics.js";
import type { SourceLocation } from "../../ir/types.js";
import { NDF_CODES } from "./codes.js";
import { LineMap, positionAt } from "../location.js";
import { parseJsonFast, type JsonNode, type ObjectNode, type StringNode } from "./json-parse.js";
import { jsonSyntaxMessage } from "./json-syntax-message.js";
import { setOwn } from "../../own-property.js";

export type { JsonNode, ObjectNode };

/** Where a value (or a key) was written; line and column are computed here, on demand. */
export function locOf(node: JsonNode): SourceLocation {
  return node.lines.at(node.start, node.end);
}

/** Parses JSON text; a syntax error becomes a located diagnostic and the result is undefined. */
export function parseJson(file: string, text: string, bag: DiagnosticBag): JsonNode | undefined {
  const lines = new LineMap(file, text);
  const fast = parseJsonFast(text, lines);
  if (fast !== undefined) return fast;
  try {
    return fromMomoa(parse(text, { mode: "json", ranges: false, tokens: false }).body, lines);
  } catch (error) {
    const { line, column, offset } = syntaxErrorPosition(error, text);
    bag.error(NDF_CODES.jsonSyntax, `invalid JSON: ${jsonSyntaxMessage(text, offset)}`, { file, line, column, offset });
    return undefined;
  }
}

/** momoa's tree in this module's shape (for text the fast parser left to momoa and momoa took). */
function fromMomoa(node: ValueNode, lines: LineMap): JsonNode {
  const span = { start: node.loc.start.offset, end: node.loc.end.offset, lines };
  switch (node.type) {
    case "Object":
      return {
        type: "Object",
        members: node.members.map((m) => ({ name: fromMomoa(m.name as ValueNode, lines) as StringNode, value: fromMomoa(m.value, lines) })),
        ...span,
      };
    case "Array":
      return { type: "Array", elements: node.elements.map((e) => fromMomoa(e.value, lines)), ...span };
    case "String":
    case "Number":
    case "Boolean":
      return { type: node.type, value: node.value, ...span } as JsonNode;
    default:
      return { type: "Null", ...span }; // json mode has no other value (no NaN, Infinity, identifiers)
  }
}

/** Where momoa stopped (the offending token, or the end of the text). */
function syntaxErrorPosition(error: unknown, text: string): { line: number; column: number; offset: number } {
  const e = error as { line?: number; column?: number; offset?: number };
  if (typeof e.line === "number" && typeof e.column === "number") {
    return { line: e.line, column: e.column, offset: e.offset ?? text.length };
  }
  return { ...positionAt(text, text.length), offset: text.length };
}

/** The plain value of a node (a later duplicate key wins, as in JSON.parse; members through setOwn). */
export function toValue(node: JsonNode): unknown {
  switch (node.type) {
    case "Object": {
      const out: Record<string, unknown> = {};
      for (const m of node.members) setOwn(out, m.name.value, toValue(m.value));
      return out;
    }
    case "Array":
      return node.elements.map(toValue);
    case "Null":
      return null;
    default:
      return node.value;
  }
}

/** The members of an object node as [key, value node, key node] triples in source order. */
export interface JsonMember {
  key: string;
  value: JsonNode;
  keyNode: JsonNode;
}

export function membersOf(node: ObjectNode): JsonMember[] {
  return node.members.map((m) => ({ key: m.name.value, value: m.value, keyNode: m.name }));
}

/** The value of `node`'s member `key`, or undefined when it has none. */
export function memberValue(node: ObjectNode, key: string): JsonNode | undefined {
  return node.members.find((m) => m.name.value === key)?.value;
}

/** The node at a JSON pointer (`/0/structure/1`), or the deepest node on the way to it. */
export function nodeAtPointer(root: JsonNode, pointer: string): JsonNode {
  let node: JsonNode = root;
  if (pointer === "") return node;
  for (const rawPart of pointer.split("/").slice(1)) {
    const part = rawPart.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node.type === "Object") {
      const member = memberValue(node, part);
      if (!member) return node;
      node = member;
    } else if (node.type === "Array") {
      const element = node.elements[Number(part)];
      if (!element) return node;
      node = element;
    } else {
      return node;
    }
  }
  return node;
}
