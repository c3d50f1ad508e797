// Compute pass: ONE automaton for all templates of all intents, a trie over node labels.
// Templates sharing a prefix of identical nodes share states; an optional node adds a skip edge
// (epsilon) next to its consuming edge. A choice (a group of a DSL pattern) branches from the
// current state into each alternative, and the alternatives' ends skip to one join state made
// after them (Thompson's construction), so a template costs states linear in its size, never the
// product of its choices. Every edge points to a later state, so the runtime can follow skips in
// one ascending pass; joins make it a DAG, not a tree. Two threads in one state have the same
// future, which keeps prefix sharing sound: a state's edges only ever lead on to phrasings of
// every template whose prefix reaches it, and a join is never shared (no trie edge enters it).
// Matching cost depends on the message, not on how many templates exist. Priority among
// complete matches is the runtime's (runtime/match/match-template.ts); an accept is [intent,
// template index].
// Context children's paths are in the automaton too: the runtime accepts them only while their
// parent is the active context, and then before any top-level path.
// A list slot is ONE edge whatever the list's size (the runtime looks its values up by first
// word), and a number range is one edge too: neither multiplies paths.
// An expansion rule (a choice named TemplateChoice.rule) is lowered ONCE, from a start state of its
// own to an end state marked as its return, the first time a template uses it; every use is a
// call edge [rule start, the state after the use], shared like any trie edge. Rules never recurse
// (the sources refuse it) and nest at most MAX_CALL_DEPTH deep, so a thread's return stack is
// bounded; the runtime numbers the stacks at load (runtime/bundle/automaton-frames.ts).

import { MAX_CALL_DEPTH } from "../../runtime/bundle/automaton-frames.js";
import type { BundleRange, BundleState } from "../../runtime/bundle/bundle-types.js";
import { isChoice, ruleNestedPast } from "../ir/template-parts.js";
import type { NumberRange, TemplateNode, TemplatePart } from "../ir/types.js";
import type { OrderedIntent } from "./compute-intent-order.js";
import type { VocabTable } from "./compute-vocab.js";

/** The slot-capturing free-text type: captures several words (or one quoted text). */
export const FREE_STRING_TYPE = "string";

export interface AutomatonResult {
  states: BundleState[];
  /** The distinct number ranges the range edges refer to, in first-use order. */
  ranges: BundleRange[];
  /** Templates in the automaton (each with its choices, not their product). */
  paths: number;
  /** Templates dropped because every way through them has a required node of a type nobody defined or that cannot be used. */
  unmatchable: { intent: string; path: number; reason: string }[];
}

/** What of a rule's parts the automaton reads (JSON.stringify's allowlist: no locations). */
const BODY_FIELDS = ["alternatives", "rule", "type", "tags", "required", "list", "range", "min", "max", "unit"];

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
    builders.push({ state: { vocab: [], typed: [], strings: [], lists: [], ranges: [], skip: [], accept: [], calls: [], returns: [] }, children: new Map() });
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
  /** `parts` without the alternatives that cannot match, or why none of it can. */
  const usable = (parts: readonly TemplatePart[]): TemplatePart[] | string => {
    const kept: TemplatePart[] = [];
    for (const part of parts) {
      if (!isChoice(part)) {
        const reason = part.required ? unusable(part) : undefined;
        if (reason !== undefined) return reason;
        kept.push(part);
        continue;
      }
      const alternatives = part.alternatives.map(usable);
      const open = alternatives.filter((alternative): alternative is TemplatePart[] => typeof alternative !== "string");
      if (open.length === 0) return alternatives[0] as string;
      kept.push({ ...part, alternatives: open });
    }
    return kept;
  };
  /** The trie child of `from` for `node` (made when no template has it yet). */
  const extend = (from: number, node: TemplateNode): number => {
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
    const parent = builders[from]!;
    let child = parent.children.get(key);
    if (child === undefined) {
      child = newState();
      parent.children.set(key, child);
      if (!node.required) parent.state.skip.push(child);
      if (node.type === "vocab") {
        parent.state.vocab.push([ids, child]);
      } else if (node.type === FREE_STRING_TYPE) parent.state.strings.push([slot, child]);
      else if (node.type === "list" && listIds.has(node.list ?? "")) parent.state.lists.push([listIds.get(node.list!)!, slot, child]);
      else if (node.type === "range" && node.range) parent.state.ranges.push([rangeId(node.range), slot, child]);
      else if (usableTypes.has(node.type)) parent.state.typed.push([usableTypes.get(node.type)!, slot, child]);
      // An optional node of an unusable type or list keeps only its skip edge.
    }
    return child;
  };
  const ruleStarts = new Map<string, number>();
  /**
   * The start state of the sub-automaton of rule `rule` (its parts `body`), lowered at its first
   * use. Keyed by the parts as the automaton reads them, not by the name alone: rules of one name
   * in two DSL files, or a use that makes the rule's nodes optional (`[<name>]`), differ.
   */
  const ruleStart = (rule: string, body: readonly TemplatePart[]): number => {
    const key = `${rule} ${JSON.stringify(body, BODY_FIELDS)}`;
    let start = ruleStarts.get(key);
    if (start === undefined) {
      ruleStarts.set(key, (start = newState()));
      builders[lower(start, body)]!.state.returns.push(start);
    }
    return start;
  };
  /** The state after a call from `from` of rule `rule` (its parts `body`): the trie child of the call edge. */
  const call = (from: number, rule: string, body: readonly TemplatePart[]): number => {
    const start = ruleStart(rule, body);
    const key = `c:${start}`;
    const parent = builders[from]!;
    let child = parent.children.get(key);
    if (child === undefined) {
      parent.children.set(key, (child = newState()));
      parent.state.calls.push([start, child]);
    }
    return child;
  };
  /** The state after `parts`, read from `from`: nodes chain, a choice branches and joins, a rule is called. */
  const lower = (from: number, parts: readonly TemplatePart[]): number => {
    let current = from;
    for (const part of parts) {
      if (!isChoice(part)) {
        current = extend(current, part);
        continue;
      }
      if (part.rule !== undefined) {
        current = call(current, part.rule, part.alternatives[0]!);
        continue;
      }
      const ends = new Set(part.alternatives.map((alternative) => lower(current, alternative)));
      // made after every alternative's states, so each skip into it points forward
      const join = newState();
      for (const end of ends) builders[end]!.state.skip.push(join);
      current = join;
    }
    return current;
  };
  newState();
  let paths = 0;
  const unmatchable: AutomatonResult["unmatchable"] = [];

  for (const { intent, index } of ordered) {
    intent.paths.forEach((path, pathIndex) => {
      const deep = ruleNestedPast(path.nodes, MAX_CALL_DEPTH);
      const parts = deep === undefined ? usable(path.nodes) : `expansion rules nest more than ${MAX_CALL_DEPTH} deep (<${deep.rule}>; lint says REF005)`;
      if (typeof parts === "string") {
        unmatchable.push({ intent: intent.id, path: pathIndex, reason: parts });
        return;
      }
      paths++;
      builders[lower(0, parts)]!.state.accept.push([index, pathIndex]);
    });
  }
  return { states: builders.map((b) => b.state), ranges, paths, unmatchable };
}
