// The working memory of the template matcher (match-template.ts), one per model and reused by
// every call, so a message allocates almost nothing: threads and their trails live in parallel
// typed arrays, and "which thread holds key k at position p" is a table indexed by key, stamped
// with the call's generation so that nothing is ever cleared. A call owns the scratch until it
// returns (sessions are synchronous); a call made while another runs (from an atEnd callback)
// gets a scratch of its own.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { WitnessItem } from "../response.js";
import type { NpcModel } from "../bundle/model.js";
import { framesOf } from "../bundle/automaton-frames.js";

/** Words at `at` standing for vocab tag `tag`: `length` words of a synonym, or one typo of lexicon word `corrected` (-1: none). */
export interface TagHit {
  tag: number;
  at: number;
  length: number;
  corrected: number;
}

/** Where the template matcher writes the tag hits of a position: the scratch (pooled hits), or a list (tagHitsAt). */
export interface TagHitSink {
  addHit(tag: number, at: number, length: number, corrected: number): void;
}

const grown = (function grown(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
});

interface ReadingTable {
  generation: number;
  at: ([number, number][] | undefined)[];
}

export class TemplateScratch implements TagHitSink {
  /** Whether a call is using this scratch now. */
  busy = false;
  private generation = 0;
  /**
   * Per key (a (state, return stack) key, bundle/automaton-frames.ts; or `keys + child` for a
   * thread inside a free-string slot that closes into key `child`): the generation, position and
   * thread of its latest offer.
   */
  private readonly seenGeneration: Int32Array;
  private readonly seenAt: Int32Array;
  private readonly seenThread: Int32Array;

  // Threads: a key (see above) at a position, with the evidence it has read.
  threads = 0;
  key = new Int32Array(64);
  literals = new Int32Array(64);
  strings = new Int32Array(64);
  /** The thread's newest trail entry (-1: none). */
  trail = new Int32Array(64);
  /** For a thread inside a free-string slot: where the slot began (-1: none), and its name. */
  openStart = new Int32Array(64);
  openSlot: string[] = [];

  // Trail entries, a persistent list (threads share their history): an evidence item (a stop word
  // or a vocab hit, both made once per position), or, where the item is null, a slot read over
  // tokens [from, to) whose value and text are only made for the winner and for atEnd.
  entries = 0;
  prev = new Int32Array(64);
  item: (WitnessItem | TagHit | null)[] = [];
  slot: string[] = [];
  /** The slot's reading kind (match-template.ts TYPED, LIST, RANGE or STRING). */
  slotKind = new Int32Array(64);
  /** The canonical value of a list or number slot; null: its text. */
  slotValue: (string | null)[] = [];
  slotFrom = new Int32Array(64);
  slotTo = new Int32Array(64);

  /**
   * Per position: its threads in the order they were first offered, the first `atCount[p]` of
   * `byPosition[p]` (a count, never `length = 0`: that frees an array's store, and the next push
   * allocates a new one).
   */
  readonly byPosition: number[][] = [];
  atCount = new Int32Array(16);
  /** The threads to advance at the current position, by ascending key (match-template.ts): one per key at most. */
  readonly pending: Int32Array;
  pendingCount = 0;
  /**
   * The vocab tags the words stand for: hits pooled (objects reused from call to call: a trail
   * refers to them only during its call), those of position p the run [hitFrom[p], hitTo[p]) (-1: not read yet).
   */
  readonly hitPool: TagHit[] = [];
  hitCount = 0;
  hitFrom = new Int32Array(16);
  hitTo = new Int32Array(16);
  /** Per position, the item of skipping its stop word (null: it is none; undefined: not read yet). */
  readonly stopItem: (WitnessItem | null | undefined)[] = [];
  /**
   * List, number and type readings per (kind, id), by position: made when such a node is first
   * tried (many states share them). A table is emptied when a call first reads it (its stamp is
   * then that call's generation): no map to clear, which would allocate a new one per call.
   */
  private readonly readingTables: ReadingTable[][] = [[], [], []];

  constructor(readonly keyCount: number) {
    this.seenGeneration = new Int32Array(keyCount * 2);
    this.seenAt = new Int32Array(keyCount * 2);
    this.seenThread = new Int32Array(keyCount * 2);
    this.pending = new Int32Array(keyCount);
  }

  /** Starts a call on a message of `n` tokens. */
  begin(n: number): void {
    if (this.generation === 0x7fffffff) {
      this.seenGeneration.fill(0);
      for (const tables of this.readingTables) for (const table of tables) if (table !== undefined) table.generation = -1;
      this.generation = 0;
    }
    this.generation++;
    this.threads = 0;
    this.entries = 0;
    this.hitCount = 0;
    if (this.atCount.length <= n) {
      this.atCount = new Int32Array(2 * (n + 1));
      this.hitFrom = new Int32Array(2 * (n + 1));
      this.hitTo = new Int32Array(2 * (n + 1));
    }
    for (let p = 0; p <= n; p++) {
      this.byPosition[p] ??= [];
      this.atCount[p] = 0;
      this.hitFrom[p] = -1;
      this.stopItem[p] = undefined;
    }
  }

  addHit(tag: number, at: number, length: number, corrected: number): void {
    const k = this.hitCount++;
    const hit = this.hitPool[k];
    if (hit === undefined) this.hitPool[k] = { tag, at, length, corrected };
    else {
      hit.tag = tag;
      hit.at = at;
      hit.length = length;
      hit.corrected = corrected;
    }
  }

  /** Drops what the call referenced, so a scratch kept with its model holds no message. */
  end(): void {
    this.item.fill(null, 0, this.entries);
    this.slotValue.fill(null, 0, this.entries);
    this.busy = false;
  }

  /** The readings of node `kind` `id` this call, by position (undefined: not read yet); `positions` those of the message. */
  readingsOf(kind: number, id: number, positions: number): ([number, number][] | undefined)[] {
    const tables = this.readingTables[kind]!;
    let table = tables[id];
    if (table === undefined) tables[id] = table = { generation: -1, at: [] };
    if (table.generation !== this.generation) {
      table.generation = this.generation;
      table.at.fill(undefined, 0, positions);
    }
    return table.at;
  }

  /** The thread holding `key` at `p`, or -1. */
  threadAt(p: number, key: number): number {
    if (this.seenGeneration[key] !== this.generation) return -1;
    if (this.seenAt[key] === p) return this.seenThread[key]!;
    // The key was offered at another position since (rare: a parent reads one word or two).
    const list = this.byPosition[p]!;
    for (let i = 0; i < this.atCount[p]!; i++) if (this.key[list[i]!] === key) return list[i]!;
    return -1;
  }

  /** Offers `key` at `p`: a new thread, or the one there replaced by better evidence (more literals, then fewer strings). */
  offer(p: number, key: number, literals: number, strings: number, trail: number, openStart: number, openSlot: string): void {
    let thread = this.threadAt(p, key);
    if (thread === -1) {
      thread = this.threads++;
      if (thread === this.key.length) this.growThreads();
      this.byPosition[p]![this.atCount[p]!++] = thread;
      this.key[thread] = key;
    } else if (!(literals > this.literals[thread]! || (literals === this.literals[thread] && strings < this.strings[thread]!))) return;
    this.literals[thread] = literals;
    this.strings[thread] = strings;
    this.trail[thread] = trail;
    this.openStart[thread] = openStart;
    this.openSlot[thread] = openSlot;
    this.seenGeneration[key] = this.generation;
    this.seenAt[key] = p;
    this.seenThread[key] = thread;
  }

  /** A trail entry for an evidence item after `prev`. */
  pushItem(prev: number, item: WitnessItem | TagHit): number {
    const entry = this.newEntry(prev);
    this.item[entry] = item;
    return entry;
  }

  /** A trail entry for slot `slot` read over [from, to) after `prev`. */
  pushSlot(prev: number, slot: string, kind: number, value: string | null, from: number, to: number): number {
    const entry = this.newEntry(prev);
    this.item[entry] = null;
    this.slot[entry] = slot;
    this.slotKind[entry] = kind;
    this.slotValue[entry] = value;
    this.slotFrom[entry] = from;
    this.slotTo[entry] = to;
    return entry;
  }

  /** The entries of the trail ending at `entry`, oldest first. */
  entriesOf(entry: number): number[] {
    const out: number[] = [];
    for (let e = entry; e !== -1; e = this.prev[e]!) out.push(e);
    return out.reverse();
  }

  private newEntry(prev: number): number {
    const entry = this.entries++;
    if (entry === this.prev.length) {
      const size = entry * 2;
      this.prev = grown(this.prev, size);
      this.slotKind = grown(this.slotKind, size);
      this.slotFrom = grown(this.slotFrom, size);
      this.slotTo = grown(this.slotTo, size);
    }
    this.prev[entry] = prev;
    return entry;
  }

  private growThreads(): void {
    const size = this.key.length * 2;
    this.key = grown(this.key, size);
    this.literals = grown(this.literals, size);
    this.strings = grown(this.strings, size);
    this.trail = grown(this.trail, size);
    this.openStart = grown(this.openStart, size);
  }
}

const scratches = new WeakMap<NpcModel, TemplateScratch>();

/** The scratch of `model` for a call, marked busy (a new one while another call holds it); release it with end(). */
export const scratchFor = (function scratchFor(model: NpcModel): TemplateScratch {
  let scratch = scratches.get(model);
  if (scratch === undefined) scratches.set(model, (scratch = new TemplateScratch(framesOf(model.payload.automaton).count)));
  if (scratch.busy) scratch = new TemplateScratch(scratch.keyCount);
  scratch.busy = true;
  return scratch;
});
