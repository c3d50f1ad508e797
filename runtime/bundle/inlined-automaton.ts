// The template automaton with every rule call written out in place, one state per key (state,
// return stack) of automaton-frames.ts: a call is a skip to the rule's start key, a rule's end a
// skip to the key it returns to, and every edge still points forward. For tools that read paths
// from the states (explain's template candidates, the escalation catalogue, the action words),
// not for the matcher, which walks the keys without making these states.

import type { BundleState } from "./bundle-types.js";
import { emptyMoves, framesOf, keyOf } from "./automaton-frames.js";

export function inlinedAutomaton(states: readonly BundleState[]): BundleState[] {
  const frames = framesOf(states);
  const inlined: BundleState[] = [];
  for (let key = 0; key < frames.count; key++) {
    const id = frames.state[key]!;
    const state = states[id]!;
    const at = (child: number): number => keyOf(frames, key, child);
    inlined.push({
      vocab: state.vocab.map(([tags, child]) => [tags, at(child)]),
      typed: state.typed.map(([type, slot, child]) => [type, slot, at(child)]),
      strings: state.strings.map(([slot, child]) => [slot, at(child)]),
      lists: state.lists.map(([list, slot, child]) => [list, slot, at(child)]),
      ranges: state.ranges.map(([range, slot, child]) => [range, slot, at(child)]),
      skip: emptyMoves(frames, states, key),
      accept: state.accept,
      calls: [],
      returns: [],
    });
  }
  return inlined;
}
