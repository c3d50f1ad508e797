// Slot elicitation's reading of the template automaton: the template a message starts with its
// words but stops short of ("delete", "copy notes.txt"), and the slot it needs next, found by
// walking on from where the message ends (optional nodes and a few vocab words, no slot skipped).
// Used by runtime/conversation/conversation.ts only, so it stays out of the core.
import { matchTemplate } from "../stages.js";
import type { NpcModel } from "../bundle/model.js";
import type { Token } from "../text/normalize.js";
import type { WordResolver } from "../text/word-resolver.js";
import { lowerBound } from "../match/sorted.js";

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
 * The nearest slot edge after `from` (through optional nodes and at most MAX_FILLERS vocab words)
 * whose child completes a template reachable now, with the words read on the way there.
 */
function nextSlot(model: NpcModel, from: number, activeContext: number | null): Omit<OpenTemplate, "slots"> | null {
  let frontier: [number, string[]][] = [[from, []]];
  for (let depth = 0; depth <= MAX_FILLERS && frontier.length > 0; depth++) {
    const next: [number, string[]][] = [];
    for (const [stateId, fillers] of frontier) {
      for (const id of skipClosure(model, stateId)) {
        const state = model.states[id]!;
        for (const [slot, child] of [...state.typed, ...state.lists, ...state.ranges].map((e) => [e[1], e[2]] as const).concat(state.strings)) {
          const intent = acceptedFrom(model, child, activeContext);
          if (intent !== null) return { intent, slot, fillers };
        }
        for (const [tags, child] of model.payload.automaton[id]!.vocab) {
          const word = wordOfTag(model, tags[0]!);
          if (word !== null) next.push([child, [...fillers, word]]);
        }
      }
    }
    frontier = next;
  }
  return null;
}

function skipClosure(model: NpcModel, from: number): number[] {
  const seen = [from];
  for (let i = 0; i < seen.length; i++) for (const child of model.states[seen[i]!]!.skip) if (!seen.includes(child)) seen.push(child);
  return seen;
}

/** An intent a template path ends with at `state` or after optional nodes, answerable now; or null. */
function acceptedFrom(model: NpcModel, state: number, activeContext: number | null): number | null {
  for (const id of skipClosure(model, state)) {
    for (const [intent] of model.states[id]!.accept) {
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
  return vocab.phrases.find(([t]) => t === tag)?.[1].join(" ") ?? null;
}



/** The template the whole message starts with literal words but stops short of a required slot ("delete", "copy a.txt"), or null. */
export function openTemplate(model: NpcModel, tokens: readonly Token[], clean: string, words: WordResolver, activeContext: number | null): OpenTemplate | null {
  let best: { template: OpenTemplate; literals: number } | null = null;
  matchTemplate(model, tokens, clean, words, activeContext, (state, literals, slots) => {
    // The template must have read some word of the message: a stop word alone opens nothing.
    if (literals <= (best?.literals ?? 0)) return;
    const next = nextSlot(model, state, activeContext);
    if (next) best = { template: { ...next, slots: slots() }, literals };
  });
  return (best as { template: OpenTemplate } | null)?.template ?? null;
}
