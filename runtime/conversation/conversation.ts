// ndfc/runtime/conversation: a conversation that keeps its word (docs/architecture.md). With
// `npc.session({ conversation })` the session writes every answer into its context register
// (runtime/conversation/register.ts) and, before a match stands, asks this module whether the register answers
// instead, in this order:
//   1. a slot captured as a pronoun ("delete it") is bound to last_path, or asked about;
//      a top-level template with "it" among its words that asks permission ("move it to /tmp")
//      asks what "it" is when nothing was named;
//   (an exact, context or template match stands from here on)
//   2. a pending slot ("delete" → "Delete what?") is filled by the next message, when the request
//      with it appended reads whole as the same template: never by guessing;
//   3. "no, the other one" answers the last guess's runner-up (asks which after a rejection with
//      several suggestions, and "Which one?" when there is no other candidate); an ellipsis
//      ("and b.log too") or a correction ("no, I meant c.log") redoes last_action;
//   (a guess of a non-destructive entry no template reads stands from here on)
//   4. a slot the template stage lost with a trailing stop word ("create folder a");
//   5. a template the message starts but stops short of asks for its next slot and holds it;
//   6. a pronoun or bare request with nothing to bind asks what is meant;
//   7. an object alone ("old.log") asks what to do with it.
// Outside the core (like explain): a host that only matches does not ship it.
import type { NpcModel } from "../bundle/model.js";
import { matchTemplate } from "../stages.js";
import { openTemplate } from "./open-template.js";
import { tokenize, type Token } from "../text/normalize.js";
import type { ContextRegister } from "./register.js";
import type { NpcResponse, SlotCapture } from "../response.js";
import type { Conversation, ConversationTurn, Matched } from "./session.js";
import { actionQuestion, asksOtherOne, barePronoun, filledText, isPronoun, pendingText, redoTarget, redoText, referentOf, referentQuestion, slotQuestion, WHICH_ONE, whichOfQuestion, wholeRequestQuestion } from "./elicit.js";
import { WordResolver } from "../text/word-resolver.js";

const inCapture = (token: Token, captures: Record<string, SlotCapture> | undefined): boolean =>
  Object.values(captures ?? {}).some((capture) => token.start >= capture.start && token.end <= capture.end);

const intentIndex = (turn: ConversationTurn, id: string): number => turn.model.payload.intents.findIndex((intent) => intent.id === id);

/**
 * The answer to `text` (a request rebuilt from the register) when a template reads it whole as
 * `intent` (any intent when null), as if typed; captures are left out (their offsets are not the
 * message's). `strict`: a destructive entry never takes a word that names nothing ("kill now").
 */
function reread(turn: ConversationTurn, text: string, intent: number | null, strict = false): NpcResponse | null {
  const { model } = turn;
  const { clean, tokens, unbalancedQuote } = tokenize(text);
  const hit = unbalancedQuote ? null : matchTemplate(model, tokens, clean, new WordResolver(model), turn.activeContext);
  if (!hit || (intent !== null && hit.intent !== intent)) return null;
  const nameless = (value: string) => isPronoun(value.toLowerCase()) || (strict && model.payload.intents[hit.intent]!.destructive && model.nameless.has(value.toLowerCase()));
  if (Object.values(hit.slots).some(nameless)) return null;
  turn.witness.push({ stage: hit.inContext ? "context" : "template", items: hit.items, note: `path ${hit.path} of "${text}"` });
  const response = turn.answerWith(hit.inContext ? "context match" : "template match", hit.intent, hit.slots, text);
  if (response) remember(turn, { ...response, captures: hit.captures }, text, 0);
  return response;
}

/**
 * What "the other one" may mean once `matched` stands: a guess's runner-up, or a rejection's
 * suggestions. Nothing after a refused guess (negated, or naming nothing): what was refused is
 * never offered as the other one.
 */
function candidatesOf(turn: ConversationTurn, matched: Matched): Pick<ContextRegister, "runner_up" | "suggestions"> {
  const idOf = (intent: number) => turn.model.payload.intents[intent]!.id;
  if (matched.kind === "rejected") return { runner_up: null, suggestions: matched.notice === undefined ? matched.related.map((r) => idOf(r.intent)) : [] };
  const { runnerUp } = matched.match;
  return { runner_up: runnerUp !== undefined && runnerUp >= 0 ? idOf(runnerUp) : null, suggestions: [] };
}

/** The match stands (null): the register keeps what "the other one" may mean after it. */
function stands(turn: ConversationTurn, matched: Matched): null {
  turn.register = { ...turn.register, ...candidatesOf(turn, matched) };
  return null;
}

/** Per model, per intent: 1 when a template reads it. Found once per model, not per message. */
const templateIntents = new WeakMap<NpcModel, Uint8Array>();

/** Whether a template reads `intent`: its answer needs words (slots) a guess never has. */
function isTemplate({ model }: ConversationTurn, intent: number): boolean {
  let read = templateIntents.get(model);
  if (!read) {
    read = new Uint8Array(model.payload.intents.length);
    for (const state of model.payload.automaton) for (const [accepted] of state.accept) read[accepted] = 1;
    templateIntents.set(model, read);
  }
  return read[intent] === 1;
}

/**
 * "No, the other one": after a guess, its runner-up, answered as a guess is (a destructive entry
 * asks), or asked for whole when a template reads it (it needs words the guess lacked); after a
 * rejection, which of its suggestions is meant; with no other candidate, which one. Never a guess
 * of its own.
 */
function otherOne(turn: ConversationTurn, { runner_up, suggestions }: ContextRegister, read: string): NpcResponse {
  const { intents } = turn.model.payload;
  const exampleOf = (index: number) => intents[index]!.example ?? intents[index]!.id;
  const listed = suggestions.map((id) => intentIndex(turn, id)).filter((index) => index >= 0);
  if (listed.length > 0) return turn.ask("choice", null, whichOfQuestion(listed.map(exampleOf)));
  const other = runner_up === null ? -1 : intentIndex(turn, runner_up);
  if (other < 0) return turn.ask("target", null, WHICH_ONE);
  if (isTemplate(turn, other)) return turn.ask("request", runner_up, wholeRequestQuestion(exampleOf(other)));
  turn.witness.push({ stage: "probabilistic", items: [], note: `the runner-up of the last guess: ${runner_up}` });
  const response = turn.answerWith("probabilistic match", other, {}, read);
  if (!response) return turn.ask("target", null, WHICH_ONE);
  remember(turn, response, read, 0);
  return response;
}

/** Writes an answer into the register: its intent and slots, and the last slot it captured (what "it" is now). */
function remember(turn: ConversationTurn, response: NpcResponse, read: string, base: number): void {
  const captures = Object.entries(response.captures ?? {}).sort(([, a], [, b]) => b.start - a.start);
  const [last] = captures;
  turn.register = {
    ...turn.register,
    last_action: response.intent,
    last_args: { ...response.slots },
    // Only a new referent renews the register: "it" means what was named in the last few turns.
    ...(last ? { last_path: last[1].value, last_text: read, last_slot: { name: last[0], start: last[1].start - base, end: last[1].end - base }, age: 0 } : {}),
  };
}

export const conversation: Conversation = {
  remember,
  converse(turn, matched, clause, read, clean, words) {
    const { tokens } = clause;
    const { model } = turn;
    const register = turn.register;
    const pending = register.pending_slot;
    turn.register = { ...register, pending_slot: null, runner_up: null, suggestions: [] };
    const match = matched.kind === "match" ? matched.match : null;
    const idOf = (intent: number) => model.payload.intents[intent]!.id;
    const pronounSlot = match?.captures && Object.entries(match.slots).find(([, value]) => isPronoun(value.toLowerCase()));
    if (pronounSlot) {
      const referent = referentOf(register, pronounSlot[1].toLowerCase());
      if (referent === null) return turn.ask(pronounSlot[0], idOf(match!.intent), referentQuestion(pronounSlot[1]));
      const capture = match!.captures![pronounSlot[0]]!;
      const text = read.slice(0, capture.start - clause.start) + referent + read.slice(capture.end - clause.start);
      return reread(turn, text, match!.intent) ?? turn.ask(pronounSlot[0], null, WHICH_ONE);
    }
    // Only where the template's own answer asks first ("move it to /tmp": mv): a yolo one's "it" is its phrase ("how hot is it in the attic").
    const loose = match?.status === "template match" && register.last_path === null && model.payload.intents[match.intent]!.permission === "ask" ? tokens.find((t) => t.kind === "word" && isPronoun(t.norm) && !inCapture(t, match.captures)) : undefined;
    if (loose) return turn.ask("referent", idOf(match!.intent), referentQuestion(loose.norm));
    if (match !== null && match.status !== "probabilistic match") return null;
    if (asksOtherOne(tokens)) return otherOne(turn, register, read);
    const filled = pending && reread(turn, filledText(pending.text, read), intentIndex(turn, pending.intent));
    if (filled) return filled;
    const redo = register.last_action !== null ? redoTarget(tokens, read, clause.start) : null;
    const redone = redo && redoText(register, redo.value);
    if (redone) return reread(turn, redone, intentIndex(turn, register.last_action!)) ?? turn.ask("target", null, WHICH_ONE);
    // A guess of a harmless entry no template reads has all it needs: the steps below are for a
    // request that names too little, and would otherwise ask about "this" in "calendar of this
    // month". A destructive guess goes on to them ("create folder a then delete" asks "Delete what?").
    if (match !== null && !isTemplate(turn, match.intent) && !model.payload.intents[match.intent]!.destructive) return stands(turn, matched);
    const whole = reread(turn, read, null, true);
    if (whole) return whole;
    const open = openTemplate(model, tokens, clean, words, turn.activeContext);
    if (open) {
      const intent = idOf(open.intent);
      const response = turn.ask(open.slot, intent, slotQuestion(read, open));
      response.slots = open.slots;
      turn.register = { ...turn.register, pending_slot: { intent, slot: open.slot, text: pendingText(read, open) }, age: 0 };
      return response;
    }
    const pronoun = barePronoun(model, tokens, isPronoun);
    if (pronoun !== null) {
      const referent = referentOf(register, pronoun);
      if (referent === null) return turn.ask("referent", null, referentQuestion(pronoun));
      const at = tokens.find((t) => t.norm === pronoun)!;
      return reread(turn, read.slice(0, at.start - clause.start) + referent + read.slice(at.end - clause.start), null) ?? turn.ask("referent", null, WHICH_ONE);
    }
    if (tokens.length === 1 && tokens[0]!.kind !== "word") return turn.ask("action", null, actionQuestion(tokens[0]!.text));
    return stands(turn, matched);
  },
};
