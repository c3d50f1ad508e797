// Stage template: match through the compiled automaton (compiler/passes/compute-automaton.ts).
// The message's words are read left to right while a set of threads walks the automaton; a thread
// is (key, position) plus what it captured. Two threads with the same key at the same position
// have the same future, so only the better one is kept: cost is words × states, whatever the
// number of templates. A thread's state is a key (state, return stack: inside an expansion rule,
// where it returns to), numbered at load so that every move goes to a higher key
// (bundle/automaton-frames.ts): a call and a rule's end are moves without a word, as skips are.
// Threads and what they read live in typed tables reused by every call (template-scratch.ts), so
// a message allocates little beyond its winner's answer.
//
// Priority among complete matches (fixed, documented):
//   0. a path of the active context's children (the others never match while it is not active),
//   1. more literal evidence: vocab words and list values matched,
//   2. fewer free-string slots,
//   3. source order (intent index, then path index).
// A path matches only when it consumes every word; stop words may be skipped between nodes.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import { osaDistance, wordEditBudget } from "../text/fuzzy.js";
import { phraseAt, useTemplateTables, type ListTrie, type NpcModel, type VocabEdges } from "../bundle/model.js";
import type { BundleState } from "../bundle/bundle-types.js";
import { lowerBound } from "./sorted.js";
import type { Token } from "../text/normalize.js";
import { textOf } from "../text/token-text.js";
import type { SlotCapture, WitnessItem } from "../response.js";
import type { WordResolver } from "../text/word-resolver.js";
import { scratchFor, type TagHit, type TagHitSink, type TemplateScratch } from "./template-scratch.js";
import { framesOf, type AutomatonFrames } from "../bundle/automaton-frames.js";
import { typeMatchers } from "./type-matchers.js";
import { startsOf, type TemplateStarts } from "./template-starts.js";
import { templateTables } from "./template-tables.js";

export type { TagHit };
// The chunk's reading of the automaton and types (bundle/format.ts imports it for a bundle that has them).
export { readTemplates } from "../bundle/template-store.js";

// Loaded before a model of a bundle with templates is built (format.ts, stages.ts): models have their template tables from now on.
useTemplateTables(templateTables);

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

/** Called for each thread alive at the end of the message: its key (automaton-frames.ts), literal count and slots so far. */
export type AtEnd = (key: number, literals: number, slots: () => Record<string, string>) => void;

/** The witness item of a tag hit: the words, and the tag they matched (and the word a typo was read as). */
const tagItem = (function tagItem(model: NpcModel, tokens: readonly Token[], hit: TagHit): WitnessItem {
  const tag = `<||${model.payload.vocab.tags[hit.tag]}||>`;
  const word = hit.length === 1 ? tokens[hit.at]!.text : textOf(tokens.slice(hit.at, hit.at + hit.length));
  return hit.corrected === -1 ? { word, kind: "vocab", matched: tag } : { word, kind: "fuzzy", matched: `${tag} (as "${model.payload.lexicon.words.at(hit.corrected)}")` };
});

/** Whether evidence (literals, strings) a beats b: more literals, then fewer free-string slots. */
function better(aLiterals: number, aStrings: number, bLiterals: number, bStrings: number): boolean {
  return aLiterals > bLiterals || (aLiterals === bLiterals && aStrings < bStrings);
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

/** The best complete match so far: its path and the evidence of the thread that read it. */
interface Best {
  intent: number;
  path: number;
  inContext: boolean;
  literals: number;
  strings: number;
  trail: number;
}

const NO_TOKENS: readonly Token[] = [];

/** One per scratch, reused by each call it serves (set by `match`, which drops the message at its end). */
class TemplateRun {
  /** Keys from here on are threads inside a free-string slot (see TemplateScratch). */
  private readonly openKeys: number;
  private readonly frames: AutomatonFrames;
  private readonly states: readonly BundleState[];
  private readonly vocab: VocabEdges;
  private readonly starts: TemplateStarts;
  private tokens: readonly Token[] = NO_TOKENS;
  private clean = "";
  private words!: WordResolver;
  private activeContext: number | null = null;
  private atEnd: AtEnd | undefined;

  constructor(
    private readonly model: NpcModel,
    private readonly s: TemplateScratch,
  ) {
    this.frames = framesOf(model.payload.automaton);
    this.openKeys = this.frames.count;
    this.states = model.payload.automaton;
    this.vocab = model.templates.vocab;
    this.starts = startsOf(model);
  }

  match(tokens: readonly Token[], clean: string, words: WordResolver, activeContext: number | null, atEnd: AtEnd | undefined, filtered: boolean): TemplateHit | null {
    this.tokens = tokens;
    this.clean = clean;
    this.words = words;
    this.activeContext = activeContext;
    this.atEnd = atEnd;
    try {
      return this.run(filtered);
    } finally {
      this.tokens = NO_TOKENS;
      this.clean = "";
      this.atEnd = undefined;
    }
  }

  /** mayStart on `tokens` alone. */
  startsWith(tokens: readonly Token[], words: WordResolver): boolean {
    this.tokens = tokens;
    this.words = words;
    try {
      if (tokens.length === 0) return false;
      this.s.begin(tokens.length);
      return this.mayStart();
    } finally {
      this.tokens = NO_TOKENS;
    }
  }

  /**
   * Whether some path may read the first word (template-starts.ts): a stop word (skipped), a tag
   * a start edge reads, or a reading of a start slot. When not, no thread outlives the first
   * position, and the walk would answer null without calling `atEnd`. What it reads is what the
   * walk reads first, kept in the scratch for it.
   */
  private mayStart(): boolean {
    const { s, starts } = this;
    if (starts.open || this.stopItem(0) !== null) return true;
    this.readTagHits(0);
    for (let h = s.hitFrom[0]!; h < s.hitTo[0]!; h++) if (starts.tags[s.hitPool[h]!.tag] === 1) return true;
    for (let k = 0; k < starts.lists.length; k++) if (this.readings(starts.lists[k]!, 0, LIST).length > 0) return true;
    for (let k = 0; k < starts.ranges.length; k++) if (this.readings(starts.ranges[k]!, 0, RANGE).length > 0) return true;
    for (let k = 0; k < starts.typed.length; k++) if (this.readings(starts.typed[k]!, 0, TYPED).length > 0) return true;
    return false;
  }

  private run(filtered: boolean): TemplateHit | null {
    const { s, openKeys, frames } = this;
    const n = this.tokens.length;
    if (n === 0) return null;
    s.begin(n);
    if (filtered && !this.mayStart()) return null;
    const { pending, atCount } = s;
    s.offer(0, 0, 0, 0, -1, -1, "");
    let best: Best | null = null;
    for (let p = 0; p <= n; p++) {
      const threads = s.byPosition[p]!;
      if (atCount[p] === 0) continue;
      // Free-string slots first: closing one lands in a normal state at this same position.
      for (let i = 0; i < atCount[p]!; i++) {
        const thread = threads[i]!;
        const key = s.key[thread]!;
        if (key < openKeys) continue;
        const literals = s.literals[thread]!;
        const strings = s.strings[thread]!;
        const trail = s.trail[thread]!;
        const openStart = s.openStart[thread]!;
        const openSlot = s.openSlot[thread]!;
        s.offer(p, key - openKeys, literals, strings, s.pushSlot(trail, openSlot, STRING, null, openStart, p), -1, "");
        if (p < n) s.offer(p + 1, key, literals, strings, trail, openStart, openSlot);
      }
      s.pendingCount = 0;
      // Sorted as they are inserted: Array.prototype.sort would allocate a work array per position.
      for (let i = 0; i < atCount[p]!; i++) if (s.key[threads[i]!]! < openKeys) insertSorted(s, threads[i]!, -1);
      for (let k = 0; k < s.pendingCount; k++) {
        const thread = pending[k]!;
        const key = s.key[thread]!;
        const stateId = frames.state[key]!;
        // the key of this state's region's first state in this stack: a child's key is base + its offset
        const base = key - frames.offset[stateId]!;
        const state = this.states[stateId]!;
        const literals = s.literals[thread]!;
        const strings = s.strings[thread]!;
        const trail = s.trail[thread]!;
        for (let c = 0; c < state.skip.length; c++) this.move(p, base + frames.offset[state.skip[c]!]!, literals, strings, trail, k);
        const calls = frames.callDelta[stateId]!;
        for (let c = 0; c < calls.length; c++) this.move(p, key + calls[c]!, literals, strings, trail, k);
        if (frames.returnKey[key] !== -1) this.move(p, frames.returnKey[key]!, literals, strings, trail, k);
        if (p === n) {
          best = this.accepted(state.accept, literals, strings, trail, best);
          this.atEnd?.(key, literals, () => this.slotsOf(trail));
          continue;
        }
        this.advance(p, stateId, base, literals, strings, trail);
      }
    }
    return best === null ? null : this.hit(best);
  }

  /** Offers `key` at `p` without reading a word (a skip, a call, a return), into the pending threads after the `k`th. */
  private move(p: number, key: number, literals: number, strings: number, trail: number, k: number): void {
    const { s } = this;
    const before = s.atCount[p]!;
    s.offer(p, key, literals, strings, trail, -1, "");
    if (s.atCount[p]! > before) insertSorted(s, s.byPosition[p]![before]!, k);
  }

  /** The better of `best` and the paths `accept` completes (see the priority at the top). */
  private accepted(accept: BundleState["accept"], literals: number, strings: number, trail: number, best: Best | null): Best | null {
    for (let a = 0; a < accept.length; a++) {
      const intent = accept[a]![0];
      const path = accept[a]![1];
      const parent = this.model.payload.intents[intent]!.parent;
      if (parent !== null && parent !== this.activeContext) continue;
      const inContext = parent !== null;
      if (best === null || outranks(inContext, intent, path, literals, strings, best)) best = { intent, path, inContext, literals, strings, trail };
    }
    return best;
  }

  /** The winner's slots, captures and witness items, written from its trail. */
  private hit({ intent, path, inContext, literals, trail }: Best): TemplateHit {
    const { s } = this;
    const hit: TemplateHit = { intent, path, slots: {}, captures: {}, items: [], literals, inContext };
    for (const entry of s.entriesOf(trail)) {
      const item = s.item[entry];
      if (item === null) {
        const slot = s.slot[entry]!;
        const capture = this.captureOf(entry);
        hit.slots[slot] = capture.value;
        hit.captures[slot] = capture;
        const witness: WitnessItem = { word: capture.text, kind: "slot", matched: slot };
        if (capture.value !== capture.text) witness.value = capture.value;
        witness.start = capture.start;
        witness.end = capture.end;
        hit.items.push(witness);
      } else hit.items.push("tag" in item ? tagItem(this.model, this.tokens, item) : item!);
    }
    return hit;
  }

  /** The slots read along the trail ending at `trail`, by name. */
  private slotsOf(trail: number): Record<string, string> {
    const slots: Record<string, string> = {};
    for (const entry of this.s.entriesOf(trail)) if (this.s.item[entry] === null) slots[this.s.slot[entry]!] = this.captureOf(entry).value;
    return slots;
  }

  /** The capture the slot entry `entry` stands for: its value and its text as written. */
  private captureOf(entry: number): SlotCapture {
    const { tokens, clean, s } = this;
    const from = s.slotFrom[entry]!;
    const to = s.slotTo[entry]!;
    const kind = s.slotKind[entry]!;
    const { start } = tokens[from]!;
    const { end } = tokens[to - 1]!;
    const text = kind === STRING ? spanText(clean, tokens, from, to) : kind === TYPED ? tokens[from]!.text : clean.slice(start, end);
    return { value: s.slotValue[entry] ?? text, text, start, end };
  }

  /** The moves of state `stateId` that read the word at `p`; `base` + a child's offset is the child's key. */
  private advance(p: number, stateId: number, base: number, literals: number, strings: number, trail: number): void {
    const { s } = this;
    const { offset } = this.frames;
    const state = this.states[stateId]!;
    const stop = this.stopItem(p);
    if (stop !== null) s.offer(p + 1, base + offset[stateId]!, literals, strings, s.pushItem(trail, stop), -1, "");
    const { from, tag, child } = this.vocab;
    const first = from[stateId]!;
    const end = from[stateId + 1]!;
    if (first < end) {
      this.readTagHits(p);
      for (let h = s.hitFrom[p]!; h < s.hitTo[p]!; h++) {
        const hit = s.hitPool[h]!;
        // The state's pairs of this tag: a run of its pairs, which are sorted by tag.
        let c = lowerBound(tag, hit.tag, first, end);
        if (c === end || tag[c] !== hit.tag) continue;
        const next = s.pushItem(trail, hit);
        for (; c < end && tag[c] === hit.tag; c++) s.offer(p + hit.length, base + offset[child[c]!]!, literals + 1, strings, next, -1, "");
      }
    }
    if (state.typed.length > 0) this.slotEdges(p, state.typed, TYPED, base, literals, strings, trail);
    if (state.lists.length > 0) this.slotEdges(p, state.lists, LIST, base, literals, strings, trail);
    if (state.ranges.length > 0) this.slotEdges(p, state.ranges, RANGE, base, literals, strings, trail);
    for (let e = 0; e < state.strings.length; e++) {
      const edge = state.strings[e]!;
      s.offer(p + 1, this.openKeys + base + offset[edge[1]]!, literals, strings + 1, trail, p, edge[0]);
    }
  }

  /**
   * Offers each reading at `p` of every [node id, slot, child] edge of `kind`, as slot `slot` into
   * `child` (its key: `base` + its offset); a list value is literal evidence, as a vocab word is.
   */
  private slotEdges(p: number, edges: readonly (readonly [number, string, number])[], kind: ReadingKind, base: number, literals: number, strings: number, trail: number): void {
    const { s } = this;
    const { offset } = this.frames;
    for (let e = 0; e < edges.length; e++) {
      // Read by index (here and in the walk's other loops): until V8 optimizes the walk, each
      // destructuring of an edge or reading made an iterator and its results.
      const id = edges[e]![0];
      const slot = edges[e]![1];
      const child = edges[e]![2];
      const readings = this.readings(id, p, kind);
      for (let r = 0; r < readings.length; r++) {
        const reading = readings[r]![0];
        const to = readings[r]![1];
        const value = kind === LIST ? this.model.payload.lists[id]!.values[reading]! : kind === RANGE ? `${reading}` : null;
        s.offer(to, base + offset[child]!, literals + (kind === LIST ? 1 : 0), strings, s.pushSlot(trail, slot, kind, value, p, to), -1, "");
      }
    }
  }

  /** The readings of node `kind` `id` at `p`, as [reading, end position], once per message. */
  private readings(id: number, p: number, kind: ReadingKind): [number, number][] {
    const table = this.s.readingsOf(kind, id, this.tokens.length + 1);
    return (table[p] ??= READERS[kind](this.model, this.tokens, p, id));
  }

  /** Vocab tags the words at `p` stand for (see addTagHits) into the scratch, once per position. */
  private readTagHits(p: number): void {
    const { s } = this;
    if (s.hitFrom[p] !== -1) return;
    s.hitFrom[p] = s.hitCount;
    addTagHits(this.model, this.tokens, p, this.words, s);
    s.hitTo[p] = s.hitCount;
  }

  /** The witness item of skipping the stop word at `p`, or null when it is none; once per position. */
  private stopItem(p: number): WitnessItem | null {
    let item = this.s.stopItem[p];
    if (item === undefined) {
      const token = this.tokens[p]!;
      item = token.kind !== "quoted" && this.model.stopWords.has(token.norm) ? { word: token.text, kind: "stop word", matched: token.norm } : null;
      this.s.stopItem[p] = item;
    }
    return item;
  }
}

const TYPED = 0;
const LIST = 1;
const RANGE = 2;
type ReadingKind = typeof TYPED | typeof LIST | typeof RANGE;
/** A free-string slot's hit kind (not a reading: its end is where the thread closes it). */
const STRING = 3;

/** A typed slot's reading: the token, when the type accepts it (the same reading for every type at `p`, made once). */
const typedAt = (function typedAt(model: NpcModel, tokens: readonly Token[], p: number, typeId: number): [number, number][] {
  return typeMatchers(model)[typeId]!.test(tokens[p]!.text) ? (TOKEN_READINGS[p] ??= [[0, p + 1]]) : NO_READINGS;
});

/** Per position p, the reading of the token at p (shared: a caller never changes what a reader returns). */
const TOKEN_READINGS: [number, number][][] = [];

class TagHitList implements TagHitSink {
  readonly hits: TagHit[] = [];

  addHit(tag: number, at: number, length: number, corrected: number): void {
    this.hits.push({ tag, at, length, corrected });
  }
}

/** Vocab tags the words at `p` stand for: one-word synonyms, typo-corrected words, phrases. */
export function tagHitsAt(model: NpcModel, tokens: readonly Token[], p: number, words: WordResolver): TagHit[] {
  const list = new TagHitList();
  addTagHits(model, tokens, p, words, list);
  return list.hits;
}

const addTagHits = (function addTagHits(model: NpcModel, tokens: readonly Token[], p: number, words: WordResolver, sink: TagHitSink): void {
  const token = tokens[p]!;
  if (token.kind === "quoted") return;
  const { starts, items } = model.payload.lexicon.tags;
  const id = words.id(token.norm);
  if (id !== undefined) {
    for (let k = starts[id]!; k < starts[id + 1]!; k++) sink.addHit(items[k]!, p, 1, -1);
  } else if (token.kind === "word") {
    const corrections = words.corrected(token.norm);
    for (let f = 0; f < corrections.length; f++) {
      const word = corrections[f]!.word;
      for (let k = starts[word]!; k < starts[word + 1]!; k++) sink.addHit(items[k]!, p, 1, word);
    }
  }
  // A word's phrases are a group of the table, longest first (phrase-table.ts).
  const table = model.vocabPhrases;
  for (let i = table.first(token.norm); i !== -1 && table.startsWith(i, token.norm); i++) {
    const phrase = table.phrase(i);
    if (phraseAt(phrase, tokens, p)) sink.addHit(phrase.value, p, phrase.words.length, -1);
  }
});

/**
 * Spoken forms of list `listId` written from `p`, as [value index, end position]: one walk down
 * the list's trie, so the cost is the words read, whatever the size of the list.
 */
export function listValuesAt(model: NpcModel, tokens: readonly Token[], p: number, listId: number): [number, number][] {
  const found: [number, number][] = [];
  let node: ListTrie | undefined = model.templates.lists[listId];
  for (let k = p; node && k < tokens.length && tokens[k]!.kind !== "quoted"; k++) {
    const { norm, kind } = tokens[k]!;
    node = node.next.get(norm) ?? (kind === "word" && mayCorrect(node, norm) && !model.wordId.has(norm) && !model.valueWords.has(norm) ? correctedChild(node, norm) : undefined);
    if (node && node.value !== -1) found.push([node.value, k + 1]);
  }
  return found;
}

/** Above this many words to choose from at one point of a list, a word is read exactly (the scan stays bounded). */
const MAX_CORRECTED_CHOICES = 64;

/** Whether `word` has an edit budget and `node` few enough next words to read it as a typo of one (checked before the word is looked up). */
function mayCorrect(node: ListTrie, word: string): boolean {
  return wordEditBudget(word.length) > 0 && node.next.size <= MAX_CORRECTED_CHOICES;
}

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
  for (const [key, child] of node.next) {
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
  const { text, norm } = tokens[p]!;
  // Most words are neither digits nor number words: answered before any regex or array.
  if (!startsNumber(text) && model.templates.numberWords.get(norm.split("-", 1)[0]!) === undefined) return NO_READINGS;
  const { min, max, unit } = model.payload.ranges[rangeId]!;
  const digits = /^(-?\d+(?:\.\d+)?)(\D*)$/.exec(text);
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
      for (const part of norm.split("-")) word += model.templates.numberWords.get(part) ?? NaN;
      if (Number.isNaN(word) || (decimals !== undefined && (word > 9 || norm === "a"))) break;
      if (decimals === undefined) total = word === 100 ? (total || 1) * 100 : total + word;
      else decimals += word;
      readings.push([decimals ? Number(`${total}.${decimals}`) : total, k + 1]);
    }
  }
  return readings.filter(([value]) => value >= min && value <= max);
}

/** No reading (shared: a caller never changes what a reader returns). */
const NO_READINGS: [number, number][] = [];

/** Whether `text` may be digits (its first character is a digit or a minus sign). */
function startsNumber(text: string): boolean {
  const c = text.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 45;
}

/** What a typed, list or range node reads at a position, by kind. */
const READERS = [typedAt, listValuesAt, numbersAt];

/** Whether the path (intent, path) read with (literals, strings) outranks `best` (see the priority at the top). */
function outranks(inContext: boolean, intent: number, path: number, literals: number, strings: number, best: Best): boolean {
  if (inContext !== best.inContext) return inContext;
  if (better(literals, strings, best.literals, best.strings)) return true;
  return !better(best.literals, best.strings, literals, strings) && (intent < best.intent || (intent === best.intent && path < best.path));
}

/**
 * Inserts thread `thread` into the scratch's pending threads, ascending by key, after index `from`
 * (a move without a word always goes to a later key; -1: anywhere).
 */
const insertSorted = (function insertSorted(s: TemplateScratch, thread: number, from: number): void {
  const { pending, key: keys } = s;
  const key = keys[thread]!;
  let i = s.pendingCount++;
  for (; i > from + 1 && keys[pending[i - 1]!]! > key; i--) pending[i] = pending[i - 1]!;
  pending[i] = thread;
});

export const matchTemplate = (function matchTemplate(
  model: NpcModel,
  tokens: readonly Token[],
  clean: string,
  words: WordResolver,
  /** The intent whose context children's paths may match now, or null. */
  activeContext: number | null = null,
  atEnd?: AtEnd,
): TemplateHit | null {
  // Written out, not withRun: a closure per message.
  const scratch = scratchFor(model);
  try {
    return runOf(model, scratch).match(tokens, clean, words, activeContext, atEnd, true);
  } finally {
    scratch.end();
  }
});

/** The automaton's walk over the message, without mayStart (tests compare the two). */
export function walkTemplate(model: NpcModel, tokens: readonly Token[], clean: string, words: WordResolver, activeContext: number | null, atEnd?: AtEnd): TemplateHit | null {
  return withRun(model, (run) => run.match(tokens, clean, words, activeContext, atEnd, false));
}

/** Whether some path may read the message's first word (TemplateRun.mayStart): false, and matchTemplate answers null without walking. */
export function mayStart(model: NpcModel, tokens: readonly Token[], words: WordResolver): boolean {
  return withRun(model, (run) => run.startsWith(tokens, words));
}

function withRun<T>(model: NpcModel, use: (run: TemplateRun) => T): T {
  const scratch = scratchFor(model);
  try {
    return use(runOf(model, scratch));
  } finally {
    scratch.end();
  }
}

/** The run of `scratch` (made on first use). */
const runOf = (function runOf(model: NpcModel, scratch: TemplateScratch): TemplateRun {
  let run = runs.get(scratch);
  if (run === undefined) runs.set(scratch, (run = new TemplateRun(model, scratch)));
  return run;
});

/** The run of each scratch (a scratch made for a nested call gets its own). */
const runs = new WeakMap<TemplateScratch, TemplateRun>();
