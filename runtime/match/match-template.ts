// Stage template: match through the compiled automaton (compiler/passes/compute-automaton.ts).
// The message's words are read left to right while a set of threads walks the automaton; a thread
// is (state, position) plus what it captured. Two threads in the same state at the same position
// have the same future, so only the better one is kept: cost is words × states, whatever the
// number of templates.
//
// Priority among complete matches (fixed, documented):
//   0. a path of the active context's children (the others never match while it is not active),
//   1. more literal evidence: vocab words and list values matched,
//   2. fewer free-string slots,
//   3. source order (intent index, then path index).
// A path matches only when it consumes every word; stop words may be skipped between nodes.

import { osaDistance, wordEditBudget } from "../text/fuzzy.js";
import { phraseAt, type ListTrie, type NpcModel } from "../bundle/model.js";
import { textOf, type Token } from "../text/normalize.js";
import type { SlotCapture, WitnessItem } from "../response.js";
import type { WordResolver } from "../text/word-resolver.js";

export interface TemplateHit {
  intent: number;
  path: number;
  /** A context child's path (answered while its parent is active). */
  inContext: boolean;
  slots: Record<string, string>;
  captures: Record<string, SlotCapture>;
  items: WitnessItem[];
  literals: number;
}

/** Called for each thread alive at the end of the message: its state, literal count and slots so far. */
export type AtEnd = (state: number, literals: number, slots: () => Record<string, string>) => void;

/** A persistent list: threads share their history instead of copying it. */
interface Trail<T> {
  value: T;
  prev: Trail<T> | null;
}

/**
 * A slot read over tokens [from, to), kept as offsets: its value and text (slices, spanText) are
 * made only for the winner and for atEnd, as most threads die.
 */
interface SlotHit {
  slot: string;
  kind: ReadingKind | typeof STRING;
  /** The canonical value of a list or number slot (a lookup, or a number's short string); null: the text. */
  value: string | null;
  from: number;
  to: number;
}

interface Thread {
  literals: number;
  strings: number;
  /** Evidence and slots; a vocab word or a slot stays a TagHit or SlotHit until the winner's witness is written. */
  items: Trail<WitnessItem | TagHit | SlotHit> | null;
  /** For a thread inside a free-string slot: where the slot began and its name (-1: none). */
  openStart: number;
  openSlot: string;
}

/** Every thread is made here, so all have one shape (an object spread per step made threads slow to read). */
function makeThread(literals: number, strings: number, items: Thread["items"], openStart = -1, openSlot = ""): Thread {
  return { literals, strings, items, openStart, openSlot };
}

/** Words at `at` standing for vocab tag `tag`: `length` words of a synonym, or one typo of lexicon word `corrected` (-1: none). */
export interface TagHit {
  tag: number;
  at: number;
  length: number;
  corrected: number;
}

/** The witness item of a tag hit: the words, and the tag they matched (and the word a typo was read as). */
function tagItem(model: NpcModel, tokens: readonly Token[], hit: TagHit): WitnessItem {
  const tag = `<||${model.payload.vocab.tags[hit.tag]}||>`;
  const word = textOf(tokens.slice(hit.at, hit.at + hit.length));
  return hit.corrected === -1 ? { word, kind: "vocab", matched: tag } : { word, kind: "fuzzy", matched: `${tag} (as "${model.payload.lexicon.words.at(hit.corrected)}")` };
}

function push<T>(trail: Trail<T> | null, value: T): Trail<T> {
  return { value, prev: trail };
}

function toArray<T>(trail: Trail<T> | null): T[] {
  const out: T[] = [];
  for (let t = trail; t !== null; t = t.prev) out.push(t.value);
  return out.reverse();
}

function better(a: Thread, b: Thread): boolean {
  return a.literals > b.literals || (a.literals === b.literals && a.strings < b.strings);
}

/**
 * Text of a free-string slot over tokens [from, to): the message as typed, from the start of the
 * first word's chunk to the end of the last one's (punctuation kept), a quoted text without its
 * quotes. Where sanitizing removed words in between, a single space stands for them.
 */
export function spanText(clean: string, tokens: readonly Token[], from: number, to: number): string {
  const first = tokens[from]!;
  const last = tokens[to - 1]!;
  if (to - from === 1 && first.kind === "quoted") return first.text;
  let start = first.start;
  if (first.kind !== "quoted") while (start > 0 && !/\s/.test(clean[start - 1]!)) start--;
  let out = clean.slice(start, first.end);
  for (let j = from + 1; j < to; j++) {
    const prev = tokens[j - 1]!;
    const token = tokens[j]!;
    if (prev.start === token.start) continue; // the second word of an expanded contraction
    const gap = clean.slice(prev.end, token.start);
    out += /[\p{L}\p{N}]/u.test(gap) ? " " : gap;
    out += clean.slice(token.start, token.end);
  }
  let end = last.end;
  if (last.kind !== "quoted") while (end < clean.length && !/\s/.test(clean[end]!)) end++;
  return out + clean.slice(last.end, end);
}

class TemplateRun {
  /** Per position, the vocab tags its words stand for (read once). */
  private readonly tagCache: (TagHit[] | undefined)[] = [];
  /**
   * List, number and type readings per (kind, id, position), made when such a node is first tried
   * (many states share them); the map too, as most messages reach no such node.
   */
  private readingCache: Map<number, [number, number][]> | undefined;
  /**
   * Per position: normal threads by state id, open free-string threads by -(child + 1); made when
   * a thread first reaches it (most messages are rejected after a few words).
   */
  private readonly at: (Map<number, Thread> | undefined)[] = [];
  /** Per position, the witness item of skipping its stop word (made when first needed). */
  private readonly stopItems: (WitnessItem | undefined)[] = [];
  /** The states to advance at the current position, ascending (one array for the whole run). */
  private readonly pending: number[] = [];

  constructor(
    private readonly model: NpcModel,
    private readonly tokens: readonly Token[],
    private readonly clean: string,
    private readonly words: WordResolver,
    private readonly activeContext: number | null,
    private readonly atEnd?: AtEnd,
  ) {}

  run(): TemplateHit | null {
    const n = this.tokens.length;
    if (n === 0) return null;
    this.offer(0, 0, makeThread(0, 0, null));
    let best: TemplateHit | null = null;
    let bestThread: Thread | null = null;
    for (let p = 0; p <= n; p++) {
      const threads = this.at[p];
      if (threads === undefined) continue;
      // Free-string slots first: closing one lands in a normal state at this same position (a
      // state key, which this loop passes over: the map can be walked while it grows).
      for (const [key, thread] of threads) {
        if (key >= 0) continue;
        const hit: SlotHit = { slot: thread.openSlot, kind: STRING, value: null, from: thread.openStart, to: p };
        this.offer(p, -key - 1, makeThread(thread.literals, thread.strings, push(thread.items, hit)));
        if (p < n) this.offer(p + 1, key, thread);
      }
      const { pending } = this;
      pending.length = 0;
      // Sorted as they are inserted: Array.prototype.sort would allocate a work array per position.
      for (const key of threads.keys()) if (key >= 0) insertSorted(pending, key, -1);
      for (let k = 0; k < pending.length; k++) {
        const stateId = pending[k]!;
        const thread = threads.get(stateId)!;
        const state = this.model.states[stateId]!;
        for (const child of state.skip) {
          const before = threads.has(child);
          this.offer(p, child, thread);
          if (!before && threads.has(child)) insertSorted(pending, child, k);
        }
        if (p === n) {
          for (const [intent, path] of state.accept) {
            const parent = this.model.payload.intents[intent]!.parent;
            if (parent !== null && parent !== this.activeContext) continue;
            const candidate = { intent, path, inContext: parent !== null };
            if (!bestThread || outranks(candidate, thread, best!, bestThread)) {
              bestThread = thread;
              best = { intent, path, slots: {}, captures: {}, items: [], literals: thread.literals, inContext: candidate.inContext };
            }
          }
          this.atEnd?.(stateId, thread.literals, () => Object.fromEntries(toArray(thread.items).flatMap((item) => ("slot" in item ? [[item.slot, this.captureOf(item).value]] : []))));
          continue;
        }
        this.advance(p, stateId, thread);
      }
    }
    if (!best || !bestThread) return null;
    for (const item of toArray(bestThread.items)) {
      if ("slot" in item) {
        const capture = this.captureOf(item);
        best.slots[item.slot] = capture.value;
        best.captures[item.slot] = capture;
        const witness: WitnessItem = { word: capture.text, kind: "slot", matched: item.slot };
        if (capture.value !== capture.text) witness.value = capture.value;
        best.items.push(witness);
      } else best.items.push("tag" in item ? tagItem(this.model, this.tokens, item) : item);
    }
    return best;
  }

  /** The capture a slot hit stands for: its value and its text as written. */
  private captureOf(hit: SlotHit): SlotCapture {
    const { tokens, clean } = this;
    const { start } = tokens[hit.from]!;
    const { end } = tokens[hit.to - 1]!;
    const text = hit.kind === STRING ? spanText(clean, tokens, hit.from, hit.to) : hit.kind === TYPED ? tokens[hit.from]!.text : clean.slice(start, end);
    return { value: hit.value ?? text, text, start, end };
  }

  private advance(p: number, stateId: number, thread: Thread): void {
    const token = this.tokens[p]!;
    const state = this.model.states[stateId]!;
    if (token.kind !== "quoted" && this.model.stopWords.has(token.norm)) {
      const item = (this.stopItems[p] ??= { word: token.text, kind: "stop word", matched: token.norm });
      this.offer(p + 1, stateId, makeThread(thread.literals, thread.strings, push(thread.items, item)));
    }
    if (state.vocab.size > 0) {
      const hits = this.tagHits(p);
      for (let h = 0; h < hits.length; h++) {
        const hit = hits[h]!;
        const children = state.vocab.get(hit.tag);
        if (children === undefined) continue;
        const next = makeThread(thread.literals + 1, thread.strings, push(thread.items, hit));
        for (let c = 0; c < children.length; c++) this.offer(p + hit.length, children[c]!, next);
      }
    }
    this.slotEdges(p, state.typed, TYPED, thread);
    this.slotEdges(p, state.lists, LIST, thread);
    this.slotEdges(p, state.ranges, RANGE, thread);
    for (const [slot, child] of state.strings) {
      this.offer(p + 1, -child - 1, makeThread(thread.literals, thread.strings + 1, thread.items, p, slot));
    }
  }

  /**
   * Offers each reading at `p` of every [node id, slot, child] edge of `kind`, as slot `slot` into
   * `child`; a list value is literal evidence, as a vocab word is.
   */
  private slotEdges(p: number, edges: readonly (readonly [number, string, number])[], kind: ReadingKind, thread: Thread): void {
    for (const [id, slot, child] of edges) {
      for (const [reading, to] of this.readings(id, p, kind)) {
        const value = kind === LIST ? this.model.payload.lists[id]!.values[reading]! : kind === RANGE ? `${reading}` : null;
        const hit: SlotHit = { slot, kind, value, from: p, to };
        this.offer(to, child, makeThread(thread.literals + (kind === LIST ? 1 : 0), thread.strings, push(thread.items, hit)));
      }
    }
  }

  private offer(p: number, key: number, thread: Thread): void {
    let threads = this.at[p];
    if (threads === undefined) this.at[p] = threads = new Map();
    const existing = threads.get(key);
    if (!existing || better(thread, existing)) threads.set(key, thread);
  }

  /** The readings of node `kind` `id` at `p`, as [reading, end position], once per message. */
  private readings(id: number, p: number, kind: ReadingKind): [number, number][] {
    const key = (id * (this.tokens.length + 1) + p) * 3 + kind;
    const cache = (this.readingCache ??= new Map());
    let found = cache.get(key);
    if (!found) {
      found = READERS[kind](this.model, this.tokens, p, id);
      cache.set(key, found);
    }
    return found;
  }

  /** Vocab tags the words at `p` stand for (see tagHitsAt), once per position. */
  private tagHits(p: number): TagHit[] {
    return (this.tagCache[p] ??= tagHitsAt(this.model, this.tokens, p, this.words));
  }
}

const TYPED = 0;
const LIST = 1;
const RANGE = 2;
type ReadingKind = typeof TYPED | typeof LIST | typeof RANGE;
/** A free-string slot's hit kind (not a reading: its end is where the thread closes it). */
const STRING = 3;

/** A typed slot's reading: the token, when the type accepts it. */
function typedAt(model: NpcModel, tokens: readonly Token[], p: number, typeId: number): [number, number][] {
  return model.types[typeId]!.test(tokens[p]!.text) ? [[0, p + 1]] : [];
}

/** Vocab tags the words at `p` stand for: one-word synonyms, typo-corrected words, phrases. */
export function tagHitsAt(model: NpcModel, tokens: readonly Token[], p: number, words: WordResolver): TagHit[] {
  const token = tokens[p]!;
  const hits: TagHit[] = [];
  if (token.kind === "quoted") return hits;
  const { starts, items } = model.payload.lexicon.tags;
  const id = words.id(token.norm);
  if (id !== undefined) {
    for (let k = starts[id]!; k < starts[id + 1]!; k++) hits.push({ tag: items[k]!, at: p, length: 1, corrected: -1 });
  } else if (token.kind === "word") {
    for (const fuzzy of words.corrected(token.norm)) for (let k = starts[fuzzy.word]!; k < starts[fuzzy.word + 1]!; k++) hits.push({ tag: items[k]!, at: p, length: 1, corrected: fuzzy.word });
  }
  const phrases = model.vocabPhrases.get(token.norm);
  if (phrases !== undefined) for (const phrase of phrases) if (phraseAt(phrase, tokens, p)) hits.push({ tag: phrase.value, at: p, length: phrase.words.length, corrected: -1 });
  return hits;
}

/**
 * Spoken forms of list `listId` written from `p`, as [value index, end position]: one walk down
 * the list's trie, so the cost is the words read, whatever the size of the list.
 */
export function listValuesAt(model: NpcModel, tokens: readonly Token[], p: number, listId: number): [number, number][] {
  const found: [number, number][] = [];
  let node: ListTrie | undefined = model.lists[listId];
  for (let k = p; node && k < tokens.length && tokens[k]!.kind !== "quoted"; k++) {
    const { norm, kind } = tokens[k]!;
    node = node.next.get(norm) ?? (kind === "word" && !model.wordId.has(norm) && !model.valueWords.has(norm) ? correctedChild(node, norm) : undefined);
    if (node && node.value !== -1) found.push([node.value, k + 1]);
  }
  return found;
}

/** Above this many words to choose from at one point of a list, a word is read exactly (the scan stays bounded). */
const MAX_CORRECTED_CHOICES = 64;

/**
 * The one next word of `node` a typo `word` stands for, within the strict edit budget of both (as
 * vocab words are corrected); none when two are equally close. Only words the NPC does not know
 * are corrected, so the cost is paid for unknown words alone, and at most MAX_CORRECTED_CHOICES
 * comparisons each.
 */
function correctedChild(node: ListTrie, word: string): ListTrie | undefined {
  const budget = wordEditBudget(word.length);
  let best: ListTrie | undefined;
  let bestDistance = budget + 1;
  for (const [key, child] of budget === 0 || node.next.size > MAX_CORRECTED_CHOICES ? [] : node.next) {
    const limit = Math.min(budget, wordEditBudget(key.length));
    const distance = osaDistance(word, key, limit);
    if (distance > limit) continue;
    if (distance < bestDistance) [best, bestDistance] = [child, distance];
    else if (distance === bestDistance) best = undefined;
  }
  return best;
}

/**
 * Numbers of range `rangeId` written at `p`, as [value, end position]: digits, decimals too ("2.5",
 * with the range's unit glued, or none), or number words, where units and tens add and `hundred`
 * multiplies ("two hundred fifty" is 250, "twenty-five" 25, "two point five" 2.5); every prefix of
 * a run of number words is a reading, and the automaton keeps the one that fits.
 */
export function numbersAt(model: NpcModel, tokens: readonly Token[], p: number, rangeId: number): [number, number][] {
  const { min, max, unit } = model.payload.ranges[rangeId]!;
  const digits = /^(-?\d+(?:\.\d+)?)(\D*)$/.exec(tokens[p]!.text);
  const readings: [number, number][] = [];
  if (digits) {
    if (digits[2] === "" || digits[2] === unit) readings.push([Number(digits[1]), p + 1]);
  } else {
    let total = 0;
    // after "point", digit words ("a" is none) are decimals
    let decimals: string | undefined;
    for (let k = p; k < tokens.length; k++) {
      const { norm } = tokens[k]!;
      if (norm === "point" && k > p && decimals === undefined) {
        decimals = "";
        continue;
      }
      let word = 0;
      for (const part of norm.split("-")) word += model.numberWords.get(part) ?? NaN;
      if (Number.isNaN(word) || (decimals !== undefined && (word > 9 || norm === "a"))) break;
      if (decimals === undefined) total = word === 100 ? (total || 1) * 100 : total + word;
      else decimals += word;
      readings.push([decimals ? Number(`${total}.${decimals}`) : total, k + 1]);
    }
  }
  return readings.filter(([value]) => value >= min && value <= max);
}

/** What a typed, list or range node reads at a position, by kind. */
const READERS = [typedAt, listValuesAt, numbersAt];

function outranks(a: { intent: number; path: number; inContext: boolean }, at: Thread, b: TemplateHit, bt: Thread): boolean {
  if (a.inContext !== b.inContext) return a.inContext;
  return better(at, bt) || (!better(bt, at) && precedes(a, b));
}

function precedes(a: { intent: number; path: number }, b: { intent: number; path: number }): boolean {
  return a.intent < b.intent || (a.intent === b.intent && a.path < b.path);
}

/** Inserts `value` into the ascending `list` after index `from` (skip targets are always later states; -1: anywhere). */
function insertSorted(list: number[], value: number, from: number): void {
  // Shifted by hand: splice would allocate the (empty) array of what it removed.
  let i = list.length;
  for (; i > from + 1 && list[i - 1]! > value; i--) list[i] = list[i - 1]!;
  list[i] = value;
}

export function matchTemplate(
  model: NpcModel,
  tokens: readonly Token[],
  clean: string,
  words: WordResolver,
  /** The intent whose context children's paths may match now, or null. */
  activeContext: number | null = null,
  atEnd?: AtEnd,
): TemplateHit | null {
  return new TemplateRun(model, tokens, clean, words, activeContext, atEnd).run();
}
