// Expansion rules in the template automaton, as the matcher walks them. The compiler lowers each
// rule once, as a sub-automaton (its own states, from a start state to a state marked as its end)
// that every use calls ([rule start, return state] edges, compiler/passes/compute-automaton.ts).
// A thread inside a rule carries its return stack, and two threads are the same future only when
// their state AND their stack are equal. Rules never recurse and nest at most MAX_CALL_DEPTH
// deep, so the stacks are finite: they are numbered here, once, at load. A key is a pair (state,
// stack), and the keys are laid out as the automaton would be with every call written out in
// place: the keys of a call come right after its caller's key, before the caller's next state. So
// every move (an edge, a call, a return) goes to a higher key, and the matcher keeps its one
// ascending pass per position (match-template.ts); an automaton without rules has one key per state.
// The keys number what an inlined automaton would have states, which the size limit bounds.

import type { BundleState } from "./bundle-types.js";
import { wrongShape as fail } from "./wrong-shape.js";

/** How deep rule calls may nest (a thread's return stack at most this high); the compiler holds templates to it. */
export const MAX_CALL_DEPTH = 16;
/** Keys (state, stack) a bundle may lay out at most: its automaton with every call written out. */
export const MAX_KEYS = 1 << 22;

export interface AutomatonFrames {
  /** How many keys there are. */
  count: number;
  /** Per key, its state. */
  state: Int32Array;
  /** Per state, its key's offset from the key of its region's first state, in the same stack. */
  offset: Int32Array;
  /** Per key of a rule's end state, the key its thread returns to; -1 elsewhere. */
  returnKey: Int32Array;
  /** Per state, per call edge (in order): how far after the caller's key the rule's start key is. */
  callDelta: readonly (readonly number[])[];
}

/** The key of state `child` in the same region and stack as key `key`. */
export function keyOf(frames: AutomatonFrames, key: number, child: number): number {
  return key - frames.offset[frames.state[key]!]! + frames.offset[child]!;
}

/** Keys reached from `key` without reading a word: its skips, the starts of the rules it calls, and the key a rule's end returns to. */
export function emptyMoves(frames: AutomatonFrames, states: readonly Pick<BundleState, "skip">[], key: number): number[] {
  const stateId = frames.state[key]!;
  const moves = states[stateId]!.skip.map((child) => keyOf(frames, key, child));
  for (const delta of frames.callDelta[stateId]!) moves.push(key + delta);
  if (frames.returnKey[key] !== -1) moves.push(frames.returnKey[key]!);
  return moves;
}

const NO_CALLS: readonly number[] = [];
const cache = new WeakMap<readonly BundleState[], AutomatonFrames>();

/**
 * The keys of `states` (cached per array). Throws InvalidBundleError, naming the edge, at a call
 * to a state that is not a rule start, a state two regions share, a rule end outside its rule or
 * with nothing to return to, a call cycle, calls nested past MAX_CALL_DEPTH, or more than MAX_KEYS keys.
 */
export function framesOf(states: readonly BundleState[]): AutomatonFrames {
  let frames = cache.get(states);
  // Without rules, the one-pass layout: layOut is then not even compiled (both count in a cold load).
  if (frames === undefined) cache.set(states, (frames = states.some(hasRules) ? layOut(states) : withoutRules(states)));
  return frames;
}

const hasRules = ({ calls, returns }: BundleState): boolean => calls.length > 0 || returns.length > 0;

/**
 * The keys of an automaton without rules (most bundles: both TERMys', all of dist-npcs/ but home): one region,
 * one stack, so a key per state reached from state 0, in state order, and nothing to refuse
 * (every edge points forward, automaton-store.ts checks it). What layOut's general walk gives,
 * in one pass with no region maps, sizes or recursion: a cold load runs it in the interpreter.
 */
function withoutRules(states: readonly BundleState[]): AutomatonFrames {
  const count = states.length;
  const offset = new Int32Array(count);
  const reached = new Uint8Array(count);
  const keys: number[] = [];
  if (count > 0) reached[0] = 1;
  for (let id = 0; id < count; id++) {
    if (reached[id] === 0) continue; // unreachable: no key
    offset[id] = keys.length;
    keys.push(id);
    const { vocab, typed, strings, lists, ranges, skip } = states[id]!;
    for (let j = 0; j < vocab.length; j++) reached[vocab[j]![1]] = 1;
    for (let j = 0; j < typed.length; j++) reached[typed[j]![2]] = 1;
    for (let j = 0; j < strings.length; j++) reached[strings[j]![1]] = 1;
    for (let j = 0; j < lists.length; j++) reached[lists[j]![2]] = 1;
    for (let j = 0; j < ranges.length; j++) reached[ranges[j]![2]] = 1;
    for (let j = 0; j < skip.length; j++) reached[skip[j]!] = 1;
  }
  return { count: keys.length, state: Int32Array.from(keys), offset, returnKey: new Int32Array(keys.length).fill(-1), callDelta: states.map(() => NO_CALLS) };
}

function layOut(states: readonly BundleState[]): AutomatonFrames {
  const count = states.length;
  // A region: the top level (from state 0) or one rule (from its start); every state is in one.
  const region = new Int32Array(count).fill(-1);
  const roots = [0];
  for (let id = 0; id < count; id++) {
    const { returns } = states[id]!;
    for (let j = 0; j < returns.length; j++) {
      const start = returns[j]!;
      if (start === 0 || start >= count) fail(`automaton[${id}].returns[${j}]`, `${start} is not a state a rule may start at`);
      if (region[start] === -1) roots.push(start);
      region[start] = start;
    }
  }
  region[0] = 0;
  // Every edge but a call's rule start points to a later state (automaton-store.ts checks it), so
  // one ascending pass knows each state's region before it reads the state's edges.
  // The edge's place (automaton[id].kind[j]) is spelled out only for an error message.
  const into = (id: number, child: number, kind: string, j: number): void => {
    if (region[child] === region[id]) return;
    if (region[child] !== -1) fail(`automaton[${id}].${kind}[${j}]`, `leads into state ${child}, which ${region[child] === child ? "starts a rule" : "another rule or the top level holds"}: call a rule, do not walk into it`);
    region[child] = region[id]!;
  };
  for (let id = 0; id < count; id++) {
    if (region[id] === -1) continue; // unreachable: no key
    const state = states[id]!;
    for (let j = 0; j < state.vocab.length; j++) into(id, state.vocab[j]![1], "vocab", j);
    for (let j = 0; j < state.typed.length; j++) into(id, state.typed[j]![2], "typed", j);
    for (let j = 0; j < state.strings.length; j++) into(id, state.strings[j]![1], "strings", j);
    for (let j = 0; j < state.lists.length; j++) into(id, state.lists[j]![2], "lists", j);
    for (let j = 0; j < state.ranges.length; j++) into(id, state.ranges[j]![2], "ranges", j);
    for (let j = 0; j < state.skip.length; j++) into(id, state.skip[j]!, "skip", j);
    for (let j = 0; j < state.calls.length; j++) {
      const [start, back] = state.calls[j]!;
      if (start === 0 || start >= count || region[start] !== start) fail(`automaton[${id}].calls[${j}]`, `calls state ${start}, which is not a rule start`);
      if (back <= id || back >= count) fail(`automaton[${id}].calls[${j}]`, "a call must return to a later state");
      into(id, back, "calls", j);
    }
  }
  for (let id = 0; id < count; id++) {
    const { returns } = states[id]!;
    for (let j = 0; j < returns.length; j++) {
      if (region[id] === 0) fail(`automaton[${id}].returns[${j}]`, "a rule end outside every rule: nothing to return to");
      if (region[id] !== returns[j]) fail(`automaton[${id}].returns[${j}]`, `ends rule ${returns[j]}, but the state is not in it`);
    }
  }
  // Per region, its size with every call written out, and how deep its calls nest: rules first
  // (depth-first over the calls, refusing a cycle), then the top level.
  const members = new Map<number, number[]>(roots.map((root) => [root, []]));
  for (let id = 0; id < count; id++) if (region[id] !== -1) members.get(region[id]!)!.push(id);
  const size = new Map<number, number>();
  const depth = new Map<number, number>();
  const open = new Set<number>();
  // `level`: how many calls deep `root` is (bounds the recursion before any depth is known)
  const measure = (root: number, where: string, level: number): void => {
    if (size.has(root)) return;
    if (open.has(root)) fail(where, `calls rule ${root} while inside it: a call cycle`);
    if (level > MAX_CALL_DEPTH) fail(where, `calls nest more than ${MAX_CALL_DEPTH} deep`);
    open.add(root);
    let total = 0;
    let deepest = 0;
    for (const id of members.get(root)!) {
      total++;
      states[id]!.calls.forEach(([start], j) => {
        measure(start, `automaton[${id}].calls[${j}]`, level + 1);
        total += size.get(start)!;
        deepest = Math.max(deepest, depth.get(start)! + 1);
        if (deepest > MAX_CALL_DEPTH) fail(`automaton[${id}].calls[${j}]`, `calls nest more than ${MAX_CALL_DEPTH} deep`);
        if (total > MAX_KEYS) fail(`automaton[${id}].calls[${j}]`, `the automaton with its calls written out has more than ${MAX_KEYS} states`);
      });
    }
    open.delete(root);
    size.set(root, total);
    depth.set(root, deepest);
  };
  if (count > 0) measure(0, "automaton[0]", 0);
  // rules no template calls still get sizes (their keys are never written)
  for (const root of roots) measure(root, `automaton[${root}]`, 1);
  // Offsets within a region: a state, then the blocks of the rules it calls, then the next state.
  const offset = new Int32Array(count);
  const callDelta: (readonly number[])[] = states.map(() => NO_CALLS);
  for (const ids of members.values()) {
    let at = 0;
    for (const id of ids) {
      offset[id] = at++;
      const calls = states[id]!.calls;
      if (calls.length === 0) continue;
      const deltas: number[] = [];
      for (const [start] of calls) {
        deltas.push(at - offset[id]!);
        at += size.get(start)!;
      }
      callDelta[id] = deltas;
    }
  }
  const total = count > 0 ? size.get(0)! : 0;
  const state = new Int32Array(total);
  const returnKey = new Int32Array(total).fill(-1);
  // Writes the keys of region `root` from key `base`, in a stack whose rule returns to `back`.
  const write = (root: number, base: number, back: number): void => {
    for (const id of members.get(root)!) {
      const key = base + offset[id]!;
      state[key] = id;
      if (states[id]!.returns.length > 0) returnKey[key] = back;
      states[id]!.calls.forEach(([start, after], j) => write(start, key + callDelta[id]![j]!, base + offset[after]!));
    }
  };
  if (count > 0) write(0, 0, -1);
  return { count: total, state, offset, returnKey, callDelta };
}
