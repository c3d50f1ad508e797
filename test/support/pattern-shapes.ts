// The node sequences a rule pattern's template stands for, written out for assertions: a word node
// as its words joined by |, a slot as :name with its list or range, `?` after an optional node.
import { expect } from "vitest";
import { parsePattern, templateParts, type ExpansionLookup, type PathNode, type PathPart } from "../../compiler/sources/dsl/pattern.js";

export function patternShapes(text: string, expansions?: ExpansionLookup): string[] {
  const parsed = parsePattern(text, expansions);
  expect(parsed.problems).toEqual([]);
  return sequences(templateParts(parsed.items)).map((nodes) => nodes.map(nodeShape).join(" "));
}

/** Every sequence, in written order (the first alternative first). */
export function sequences(parts: readonly PathPart[]): PathNode[][] {
  let out: PathNode[][] = [[]];
  for (const part of parts) {
    const options = part.kind === "choice" ? part.alternatives.flatMap(sequences) : [[part]];
    out = out.flatMap((prefix) => options.map((option) => [...prefix, ...option]));
  }
  return out;
}

function nodeShape(node: PathNode): string {
  const text =
    node.kind === "slot"
      ? `:${node.slot.name}${node.slot.list ? `(${node.slot.list})` : ""}${node.slot.range ? `(${node.slot.range.min}..${node.slot.range.max})${node.slot.range.unit}` : ""}`
      : node.words.join("|");
  return text + (node.required ? "" : "?");
}
