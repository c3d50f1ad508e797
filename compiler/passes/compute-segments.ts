// Compute pass helpers: texts split at build time into literal and `<||tag||>` segments, and tool
// objects turned into trees of such segments, so the runtime renders without parsing.

import type { Segments, ToolTree } from "../../runtime/bundle-types.js";
import { tagReferences } from "../ir/walk.js";
import { shellTemplate } from "../tcs/shell-template.js";

/** "Hi <||username||>!" → ["Hi ", "username", "!"] (even: literal text, odd: tag names). */
export function splitSegments(text: string): Segments {
  const out: Segments = [];
  let last = 0;
  for (const ref of tagReferences(text)) {
    out.push(text.slice(last, ref.index), ref.name);
    last = ref.index + ref.length;
  }
  out.push(text.slice(last));
  return out;
}

/** A tool's raw JSON value as a tree whose strings are pre-split, its `arguments.command` a shell template when it has placeholders. */
export function toolTree(tool: unknown): ToolTree {
  const tree = valueTree(tool);
  if (!("o" in tree)) return tree;
  for (const [key, args] of tree.o) {
    if (key !== "arguments" || !("o" in args)) continue;
    // A command without placeholders is rendered as written: it needs no template.
    args.o = args.o.map(([name, value]) => [name, name === "command" && Array.isArray(value) && value.length > 1 ? { sh: shellTemplate(value) } : value]);
  }
  return tree;
}

function valueTree(value: unknown): ToolTree {
  if (typeof value === "string") return splitSegments(value);
  if (Array.isArray(value)) return { a: value.map(valueTree) };
  if (value !== null && typeof value === "object") {
    return { o: Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, valueTree(v)]) };
  }
  if (typeof value === "number" || typeof value === "boolean") return { v: value };
  return { v: null };
}

/** Renderable variants of a custom key: a string, a list of strings, or a scalar's text. */
export function variantsOf(value: unknown): Segments[] | null {
  if (typeof value === "string") return [splitSegments(value)];
  if (typeof value === "number" || typeof value === "boolean") return [splitSegments(String(value))];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) {
    return value.map((v) => splitSegments(v as string));
  }
  return null;
}
