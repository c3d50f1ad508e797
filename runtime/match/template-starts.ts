// What a template path can read first: the edges of the start key and of every key reached from
// it without a word (optional nodes, rule calls and ends), gathered once per model. A message whose
// first word none of them reads (and that is no stop word, which is skipped) leaves no thread
// alive past its first position, so the template matcher answers null without running
// (match-template.ts TemplateRun.mayStart): most messages the later stages answer are turned away here at the
// cost of one word's lookups, not the first position's walk (issue #15, --jitless).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import { emptyMoves, framesOf } from "../bundle/automaton-frames.js";
import type { NpcModel } from "../bundle/model.js";

export class TemplateStarts {
  /** A free-string slot can start a path: any word may. */
  readonly open: boolean;
  /** Per vocab tag, whether a start edge reads it. */
  readonly tags: Uint8Array;
  /** The typed, list and range nodes of start edges (each once). */
  readonly typed: number[] = [];
  readonly lists: number[] = [];
  readonly ranges: number[] = [];

  constructor(model: NpcModel) {
    const frames = framesOf(model.payload.automaton);
    const keys = [0];
    for (let i = 0; i < keys.length; i++) for (const key of emptyMoves(frames, model.payload.automaton, keys[i]!)) if (!keys.includes(key)) keys.push(key);
    this.tags = new Uint8Array(model.payload.vocab.tags.length);
    let open = false;
    for (const key of keys) {
      const id = frames.state[key]!;
      const state = model.payload.automaton[id]!;
      const { from, tag } = model.templates.vocab;
      for (let k = from[id]!; k < from[id + 1]!; k++) this.tags[tag[k]!] = 1;
      for (const [id] of state.typed) if (!this.typed.includes(id)) this.typed.push(id);
      for (const [id] of state.lists) if (!this.lists.includes(id)) this.lists.push(id);
      for (const [id] of state.ranges) if (!this.ranges.includes(id)) this.ranges.push(id);
      open ||= state.strings.length > 0;
    }
    this.open = open;
  }
}

const cache = new WeakMap<NpcModel, TemplateStarts>();

/** The start edges of `model`'s automaton (gathered on first use). */
export const startsOf = (function startsOf(model: NpcModel): TemplateStarts {
  let starts = cache.get(model);
  if (starts === undefined) cache.set(model, (starts = new TemplateStarts(model)));
  return starts;
});
