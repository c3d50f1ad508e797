// Compute pass: ONE automaton for all template paths of all intents, a trie over node labels.
// Paths sharing a prefix of identical nodes share states; an optional node adds a skip edge
// (epsilon) next to its consuming edge. Every edge points to a later state, so the runtime can
// follow skips in one ascending pass. Matching cost depends on the message, not on how many
// templates exist. Priority among complete matches is the runtime's (runtime/match/match-template.ts).
// Context children's paths are in the automaton too: the runtime accepts them only while their
// parent is the active context, and then before any top-level path.
// A list slot is ONE edge whatever the list's size (the runtime looks its values up by first
// word), and a number range is one edge too: neither multiplies paths.

import type { BundleRange, BundleState } from "../../runtime/bundle/bundle-types.js";
import type { NumberRange, TemplateNode } from "../ir/types.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import type { VocabTable } from "./compute-vocab.js";

/** The slot-capturing free-text type: captures several words (or one quoted text). */
export const FREE_STRING_TYPE = "string";

export interface AutomatonResult {
  states: BundleState[];
  /** The distinct number ranges the range edges refer to, in first-use order. */
  ranges: BundleRange[];
  paths: number;
  /** Paths dropped because a required node has a type nobody defined or that cannot be used. */
  unmatchable: { intent: string; path: number; reason: string }[];
}

interface Builder {
  state: BundleState;
  children: Map<string, number>;
}

export function computeAutomaton(
  ordered: readonly OrderedIntent[],
  vocab: VocabTable,
  usableTypes: ReadonlyMap<string, number>,
  /** List name → list id (compute-lists.ts). */
  listIds: ReadonlyMap<string, number>,
): AutomatonResult {
  const builders: Builder[] = [];
  const newState = (): number => {
    builders.push({ state: { vocab: [], typed: [], strings: [], lists: [], ranges: [], skip: [], accept: [] }, children: new Map() });
    return builders.length - 1;
  };
  const ranges: BundleRange[] = [];
  const rangeIds = new Map<string, number>();
  const rangeId = ({ min, max, unit }: NumberRange): number => {
    const key = `${min}..${max}${unit}`;
    let id = rangeIds.get(key);
    if (id === undefined) {
      rangeIds.set(key, (id = ranges.length));
      ranges.push({ min, max, unit });
    }
    return id;
  };
  const unusable = (n: TemplateNode): string | undefined => {
    if (n.type === "list") return listIds.has(n.list ?? "") ? undefined : `list "${n.list}" is undefined`;
    if (n.type === "range") return n.range ? undefined : "a range node without its range";
    if (n.type === "vocab" || n.type === FREE_STRING_TYPE || usableTypes.has(n.type)) return undefined;
    return `type "${n.type}" is undefined or unusable`;
  };
  newState();
  let paths = 0;
  const unmatchable: AutomatonResult["unmatchable"] = [];

  for (const { intent, index } of ordered) {
    intent.paths.forEach((path, pathIndex) => {
      const reason = path.nodes.filter((n) => n.required).map(unusable).find((r) => r !== undefined);
      if (reason !== undefined) {
        unmatchable.push({ intent: intent.id, path: pathIndex, reason });
        return;
      }
      paths++;
      let current = 0;
      for (const node of path.nodes) {
        const slot = node.tags[0] ?? node.type;
        let label: string;
        let ids: number[] = [];
        if (node.type === "vocab") {
          // most nodes have one tag: no set, no sort
          ids = node.tags.length === 1 ? [vocab.tagId.get(node.tags[0]!)!] : [...new Set(node.tags.map((tag) => vocab.tagId.get(tag)!))].sort((a, b) => a - b);
          label = `v:${ids.join(",")}`;
        } else if (node.type === FREE_STRING_TYPE) label = `s:${slot}`;
        else if (node.type === "list") label = `l:${listIds.get(node.list ?? "") ?? -1}:${slot}`;
        else if (node.type === "range") label = `r:${node.range ? rangeId(node.range) : -1}:${slot}`;
        else label = `t:${usableTypes.get(node.type) ?? -1}:${slot}`;
        const key = `${label}${node.required ? "!" : "?"}`;
        const from = builders[current]!;
        let child = from.children.get(key);
        if (child === undefined) {
          child = newState();
          from.children.set(key, child);
          if (!node.required) from.state.skip.push(child);
          if (node.type === "vocab") {
            from.state.vocab.push([ids, child]);
          } else if (node.type === FREE_STRING_TYPE) from.state.strings.push([slot, child]);
          else if (node.type === "list" && listIds.has(node.list ?? "")) from.state.lists.push([listIds.get(node.list!)!, slot, child]);
          else if (node.type === "range" && node.range) from.state.ranges.push([rangeId(node.range), slot, child]);
          else if (usableTypes.has(node.type)) from.state.typed.push([usableTypes.get(node.type)!, slot, child]);
          // An optional node of an unusable type or list keeps only its skip edge.
        }
        current = child;
      }
      builders[current]!.state.accept.push([index, pathIndex]);
    });
  }
  return { states: builders.map((b) => b.state), ranges, paths, unmatchable };
}
