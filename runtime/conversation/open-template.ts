// Slot elicitation's reading of the template automaton: the template a message starts with its
// words but stops short of ("delete", "copy notes.txt"), and the slot it needs next, found by
// walking on from where the message ends (optional nodes and a few vocab words, no slot skipped).
// Used by runtime/conversation/conversation.ts only, so it stays out of the core.
import { matchTemplate } from "../stages.js";
import type { NpcModel } from "../bundle/model.js";
import type { Token } from "../text/normalize.js";
import type { WordResolver } from "../text/word-resolver.js";
import { lowerBound } from "../match/sorted.js";
import { emptyMoves, framesOf, keyOf } from "../bundle/automaton-frames.js";

/** A template the message starts but stops short of: its next required slot (slot elicitation, session.ts). */
export interface OpenTemplate {
  intent: number;
  slot: string;
  /** Slots the message filled already. */
  slots: Record<string, string>;
  /** Words the template needs between the message and the slot ("to" in "copy a.txt to :path"). */
  fillers: string[];
}


/** Vocab edges walked at most, looking for the slot a message stops short of. */
const MAX_FILLERS = 2;

/**
 * The nearest slot edge after key `from` (through optional nodes, rule calls and ends, and at most
 * MAX_FILLERS vocab words) whose child completes a template reachable now, with the words read on
 * the way there. Keys are (state, return stack) pairs (automaton-frames.ts).
 */
function nextSlot(model: NpcModel, from: number, activeContext: number | null): Omit<OpenTemplate, "slots"> | null {
  const frames = framesOf(model.payload.automaton);
  let frontier: [number, string[]][] = [[from, []]];
  for (let depth = 0; depth <= MAX_FILLERS && frontier.length > 0; depth++) {
    const next: [number, string[]][] = [];
    for (const [start, fillers] of frontier) {
      for (const key of emptyClosure(model, start)) {
        const state = model.payload.automaton[frames.state[key]!]!;
        for (const [slot, child] of [...state.typed, ...state.lists, ...state.ranges].map((e) => [e[1], e[2]] as const).concat(state.strings)) {
          const intent = acceptedFrom(model, keyOf(frames, key, child), activeContext);
          if (intent !== null) return { intent, slot, fillers };
        }
        for (const [tags, child] of model.payload.automaton[frames.state[key]!]!.vocab) {
          const word = wordOfTag(model, tags[0]!);
          if (word !== null) next.push([keyOf(frames, key, child), [...fillers, word]]);
        }
      }
    }
    frontier = next;
  }
  return null;
}

/** `from` and the keys reached from it without a word. */
function emptyClosure(model: NpcModel, from: number): number[] {
  const frames = framesOf(model.payload.automaton);
  const seen = [from];
  for (let i = 0; i < seen.length; i++) for (const key of emptyMoves(frames, model.payload.automaton, seen[i]!)) if (!seen.includes(key)) seen.push(key);
  return seen;
}

/** An intent a template path ends with at key `from` or after optional nodes, answerable now; or null. */
function acceptedFrom(model: NpcModel, from: number, activeContext: number | null): number | null {
  const frames = framesOf(model.payload.automaton);
  for (const key of emptyClosure(model, from)) {
    for (const [intent] of model.payload.automaton[frames.state[key]!]!.accept) {
      const parent = model.payload.intents[intent]!.parent;
      if (parent === null || parent === activeContext) return intent;
    }
  }
  return null;
}

/** A word standing for vocab tag `tag` (a one-word synonym, else the first words of a phrase). */
function wordOfTag(model: NpcModel, tag: number): string | null {
  const { lexicon, vocab } = model.payload;
  const { starts, items } = lexicon.tags;
  const at = items.indexOf(tag);
  // The word whose row holds the first occurrence of the tag: the last row starting at or before it.
  if (at !== -1) return lexicon.words.at(lowerBound(starts, at + 1) - 1);
  // The compiler gives a tag's phrases by text (code-unit order): the least is the one it gave first.
  let least: string | null = null;
  for (let i = 0; i < vocab.phraseTags.length; i++) if (vocab.phraseTags[i] === tag && (least === null || vocab.phrases.at(i) < least)) least = vocab.phrases.at(i);
  return least;
}



/** The template the whole message starts with literal words but stops short of a required slot ("delete", "copy a.txt"), or null. */
export function openTemplate(model: NpcModel, tokens: readonly Token[], clean: string, words: WordResolver, activeContext: number | null): OpenTemplate | null {
  let best: { template: OpenTemplate; literals: number } | null = null;
  matchTemplate(model, tokens, clean, words, activeContext, (key, literals, slots) => {
    // The template must have read some word of the message: a stop word alone opens nothing.
    if (literals <= (best?.literals ?? 0)) return;
    const next = nextSlot(model, key, activeContext);
    if (next) best = { template: { ...next, slots: slots() }, literals };
  });
  return (best as { template: OpenTemplate } | null)?.template ?? null;
}
