// A conversation with a loaded NPC: holds the active context, sentiment counts and the turn
// number, and runs the stages as TraceStage names them (docs/architecture.md, Runtime stages):
// lex → limits → sanitize → exact → sentiment → template → learned → probabilistic → decision,
// which renders the answer or the rejection. `process` never throws. With a
// Conversation (ndfc/runtime/conversation) it also keeps the context register: each answer is
// written into it, and before a match stands the conversation may answer from it instead.

import { SENTIMENT_KINDS, type BundleConfig, type BundleIntent } from "../bundle/bundle-types.js";
import { MAX_CLAUSES, splitClauses, type Clause } from "./clauses.js";
import { combineParts } from "./composite.js";
import { mayMatchChild, pickContextChild } from "./context.js";
import type { Explainer, Tracer } from "../explain.js";
import { applyGuards, isNegated, lacksReferent } from "../match/guards.js";
import type { LearnedScores } from "../match/match-learned.js";
import { matchExact, type ExactHit } from "../match/match-exact.js";
import { matchProbabilistic, type RankedIntent } from "../match/match-probabilistic.js";
import { matchTemplate, type TemplateHit } from "../match/match-template.js";
import type { NpcModel } from "../bundle/model.js";
import { keyOf, textOf, tokenize, type Token } from "../text/normalize.js";
import { RenderBudget, renderIntent, renderVariant, type RenderContext } from "../render/render.js";
import { round4, type MatchStatus, type NpcResponse, type RelatedSuggestion, type Sentiment, type SlotCapture, type Witness, type WitnessItem } from "../response.js";
import { turnRandom } from "../render/rng.js";
import { emptySentiment, sanitize } from "../text/sanitize.js";
import { emojiFor, sentimentMatch, withoutTrailingFiller } from "../text/sentiment.js";
import { WordResolver } from "../text/word-resolver.js";
import { UnsafeSlotValueError } from "../render/shell-escape.js";
import { InvalidBundleError } from "../bundle/invalid-bundle.js";
import { ageRegister, emptyRegister, REGISTER_TURNS, type ContextRegister } from "./register.js";

export interface SessionMetadata {
  username?: string;
  computer_name?: string;
  [key: string]: string | undefined;
}

export interface SessionOptions {
  /** Seed of the variant choices (default 0): same seed + same messages → same text. */
  seed?: number;
  /** Values of system tags. User and host names come only from here. */
  metadata?: SessionMetadata;
  /** Turns the context register outlives its last write (default 3). */
  registerTurns?: number;
  /**
   * Pronouns, ellipsis, corrections and slot elicitation through the context register
   * (docs/architecture.md). Outside the core: `import { conversation } from "ndfc/runtime/conversation"`.
   */
  conversation?: Conversation;
}

/** The part of a session a Conversation works with (runtime/conversation/conversation.ts). */
export interface ConversationTurn {
  readonly model: NpcModel;
  register: ContextRegister;
  readonly activeContext: number | null;
  readonly witness: Witness[];
  /** The answer of `intent` with these slots, guarded as any answer is (null: a slot value cannot sit in its command). */
  answerWith(status: MatchStatus, intent: number, slots: Record<string, string>, message: string): NpcResponse | null;
  /** A question: nothing runs. */
  ask(slot: string, intent: string | null, question: string): NpcResponse;
}

export interface Conversation {
  /** An answer from the register instead of `matched` (null: the match stands). */
  converse(turn: ConversationTurn, matched: Matched, clause: Clause, read: string, clean: string, words: WordResolver): NpcResponse | null;
  /** Writes an answer into the register. */
  remember(turn: ConversationTurn, response: NpcResponse, read: string, base: number): void;
}

/** What session.snapshot() returns and restore() takes: plain JSON. */
export interface SessionSnapshot {
  turn: number;
  context: string | null;
  sentiment: Sentiment;
  register: ContextRegister;
}

const DEFAULT_USERNAME = "user";
const DEFAULT_COMPUTER_NAME = "localhost";
const FALLBACK_UNKNOWN = "Sorry, I did not understand that.";
/** The exact lookup of a clause's tokens as typed, done once for the whole message. */
interface TypedLookup {
  key: string;
  hit: ExactHit | null;
}

/**
 * Longest message read, whatever a bundle's maxMessageChars says (the compiler writes 500): the
 * work of every step is bounded in the message's length, so this bounds the work of a message.
 */
export const MAX_MESSAGE_CHARS = 1000;

/** The bundle's limit, never past MAX_MESSAGE_CHARS (a value that is not a number reads as it). */
export function messageLimit(configured: number): number {
  return configured <= MAX_MESSAGE_CHARS ? configured : MAX_MESSAGE_CHARS;
}

const NEGATED_NOTICE = "This reads as a request not to do something destructive, so nothing will run.";
const NO_REFERENT_NOTICE = "This asks for something destructive without saying what it is about, so nothing will run: name what you mean.";

/**
 * The tokens with each word the NPC does not know replaced by its closest correction, when one is
 * closer than any other and similar enough ("updat ystem" → "update system"): the learned model
 * has only seen the dataset's spellings. The tokens themselves when nothing needs correcting.
 */
function correctedTokens(tokens: Token[], words: WordResolver, threshold: number): Token[] {
  let out: Token[] | null = null;
  tokens.forEach((token, i) => {
    if (token.kind !== "word" || words.id(token.norm) !== undefined) return;
    const [best, second] = words.correctedLoosely(token.norm);
    if (!best || best.similarity < threshold || (second && second.distance === best.distance)) return;
    out ??= tokens.slice();
    out[i] = { text: token.text, norm: words.word(best.word), kind: token.kind, shape: token.shape, start: token.start, end: token.end };
  });
  return out ?? tokens;
}

const UNBALANCED_QUOTE_NOTICE = 'A quote was opened and never closed: close it so the quoted text is read as one piece.';

export interface ProcessOptions {
  /**
   * Return `trace`: every stage tried and why it answered or not (costs time; off by default).
   * The explainer lives outside the core: `import { explain } from "ndfc/runtime/explain"`.
   */
  explain?: Explainer | false;
}

export type Matched = { kind: "match"; match: Match } | { kind: "rejected"; related: RankedIntent[]; notice?: string };

export interface Match {
  status: MatchStatus;
  intent: number;
  confidence: number;
  slots: Record<string, string>;
  captures?: Record<string, SlotCapture>;
  /** A guess's runner-up intent (none: absent or -1): what "no, the other one" means (runtime/conversation/conversation.ts). */
  runnerUp?: number;
}

export class NpcSession {
  private activeContext: number | null = null;
  private turn = 0;
  private readonly totals: Sentiment = emptySentiment();
  private readonly seed: number;
  private readonly system: Record<string, string>;
  private register = emptyRegister();
  private readonly registerTurns: number;
  private readonly conversation: Conversation | undefined;

  constructor(
    private readonly model: NpcModel,
    options: SessionOptions = {},
  ) {
    this.seed = Number.isFinite(options.seed) ? Math.trunc(options.seed!) : 0;
    this.system = systemValues(model.payload.config, options.metadata);
    this.registerTurns = Number.isFinite(options.registerTurns) ? Math.max(0, Math.trunc(options.registerTurns!)) : REGISTER_TURNS;
    this.conversation = options.conversation;
  }

  /** The context register now (a copy). */
  get contextRegister(): ContextRegister {
    return clone(this.register);
  }

  /** The state of the conversation, so another session of the same NPC can carry it on (restore). */
  snapshot(): SessionSnapshot {
    return clone({ turn: this.turn, context: this.context, sentiment: this.totals, register: this.register });
  }

  /** Carries on the conversation of a snapshot; throws a TypeError naming what is wrong with it. */
  restore(snapshot: SessionSnapshot): void {
    const { turn, context, sentiment, register } = snapshot ?? ({} as SessionSnapshot);
    const index = context === null ? null : this.model.payload.intents.findIndex((intent) => intent.id === context);
    if (!Number.isSafeInteger(turn) || turn < 0) throw new TypeError("snapshot.turn must be a non-negative integer");
    if (index === -1) throw new TypeError(`snapshot.context names no intent of this NPC: ${String(context)}`);
    if (typeof register !== "object" || register === null || typeof register.last_args !== "object") throw new TypeError("snapshot.register must be a context register");
    for (const kind of SENTIMENT_KINDS) if (!Number.isFinite(sentiment?.[kind])) throw new TypeError(`snapshot.sentiment.${kind} must be a number`);
    this.turn = turn;
    this.activeContext = index;
    Object.assign(this.totals, clone(sentiment));
    this.register = clone(register);
  }

  /** What the last command produced (a host's tool result): "them" may refer to it. */
  noteResult(result: string): void {
    this.register = { ...this.register, last_result: result, age: 0 };
  }

  /** Id of the intent whose context children are reachable now, or null. */
  get context(): string | null {
    return this.activeContext === null ? null : this.model.payload.intents[this.activeContext]!.id;
  }

  /**
   * Answers one message. A message of several clauses ("delete a.log then list files") is answered
   * clause by clause, in order, and combined (runtime/conversation/composite.ts); `parts` then holds each answer.
   */
  process(message: string, options: ProcessOptions = {}): NpcResponse {
    const turn = this.turn++;
    this.register = ageRegister(this.register, this.registerTurns);
    const trace = typeof options.explain === "function" ? options.explain(this.model) : undefined;
    let response: NpcResponse;
    try {
      response = this.processMessage(typeof message === "string" ? message : String(message), turn, trace);
    } catch (error) {
      // A bug must not take the host down: answer with a rejection that says what happened. A
      // malformed intent record (read on first use, bundle/intent-records.ts) is the bundle's fault: the notice names it.
      const broken = error instanceof InvalidBundleError;
      response = this.reject([], [{ stage: "sanitize", items: [], note: broken ? error.message : `internal error: ${String(error)}` }], turn, 0, emptySentiment());
      if (broken) response.notice = error.message;
    }
    if (trace) response.trace = trace.decision(response);
    return response;
  }

  private processMessage(message: string, turn: number, trace: Tracer | undefined): NpcResponse {
    // First, before any step reads the message (lexing, clauses, sentiment, matching).
    const limit = messageLimit(this.model.payload.config.maxMessageChars);
    if (message.length > limit) {
      return this.refuse(turn, `That message is ${message.length} characters long; I read at most ${limit}. Split it into shorter messages.`, trace, {
        unit: "characters",
        limit,
        length: message.length,
      });
    }
    const { clean, tokens, unbalancedQuote } = tokenize(message);
    trace?.lexed(message, tokens.length);
    if (unbalancedQuote) return this.refuse(turn, UNBALANCED_QUOTE_NOTICE, trace);
    // A whole message the dataset lists as one input is never split ("first this then that").
    const typedKey = keyOf(tokens);
    const whole = matchExact(this.model, [typedKey], this.activeContext);
    // One resolver per message: the clause split and every clause's stages share its corrections.
    const words = new WordResolver(this.model);
    const clauses = whole ? [{ tokens, start: 0, end: clean.length }] : splitClauses(this.model, tokens, clean, words);
    if (clauses.length > MAX_CLAUSES) {
      return this.refuse(turn, `That message asks for ${clauses.length} things; I take at most ${MAX_CLAUSES} at once. Split it into shorter messages.`, trace, {
        unit: "clauses",
        limit: MAX_CLAUSES,
        length: clauses.length,
      });
    }
    trace?.clauses(clean, clauses);
    if (clauses.length > 1 && this.readsAsOne(tokens, clauses, clean, words)) clauses.splice(0, clauses.length, { tokens, start: 0, end: clean.length });
    if (clauses.length <= 1) {
      const clause = clauses[0] ?? { tokens: [], start: 0, end: 0 };
      // The whole message as typed was just looked up: a clause of all its tokens reuses that.
      return this.answer(clean, clause, turn, 0, words, trace, clause.tokens.length === tokens.length ? { key: typedKey, hit: whole } : undefined);
    }
    const parts = clauses.map((clause, k) => this.answer(clean, clause, turn, k, words, trace));
    return combineParts(parts, this.totals, emojiFor(this.totals));
  }

  /**
   * Whether a message split into clauses is better read whole: the learned stage accepts it
   * whole, and some clause has no exact key or template of its own. "My card has not arrived.
   * Help please!" is one request; "delete a.log then list files" stays two. (3-fold
   * cross-validation on Banking77's train.csv: 85.3 % of held-out phrasings answered correctly
   * with this, 70.6 % without.)
   */
  private readsAsOne(tokens: Token[], clauses: readonly Clause[], clean: string, words: WordResolver): boolean {
    const learned = this.model.learned;
    if (learned === null || !learned.score(tokens).accepted) return false;
    return clauses.some(
      (clause) => matchExact(this.model, [keyOf(clause.tokens)], this.activeContext) === null && matchTemplate(this.model, clause.tokens, clean, words, this.activeContext) === null,
    );
  }

  private answer(
    clean: string,
    clause: Clause,
    turn: number,
    part: number,
    words: WordResolver,
    trace: Tracer | undefined,
    typedExact?: TypedLookup,
  ): NpcResponse {
    const { tokens } = clause;
    const read = clean.slice(clause.start, clause.end);
    const sanitized = sanitize(this.model, tokens);
    addSentiment(this.totals, sanitized.counts);
    if (trace) {
      trace.part = part;
      trace.sanitized(sanitized);
    }
    const witness: Witness[] = sanitized.items.length > 0 ? [{ stage: "sanitize", items: sanitized.items }] : [];
    const match = this.match(tokens, sanitized.kept, sanitized.content, clean, witness, sanitized, words, trace, typedExact);
    const talk = this.conversation;
    const view = talk && this.turnView(witness, turn, part);
    const conversed = view && talk.converse(view, match, clause, read, clean, words);
    if (conversed) return conversed;
    let response: NpcResponse;
    let refusal: string | undefined;
    if (match.kind === "rejected") response = this.reject(match.related, witness, turn, part, this.totals);
    else {
      try {
        response = this.respond(match.match, witness, turn, part);
        applyGuards(response as NpcResponse & { status: MatchStatus }, this.model.payload.intents[match.match.intent]!, read);
      } catch (error) {
        // A slot value that cannot sit where the command puts it (e.g. `$` inside "…"): no tool runs.
        if (!(error instanceof UnsafeSlotValueError)) throw error;
        const intent = match.match.intent;
        response = this.reject([{ intent, score: match.match.confidence }], witness, turn, part, this.totals);
        refusal = `${error.message}; nothing will run.`;
      }
    }
    const notice = match.kind === "rejected" ? match.notice : refusal;
    if (notice !== undefined) response.notice = notice;
    if (view && match.kind === "match" && response.status !== "rejected") talk.remember(view, response, read, clause.start);
    return response;
  }

  /** What a Conversation sees of this turn; its register reads and writes the session's. */
  private turnView(witness: Witness[], turn: number, part: number): ConversationTurn {
    const session = this;
    return {
      model: this.model,
      get register() {
        return session.register;
      },
      set register(value) {
        session.register = value;
      },
      activeContext: this.activeContext,
      witness,
      answerWith: (status, intent, slots, message) => {
        try {
          const response = this.respond({ status, intent, confidence: 1, slots }, witness, turn, part);
          applyGuards(response as NpcResponse & { status: MatchStatus }, this.model.payload.intents[intent]!, message);
          return response;
        } catch (error) {
          if (error instanceof UnsafeSlotValueError) return null;
          throw error;
        }
      },
      ask: (slot, intent, question) => {
        const response = this.reject([], witness, turn, part, this.totals);
        response.status = "elicit";
        response.response = question;
        response.elicit = { slot, intent };
        return response;
      },
    };
  }

  private match(
    tokens: Token[],
    kept: Token[],
    content: Token[],
    clean: string,
    witness: Witness[],
    sentiment: { counts: Sentiment; phrases: string[] },
    words: WordResolver,
    trace: Tracer | undefined,
    /** The exact lookup of `tokens` as typed, when already done (undefined: not done). */
    typedExact?: TypedLookup,
  ): Matched {
    /** A match, with its evidence added to the witness. */
    const found = (stage: Witness["stage"], items: WitnessItem[], note: string, status: MatchStatus, intent: number, confidence = 1, hit?: TemplateHit) => {
      witness.push({ stage, items, note });
      const match: Match = { status, intent, confidence, slots: hit?.slots ?? {} };
      if (hit) match.captures = hit.captures;
      return { kind: "match" as const, match };
    };
    const asTyped = () => tokens.map((t): WitnessItem => ({ word: t.text, kind: "word", matched: t.norm }));
    // The message as typed first: a dataset phrase containing a noise word ("clear") still matches.
    const typed = typedExact?.key ?? keyOf(tokens);
    const keys = kept.length === tokens.length ? [typed] : [typed, keyOf(kept)];
    // With a noise word dropped the key without it is tried too, the context table first: look up again.
    const exact = typedExact !== undefined && keys.length === 1 ? typedExact.hit : matchExact(this.model, keys, this.activeContext);
    trace?.exact(keys, exact, this.activeContext);
    if (exact) return found(exact.status === "context match" ? "context" : "exact", asTyped(), exact.key, exact.status, exact.intent);
    const felt = sentimentMatch(this.model, sentiment.counts, sentiment.phrases, content);
    trace?.sentiment(felt);
    if (felt) return found("exact", asTyped(), felt.key, "exact match", felt.intent);
    const trimmed = withoutTrailingFiller(this.model, kept);
    let template: TemplateHit | null = null;
    for (const candidate of kept.length === tokens.length ? [trimmed] : [trimmed, withoutTrailingFiller(this.model, tokens)]) {
      template = matchTemplate(this.model, candidate, clean, words, this.activeContext);
      trace?.template(candidate, template, words, this.activeContext);
      if (template) break;
    }
    // A template read through a typo correction yields to the training input the corrections spell.
    const corrected = template?.items.some((item) => item.kind === "fuzzy") ? words.correctedKey(tokens) : null;
    const typoExact = corrected && matchExact(this.model, [corrected.key], this.activeContext);
    if (corrected && typoExact) {
      const stage = typoExact.status === "context match" ? "context" : "probabilistic";
      return found(stage, corrected.items, typoExact.key, "probabilistic match", typoExact.intent, corrected.similarity);
    }
    const templateMatch = (hit: TemplateHit) =>
      found(hit.inContext ? "context" : "template", hit.items, `path ${hit.path}`, hit.inContext ? "context match" : "template match", hit.intent, 1, hit);
    if (template?.inContext) return templateMatch(template);
    const suggestions = this.model.payload.config.suggestions;
    const query = content.length > 0 ? content : kept;
    // The learned stage ranks what no template reads; with no context active, an answer it
    // accepts needs nothing else (the lexical stage is not run).
    const learned = template === null && this.model.learned !== null && query.length > 0 ? this.model.learned.score(correctedTokens(query, words, this.model.payload.config.wordThreshold)) : null;
    if (learned) trace?.learned(learned);
    const learnedGuess = (): Matched => {
      const refusal = this.refusesGuess(learned!.topIntent, query);
      if (refusal) return refusal([{ intent: learned!.topIntent, score: learned!.margin, input: -1 }]);
      witness.push(...this.learnedWitness(query, learned!, trace));
      const threshold = this.model.payload.config.learnedThreshold;
      return { kind: "match", match: { status: "probabilistic match", intent: learned!.topIntent, confidence: round4(learned!.margin / (learned!.margin + threshold)), slots: {}, runnerUp: learned!.runnerUpIntent } };
    };
    if (learned?.accepted && this.activeContext === null) return learnedGuess();
    // While a context is active its children are tried first, fuzzily too (before top-level
    // templates that needed a typo correction): the matcher then returns the whole ranking.
    // A top-level template read without typos is firm evidence ("delete old.log"); only one that
    // needed a typo correction ("delet it") yields to a follow-up that fits.
    const firm = template !== null && !template.items.some((item) => item.kind === "fuzzy");
    const skip = template !== null && (firm || this.activeContext === null || !mayMatchChild(this.model, this.activeContext, query, words));
    const probabilistic = skip ? null : matchProbabilistic(this.model, query, Math.max(suggestions, 2), words, this.activeContext);
    const child = probabilistic ? pickContextChild(this.model, probabilistic.ranking, this.activeContext, query) : null;
    if (template && !child) return templateMatch(template);
    if (!probabilistic) throw new Error("unreachable: no template and no ranking");
    trace?.probabilistic(probabilistic.ranking, probabilistic.hit !== null);
    const ranking = probabilistic.ranking.slice(0, Math.max(suggestions, 2));
    if (!child && learned?.accepted) return learnedGuess();
    // With a learned model, a lexical answer the model does not rank first (above "none of
    // these") is a guess against the better judge: it stands only when both agree, or for a
    // message of one word ("list"), a keyword the model has too little context to weigh.
    // Measured by 3-fold cross-validation on Banking77's train.csv (9,982 held-out phrasings,
    // each fold's own calibrated threshold): the learned stage alone answers 83.1 % correctly at
    // 95.3 % precision; with agreeing lexical answers 85.3 % at 94.1 %; with every lexical answer
    // 86.8 % at 90.8 %. Agreement and the learned stage alone lie on one curve as the threshold
    // moves (83.3 % at 95.1 % with agreement at a 97 % calibration target); any lexical answer
    // is below it at every threshold.
    const hit = probabilistic.hit;
    const lexical = hit && (learned === null || hit.intent === learned.topIntent || query.length === 1) ? hit : null;
    const guess = child ?? lexical;
    const refusal = guess ? this.refusesGuess(guess.intent, query) : null;
    if (refusal) return refusal(ranking.slice(0, suggestions));
    // Suggestions (and a guess's runner-up) must share real evidence with the message: half the threshold at least.
    const floor = this.model.payload.config.sentenceThreshold / 2;
    if (guess) {
      const guessed = found(child ? "context" : "probabilistic", guess.items, `input ${guess.input}`, "probabilistic match", guess.intent, round4(guess.score));
      guessed.match.runnerUp = ranking.find((r) => r.intent !== guess.intent && r.score >= floor)?.intent;
      return guessed;
    }
    return { kind: "rejected", related: ranking.filter((r) => r.score >= floor).slice(0, suggestions) };
  }

  /**
   * A guess of a destructive entry that must not stand: a negated request ("don't delete x"
   * resembles "delete x"), or, with no context to refer to, a request naming nothing ("delete
   * it"). The guard's reading of negation (guards.ts) is on the request without its sentiment
   * phrases: "don't worry, …" is encouragement, not a "don't".
   */
  private refusesGuess(intent: number, query: readonly Token[]): ((related: RankedIntent[]) => { kind: "rejected"; related: RankedIntent[]; notice: string }) | null {
    if (!this.model.payload.intents[intent]!.destructive) return null;
    const notice = isNegated(textOf(query)) ? NEGATED_NOTICE : this.activeContext === null && lacksReferent(query, this.model.nameless) ? NO_REFERENT_NOTICE : null;
    return notice === null ? null : (related) => ({ kind: "rejected", related, notice });
  }

  /**
   * The learned stage's witness: the winner's score and margin; when explaining, the tracer's
   * (the runner-up too, and the features adding most to each).
   */
  private learnedWitness(query: readonly Token[], scores: LearnedScores, trace: Tracer | undefined): Witness[] {
    const { topIntent, topScore, margin } = scores;
    return trace?.learnedWitness(query, scores) ?? [{ stage: "learned", items: [], note: `${this.model.payload.intents[topIntent]!.id} ${round4(topScore)}, margin ${round4(margin)}` }];
  }

  /** A refusal before any matching (limits, open quote): the response says what to do. */
  private refuse(turn: number, text: string, trace: Tracer | undefined, tooLong?: NpcResponse["tooLong"]): NpcResponse {
    trace?.refused(tooLong);
    const response = this.reject([], [], turn, 0, this.totals);
    response.response = text;
    response.notice = text;
    if (tooLong) response.tooLong = tooLong;
    return response;
  }

  private renderContext(intent: BundleIntent | null, slots: Record<string, string>, turn: number, part: number): RenderContext {
    // Part k of a composite message draws from its own stream of the turn's seed.
    return { model: this.model, intent, slots, system: this.system, random: turnRandom(this.seed + part * 0x3c6ef372, turn), budget: new RenderBudget() };
  }

  private respond(match: Match, witness: Witness[], turn: number, part: number): NpcResponse {
    const intent = this.model.payload.intents[match.intent]!;
    // fixed slots first: a slot the words captured under the same name wins
    const slots = intent.slots.length > 0 ? { ...Object.fromEntries(intent.slots), ...match.slots } : match.slots;
    const rendered = renderIntent(intent, this.renderContext(intent, slots, turn, part));
    if (intent.context !== null) this.activeContext = intent.context.length > 0 ? match.intent : null;
    return {
      status: match.status,
      confidence: match.confidence,
      intent: intent.id,
      response: rendered.response,
      thinking: rendered.thinking,
      tools: rendered.tools,
      slots,
      ...(match.captures ? { captures: match.captures } : {}),
      permission: intent.permission, // then applyGuards (guards.ts)
      sentiment: { ...this.totals },
      emoji: emojiFor(this.totals),
      related: [],
      description: rendered.description,
      witness,
    };
  }

  private reject(ranking: Pick<RankedIntent, "intent" | "score">[], witness: Witness[], turn: number, part: number, sentiment: Sentiment): NpcResponse {
    const ctx = this.renderContext(null, {}, turn, part);
    const related: RelatedSuggestion[] = ranking.map(({ intent, score }) => {
      const target = this.model.payload.intents[intent]!;
      return { intent: target.id, category: target.category, example: target.example, score: round4(score) };
    });
    const lists = this.model.wordLists;
    const intro = related.length > 0 ? lists.get("related") : undefined;
    const variants = intro ?? lists.get("unknown");
    const response = variants ? renderVariant(variants, ctx) : FALLBACK_UNKNOWN;
    return {
      status: "rejected",
      confidence: 0,
      intent: null,
      response: response === "" ? FALLBACK_UNKNOWN : response,
      thinking: "",
      tools: [],
      slots: {},
      permission: "ask",
      sentiment: { ...sentiment },
      emoji: emojiFor(sentiment),
      related,
      description: null,
      witness,
    };
  }
}

/** The values of system tags: the host's metadata, then defaults for the user, host and NPC names. */
export function systemValues(config: BundleConfig, metadata: SessionMetadata = {}): Record<string, string> {
  const system: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) if (typeof value === "string") system[key] = value;
  system.username ??= DEFAULT_USERNAME;
  system.computer_name ??= DEFAULT_COMPUTER_NAME;
  system.npc_name ??= config.npcName;
  system.creator ??= config.creator ?? "";
  return system;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function addSentiment(total: Sentiment, add: Sentiment): void {
  for (const kind of SENTIMENT_KINDS) total[kind] += add[kind];
}
