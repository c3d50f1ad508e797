// Word lists that expand without end or past what one answer renders. A <||tag||> inside a word
// list item is expanded when an answer is rendered (runtime/render/render.ts), at most MAX_RENDER_DEPTH
// levels deep and within RENDER_LIMITS per answer; a list that refers to itself (directly or
// through other lists) is cut at that depth, and one that fans out past the limits is cut there.
// Either way the text is not what the dataset says, so both are reported where the list is
// declared. Linear in the lists' size: one strongly-connected-components walk, and one worst-case
// cost per (list, depth).

import type { DiagnosticBag, RelatedLocation } from "../diagnostics.js";
import type { NpcIR, SourceLocation, WordList } from "../ir/types.js";
import type { Segments } from "../../runtime/bundle/bundle-types.js";
import { MAX_RENDER_DEPTH, RENDER_LIMITS } from "../../runtime/render/render.js";
import { tagReferences } from "../ir/walk.js";
import { CODES } from "../codes.js";
import { stronglyConnectedLoops } from "../strongly-connected.js";
import { computeWordLists } from "./compute-word-tables.js";

/** List name → the list names its items refer to (each once, in order of first reference). */
type ListGraph = Map<string, string[]>;

export function checkWordLists(ir: NpcIR, bag: DiagnosticBag): void {
  const lists = new Map(computeWordLists(ir.wordLists));
  const graph: ListGraph = new Map();
  for (const [name, variants] of lists) {
    graph.set(name, [...new Set(variants.flatMap((segments) => segments.filter((tag, i) => i % 2 === 1 && lists.has(tag))))]);
  }
  const onLoop = new Set<string>();
  for (const component of stronglyConnectedLoops(graph)) {
    component.forEach((name) => onLoop.add(name));
    reportLoop(ir.wordLists, graph, component, bag);
  }
  const cost = worstCost(lists);
  for (const name of lists.keys()) {
    const own = cost(name, 0);
    // Blame the list where the growth starts, not every list that refers to it.
    const children = graph.get(name)!;
    if (onLoop.has(name) || children.some((child) => exceeds(cost(child, 0)))) continue;
    if (exceeds(own)) reportFanOut(ir.wordLists, name, own, bag);
  }
}

interface Cost {
  /** Texts and tags rendered. */
  pieces: number;
  chars: number;
}

function exceeds(cost: Cost): boolean {
  return cost.pieces > RENDER_LIMITS.pieces || cost.chars > RENDER_LIMITS.chars;
}

/**
 * The most a list can render when its tag is reached at `depth`, as the runtime expands it (its
 * chosen item at depth + 1, tags there resolved while below MAX_RENDER_DEPTH); slots count 0.
 */
function worstCost(lists: ReadonlyMap<string, Segments[]>): (name: string, depth: number) => Cost {
  const memo = new Map<string, Cost>();
  const cost = (name: string, depth: number): Cost => {
    const key = `${depth}\u0000${name}`;
    let known = memo.get(key);
    if (known) return known;
    known = { pieces: 0, chars: 0 };
    for (const segments of lists.get(name) ?? []) {
      const item = { pieces: segments.length, chars: 0 };
      segments.forEach((part, i) => {
        if (i % 2 === 0) item.chars += part.length;
        else if (depth + 1 < MAX_RENDER_DEPTH && lists.has(part)) {
          const child = cost(part, depth + 1);
          item.pieces += child.pieces;
          item.chars += child.chars;
        }
      });
      known = { pieces: Math.max(known.pieces, item.pieces), chars: Math.max(known.chars, item.chars) };
    }
    memo.set(key, known);
    return known;
  };
  return cost;
}

/** The shortest way from `from` back to itself inside its component: [from, …, from]. */
function loopThrough(graph: ListGraph, from: string, component: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [from];
  for (let at = 0; at < queue.length; at++) {
    const name = queue[at]!;
    for (const child of graph.get(name)!) {
      if (child === from) {
        const path = [from];
        for (let step: string | undefined = name; step !== from && step !== undefined; step = cameFrom.get(step)) path.splice(1, 0, step);
        return [...path, from];
      }
      if (component.has(child) && !cameFrom.has(child)) {
        cameFrom.set(child, name);
        queue.push(child);
      }
    }
  }
  return [from, from];
}

/** Where `name` is declared: the first declaration whose items refer to `refersTo`, else the first. */
function declaration(lists: readonly WordList[], name: string, refersTo?: string): SourceLocation {
  const declared = lists.filter((list) => list.name === name);
  const referring = declared.find((list) => list.words.some((word) => tagReferences(word).some((ref) => ref.name === refersTo)));
  return (referring ?? declared[0]!).loc;
}

function reportLoop(lists: readonly WordList[], graph: ListGraph, component: string[], bag: DiagnosticBag): void {
  const first = component[0]!;
  const path = loopThrough(graph, first, new Set(component));
  const related: RelatedLocation[] = path
    .slice(1, -1)
    .map((name, k) => ({ message: `"${name}" refers to "${path[k + 2]}" here`, loc: declaration(lists, name, path[k + 2]) }));
  const how = path.length === 2 ? "refers to itself" : `refers to itself through ${path.slice(1, -1).map((name) => `"${name}"`).join(", ")}`;
  bag.warning(
    CODES.wordListExpansion,
    `word list "${first}" ${how} (${path.join(" → ")}): answers expand it only ${MAX_RENDER_DEPTH} levels deep, render the rest empty, and may hit the render limit; write the text out instead of referring back`,
    declaration(lists, first, path[1]),
    related.length > 0 ? related : undefined,
  );
}

function reportFanOut(lists: readonly WordList[], name: string, cost: Cost, bag: DiagnosticBag): void {
  const over = cost.pieces > RENDER_LIMITS.pieces ? `${cost.pieces} texts and tags (the limit is ${RENDER_LIMITS.pieces})` : `${cost.chars} characters (the limit is ${RENDER_LIMITS.chars})`;
  bag.warning(
    CODES.wordListExpansion,
    `word list "${name}" can expand to ${over} in one answer, so the answer is cut and a command using it refused; refer to fewer lists, or to them fewer times, in its items`,
    declaration(lists, name),
  );
}
