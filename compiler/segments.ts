// Texts split at build time (for compute-intents.ts and compute-word-tables.ts) into literal and `<||tag||>` segments, and tool
// objects turned into trees of such segments, so the runtime renders without parsing.

import type { Segments, ToolTree } from "../runtime/bundle/bundle-types.js";
import type { ToolCall } from "./ir/types.js";
import { tagReferences } from "./ir/walk.js";
import { shellTemplate } from "./tcs/shell-template.js";

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

/**
 * A tool call as a tree whose strings are pre-split, its `arguments.command` a shell template when
 * it has placeholders. An OpenAI-shaped call keeps its shape; its `arguments` written as a JSON
 * string become `{j: tree}` (rendered, then serialized), so a slot value holding a quote cannot
 * break the JSON the way substituting into the string's text would.
 */
export function toolTree(tool: ToolCall): ToolTree {
  const tree = valueTree(tool.raw);
  const holder = tool.shape ? memberOf(tree, "function") : tree;
  if (holder === undefined || !("o" in holder)) return tree;
  holder.o = holder.o.map(([key, value]) => {
    if (key !== "arguments") return [key, value];
    return [key, tool.shape?.argumentsAsJson ? { j: argumentsTree(valueTree(tool.arguments)) } : argumentsTree(value)];
  });
  return tree;
}

function memberOf(tree: ToolTree, name: string): ToolTree | undefined {
  return "o" in tree ? tree.o.find(([key]) => key === name)?.[1] : undefined;
}

function argumentsTree(args: ToolTree): ToolTree {
  if (!("o" in args)) return args;
  // A command without placeholders is rendered as written: it needs no template.
  return { o: args.o.map(([name, value]) => [name, name === "command" && Array.isArray(value) && value.length > 1 ? { sh: shellTemplate(value) } : value]) };
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
