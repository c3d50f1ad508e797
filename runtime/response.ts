// What `session.process(message)` returns.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { Permission } from "./bundle/bundle-types.js";

/** The runtime's stages, in the order a message goes through them (docs/architecture.md). */
export type TraceStage = "lex" | "limits" | "sanitize" | "exact" | "sentiment" | "template" | "learned" | "probabilistic" | "decision";

export interface TraceStep {
  stage: TraceStage;
  /** Index of the clause (0 for a message of one clause). */
  part: number;
  summary: string;
  lines: string[];
}

/** "elicit": the NPC asks for what the request lacks (a slot, a referent, an action) and nothing runs. */
export type MatchStatus = "exact match" | "context match" | "template match" | "probabilistic match" | "rejected" | "elicit";

/** The status of a composite message whose parts answered differently: their statuses joined with ", ". */
export type CompositeStatus = `${MatchStatus}, ${string}`;

/** Scores and confidences in a response carry 4 decimals. */
export const round4 = (function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
});

export interface Sentiment {
  expletives: number;
  interjections: number;
  thanking: number;
  encouraging: number;
  discouraging: number;
}

/** A tool call with every string rendered. */
export type RenderedTool = Record<string, unknown>;

export interface RelatedSuggestion {
  intent: string;
  category: string | null;
  /** An input of that intent, to show the user what to type. */
  example: string | null;
  score: number;
}

/** A captured slot: its canonical value, the words as typed, and their span in the message. */
export interface SlotCapture {
  value: string;
  text: string;
  /** UTF-16 offsets into the message (after NFKC and quote unification, see runtime/text/normalize.ts). */
  start: number;
  end: number;
}

/** One piece of evidence: which word of the message matched what. */
export interface WitnessItem {
  /** The message word (or words, for a phrase or a free-string slot). */
  word: string;
  /** How it was used: an exact word, a typo-corrected word, a synonym, a vocab tag, a slot, … */
  kind: "word" | "fuzzy" | "synonym" | "vocab" | "slot" | "stop word" | "noise" | "unknown" | "feature";
  /** What it matched: the vocabulary word, `<||tag||>`, the slot name, or (a learned feature) the intent it scores for. */
  matched: string;
  /** A learned feature: what it adds to that intent's score. */
  weight?: number;
  /** For a list or number slot: the canonical value the words stand for. */
  value?: string;
  /** For a template slot: where its words are in the message (the offsets of `captures[slot]`). */
  start?: number;
  end?: number;
}

export interface Witness {
  stage: "sanitize" | "exact" | "context" | "template" | "probabilistic" | "learned";
  items: WitnessItem[];
  /** Which input, template path or key matched (e.g. the normalized key). */
  note?: string;
}

export interface NpcResponse {
  /** A composite message's parts that all answered the same way share it; otherwise see CompositeStatus. */
  status: MatchStatus | CompositeStatus;
  /**
   * 1 for exact, context and template matches; the similarity for probabilistic ones; for the
   * learned stage margin / (margin + threshold) (0.5 at the threshold); 0 when rejected; a composite's minimum.
   */
  confidence: number;
  /** Id of the intent that answered, or null when rejected (a composite's ids joined with ", "). */
  intent: string | null;
  response: string;
  thinking: string;
  tools: RenderedTool[];
  /** Slot values: the fixed slots of the intent, then the captured ones (canonical values). */
  slots: Record<string, string>;
  /** Captured slots with the words as typed and where they are (template matches only). */
  captures?: Record<string, SlotCapture>;
  permission: Permission;
  /** Counts of the session so far (this message included). */
  sentiment: Sentiment;
  emoji: string;
  related: RelatedSuggestion[];
  description: string | null;
  witness: Witness[];
  /** Set when the message was refused unread: longer than the limit (characters or clauses). */
  tooLong?: { unit: "characters" | "clauses"; limit: number; length: number };
  /** Set when the message was refused or answered with a caveat (an open quote, a negated destructive request, …). */
  notice?: string;
  /** Set when the message negates a destructive request ("don't delete x"): its permission is then `ask` (runtime/match/guards.ts). */
  negated?: boolean;
  /** With status "elicit": the slot asked for, and the intent of the template it belongs to when known. */
  elicit?: { slot: string; intent: string | null };
  /** A composite message ("delete a.log then list files"): each part's own response, in order. */
  parts?: NpcResponse[];
  /** With `process(message, { explain })` (ndfc/runtime/explain): how the answer was reached, stage by stage. */
  trace?: TraceStep[];
}
