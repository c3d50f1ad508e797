// Position-aware JSON: parsing with @humanwhocodes/momoa and small helpers over its AST,
// so every value the loader reads keeps the file, line and column it was written at.
import { evaluate, parse } from "@humanwhocodes/momoa";
import type { AnyNode, DocumentNode, ObjectNode, ValueNode } from "@humanwhocodes/momoa";
import type { DiagnosticBag } from "../../diagnostics.js";
import type { SourceLocation } from "../../ir/types.js";
import { CODES } from "../../passes/codes.js";
import { positionAt } from "../location.js";

export type JsonNode = ValueNode;
export type { ObjectNode };

export function locOf(node: AnyNode, file: string): SourceLocation {
  const { start, end } = node.loc;
  return { file, line: start.line, column: start.column, offset: start.offset, endOffset: end.offset };
}

/** Parses JSON text; a syntax error becomes a located diagnostic and the result is undefined. */
export function parseJson(file: string, text: string, bag: DiagnosticBag): JsonNode | undefined {
  try {
    const document: DocumentNode = parse(text, { mode: "json", ranges: false, tokens: false });
    return document.body;
  } catch (error) {
    const { message, line, column, offset } = syntaxErrorPosition(error, text);
    bag.error(CODES.jsonSyntax, `invalid JSON: ${message}`, { file, line, column, offset });
    return undefined;
  }
}

function syntaxErrorPosition(error: unknown, text: string) {
  const e = error as { message?: string; line?: number; column?: number; offset?: number };
  const raw = typeof e.message === "string" ? e.message : String(error);
  const message = raw.replace(/\s*\(\d+:\d+\)\s*$/, "");
  if (typeof e.line === "number" && typeof e.column === "number") {
    return { message, line: e.line, column: e.column, offset: e.offset ?? 0 };
  }
  const end = positionAt(text, text.length);
  return { message, ...end, offset: text.length };
}

export function toValue(node: JsonNode): unknown {
  return evaluate(node);
}

/** The members of an object node as [key, value node, key node] triples in source order. */
export interface JsonMember {
  key: string;
  value: JsonNode;
  keyNode: AnyNode;
}

export function membersOf(node: ObjectNode): JsonMember[] {
  return node.members.map((m) => ({ key: m.name.type === "String" ? m.name.value : m.name.name, value: m.value, keyNode: m.name }));
}

/** The node at a JSON pointer (`/0/structure/1`), or the deepest node on the way to it. */
export function nodeAtPointer(root: JsonNode, pointer: string): JsonNode {
  let node: JsonNode = root;
  if (pointer === "") return node;
  for (const rawPart of pointer.split("/").slice(1)) {
    const part = rawPart.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node.type === "Object") {
      const member = node.members.find((m) => (m.name.type === "String" ? m.name.value : m.name.name) === part);
      if (!member) return node;
      node = member.value;
    } else if (node.type === "Array") {
      const element = node.elements[Number(part)];
      if (!element) return node;
      node = element.value;
    } else {
      return node;
    }
  }
  return node;
}
