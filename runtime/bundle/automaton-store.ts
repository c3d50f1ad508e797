// The template automaton of a bundle (format 6.0; rule calls since 9.0, which the template
// chunk lays out and checks at load: automaton-frames.ts) as stored: the edges of every state as rows of
// one u32 section, the vocab edges' tags as rows of another, and the slot names once
// (bundle-types.ts StoredAutomaton; written by encode.ts). Read here into the states the matcher
// walks, in one typed pass that checks every number against what it indexes and that every edge
// points forward, instead of a msgpack walk over thousands of small arrays.

import type { BundleState, StoredAutomaton } from "./bundle-types.js";
import { wrongShape as fail } from "./wrong-shape.js";

/** A state's edge kinds, in the order of its rows in StoredAutomaton.edges. */
export const EDGE_KINDS = ["vocab", "typed", "strings", "lists", "ranges", "skip", "accept", "calls", "returns"] as const;
/**
 * Numbers per edge of each kind: vocab [child] (its tags are the next row of vocabTags), typed
 * [type, name, child], strings [name, child], lists [list, name, child], ranges [range, name,
 * child], skip [child], accept [intent, path], calls [rule start, return state], returns [rule
 * start] (a rule's end, automaton-frames.ts).
 */
export const EDGE_WIDTHS = [1, 3, 2, 3, 3, 1, 2, 2, 1] as const;

/** Lengths of what the edges index. */
export interface AutomatonLimits {
  types: number;
  lists: number;
  ranges: number;
  intents: number;
}

/** Every state's empty edge lists; frozen, so that a write to a decoded state throws (BundleState's lists are mutable for the compiler). */
const NO_EDGES = Object.freeze([]) as unknown as never[];

const edgeAt = (from: number, kind: string, j: number) => `automaton[${from}].${kind}[${j}]`;

/**
 * `items` from `start` to `end` as a list, by index reads: Array.from of a subarray makes a view
 * and walks an iterator, which a cold load paid for per vocab edge (and allocated the most for).
 */
export function listOf(items: Uint32Array, start: number, end: number): number[] {
  const list: number[] = [];
  for (let i = start; i < end; i++) list.push(items[i]!);
  return list;
}

/**
 * The states of a stored automaton whose sections the validator has checked (rows ascending,
 * vocab tags in range). Throws InvalidBundleError at the first edge that indexes past its table,
 * or that points back: every edge points to a later state, so the automaton is a DAG (a choice's
 * alternatives meet again at one join state) and the matcher follows skips in one ascending pass.
 */
export function readAutomaton({ names, edges: { starts, items }, vocabTags }: StoredAutomaton, { types, lists, ranges, intents }: AutomatonLimits): BundleState[] {
  const rows = EDGE_KINDS.length;
  const count = (starts.length - 1) / rows;
  if (!(count >= 1 && Number.isInteger(count))) fail("automaton.edges.starts", `not ${rows} rows per state (the start state at least), and one more`);
  // Per kind, what each number but the child indexes (a slot name: `names`); accept's path is free.
  const n = names.length;
  const limits = [[], [types, n], [n], [lists, n], [ranges, n], [], [intents, Infinity], [count], [count]];
  const states: BundleState[] = [];
  let vocabEdges = 0;
  for (let from = 0; from < count; from++) {
    // The empty lists, most of them, are one frozen list (a decoded payload is read-only). The
    // others are pushed to, not made at their length: a list made so is holey, which made the
    // matcher's first answer cost more than the load saved.
    const state: BundleState = { vocab: NO_EDGES, typed: NO_EDGES, strings: NO_EDGES, lists: NO_EDGES, ranges: NO_EDGES, skip: NO_EDGES, accept: NO_EDGES, calls: NO_EDGES, returns: NO_EDGES };
    for (let k = 0; k < rows; k++) {
      const kind = EDGE_KINDS[k]!;
      const width = EDGE_WIDTHS[k]!;
      const start = starts[from * rows + k]!;
      const end = starts[from * rows + k + 1]!;
      if ((end - start) % width !== 0) fail(`automaton[${from}].${kind}`, `not whole edges of ${width} numbers`);
      if (end === start) continue;
      const limit = limits[k]!;
      const edges: unknown[] = (state[kind] = []);
      // Plain index reads, no array or closure per edge: a cold load runs this loop in the interpreter.
      for (let at = start, j = 0; at < end; at += width, j++) {
        for (let c = 0; c < limit.length; c++) {
          if (items[at + c]! >= limit[c]!) fail(edgeAt(from, kind, j), `expected an index below ${limit[c]}`);
        }
        if (kind === "accept") {
          edges.push([items[at]!, items[at + 1]!]);
          continue;
        }
        // A rule's start may come before its caller and its end (automaton-frames.ts checks them).
        if (kind === "returns") {
          edges.push(items[at]!);
          continue;
        }
        const child = items[at + width - 1]!;
        if (child <= from || child >= count) fail(edgeAt(from, kind, j), `${kind} edges must point to a later state`);
        // (more vocab edges than rows of tags are refused after the loop)
        // The slot name is the number before the child: its index becomes the name.
        if (kind === "skip") edges.push(child);
        else if (kind === "calls") edges.push([items[at]!, child]);
        else if (kind === "vocab") edges.push([listOf(vocabTags.items, vocabTags.starts[vocabEdges]!, vocabTags.starts[++vocabEdges]!), child]);
        else if (kind === "strings") edges.push([names[items[at]!]!, child]);
        else edges.push([items[at]!, names[items[at + 1]!]!, child]);
      }
    }
    states.push(state);
  }
  if (vocabEdges !== vocabTags.starts.length - 1) fail("automaton.vocabTags", `has ${vocabTags.starts.length - 1} rows for ${vocabEdges} vocab edges`);
  return states;
}
