// runtime/bundle/automaton-frames.ts on automata without rules, which framesOf lays out in one
// pass apart from the general walk: a key per state reached from state 0, in state order, and the
// same keys the general walk gives (checked by appending a rule no template calls, which sends the
// automaton down the general walk without changing the top level's keys).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BundleState } from "../../runtime/bundle/bundle-types.js";
import { framesOf } from "../../runtime/bundle/automaton-frames.js";

const empty = (): BundleState => ({ vocab: [], typed: [], strings: [], lists: [], ranges: [], skip: [], accept: [], calls: [], returns: [] });

/** Kinds of edges that lead to a child, and how each is written with a child. */
const EDGES: ((state: BundleState, child: number) => void)[] = [
  (s, child) => s.vocab.push([[0], child]),
  (s, child) => s.typed.push([0, "t", child]),
  (s, child) => s.strings.push(["s", child]),
  (s, child) => s.lists.push([0, "l", child]),
  (s, child) => s.ranges.push([0, "r", child]),
  (s, child) => s.skip.push(child),
];

/** An automaton without rules: every edge from a state to a later one, some states reached by none. */
const automaton = fc
  .integer({ min: 1, max: 14 })
  .chain((count) =>
    fc.tuple(
      fc.constant(count),
      fc.array(fc.tuple(fc.nat(count - 1), fc.nat(count - 1), fc.nat(EDGES.length - 1)), { maxLength: 3 * count }),
      fc.array(fc.nat(count - 1), { maxLength: count }),
    ),
  )
  .map(([count, edges, accepting]) => {
    const states = Array.from({ length: count }, empty);
    for (const [a, b, kind] of edges) if (a !== b) EDGES[kind]!(states[Math.min(a, b)]!, Math.max(a, b));
    for (const id of accepting) states[id]!.accept.push([0, 0]);
    return states;
  });

/** The states reached from state 0, ascending. */
function reached(states: readonly BundleState[]): number[] {
  const seen = new Set([0]);
  for (let id = 0; id < states.length; id++) {
    if (!seen.has(id)) continue;
    const { vocab, typed, strings, lists, ranges, skip } = states[id]!;
    for (const child of [...vocab.map((e) => e[1]), ...typed.map((e) => e[2]), ...strings.map((e) => e[1]), ...lists.map((e) => e[2]), ...ranges.map((e) => e[2]), ...skip]) seen.add(child);
  }
  return [...seen].sort((a, b) => a - b);
}

describe("frames of an automaton without rules", () => {
  it("a key per state reached from state 0, in state order, none returning, no calls (property)", () => {
    fc.assert(
      fc.property(automaton, (states) => {
        const frames = framesOf(states);
        const keys = reached(states);
        expect(frames.count).toBe(keys.length);
        expect(Array.from(frames.state)).toEqual(keys);
        keys.forEach((id, key) => expect(frames.offset[id]).toBe(key));
        expect(Array.from(frames.returnKey)).toEqual(keys.map(() => -1));
        expect(frames.callDelta).toEqual(states.map(() => []));
      }),
      { numRuns: 300, seed: 18 },
    );
  });

  it("the same keys as the general walk (with a rule no template calls appended) (property)", () => {
    fc.assert(
      fc.property(automaton, (states) => {
        const flat = framesOf(states);
        const start = empty();
        const end = empty();
        start.skip.push(states.length + 1);
        end.returns.push(states.length);
        const general = framesOf([...states, start, end]);
        expect(general.count).toBe(flat.count);
        expect(general.state).toEqual(flat.state);
        expect(general.offset.subarray(0, states.length)).toEqual(flat.offset);
        expect(general.returnKey).toEqual(flat.returnKey);
        expect(general.callDelta.slice(0, states.length)).toEqual(flat.callDelta);
      }),
      { numRuns: 300, seed: 18 },
    );
  });
});
