// One served NPC: its sessions, the messages the server answers itself (teach, yes/no to a taught
// word, tool results), substitution of taught words, and one audit row per message (with the
// tier that answered and the latency).
//
// With an escalation (`--escalate`, compiler/escalate/), `reply` hands a rejection or a low guess
// to the model; a confirmed answer is learned as a provisional input of its intent, which then
// answers that message here (tier "learned") as a taught word does, and is trusted like one.
// Only the escalation's types are imported here: its code loads only when it is configured.
//
// Sessions are created here, never named by a client: an id is 128 random bits, owned by the
// client (API key id, or null without keys) that created it, and another client naming it is told
// it does not exist. Each client keeps at most `maxSessions` (least recently used dropped), so
// one client's junk sessions never evict another's.
import { randomBytes } from "node:crypto";
import { bundleSlug } from "../emit/write-bundle.js";
import { emojiFor, type Npc, type NpcResponse, type NpcSession, type ProcessOptions, type SessionOptions } from "../../runtime/index.js";
import { emptySentiment } from "../../runtime/text/sanitized.js";
import { conversation } from "../../runtime/conversation/conversation.js";
import { bundleConcepts } from "../store/bundle-concepts.js";
import { TRUST_AFTER, type ConceptLookup, type Store, type TeachGuard, type Teaching } from "../store/store.js";
import { teachingGuard } from "../store/teach-guards.js";
import type { Escalation, EscalationOutcome, EscalationResult } from "../escalate/types.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { LruMap } from "./lru.js";
import { substituteTaught } from "./substitute.js";
import { parseConfirmation, parseTeachMessage } from "./teach-messages.js";
import { WordLists } from "../../runtime/bundle/word-lists.js";

/** Statuses of the messages the server answers without the NPC. */
export type ControlStatus =
  | "teaching recorded"
  | "teaching refused"
  | "teaching confirmed"
  | "teaching denied"
  | "tool result acknowledged";

/** A native response, or the same shape for a message the server answered itself. */
export type ServeAnswer = Omit<NpcResponse, "status"> & {
  /** "escalated": the escalation model picked the intent. */
  status: NpcResponse["status"] | ControlStatus | "escalated";
  /** The session that answered (send it back to continue the conversation). */
  session?: string;
  /** Taught words put in their meaning's place before the NPC answered. */
  taught?: { word: string; meaning: string; state: string }[];
  /** The teaching a teach message or a confirmation created or changed. */
  teaching?: { word: string; meaning: string; state: string; confirmations: number };
  /** Set when the escalation model was asked: which one, and how it went. */
  escalation?: { model: string; outcome: EscalationOutcome; detail?: string };
};

/** Who is talking: the id of the API key of the request, or null when the server has no keys. */
export type ClientId = string | null;

interface SessionState {
  session: NpcSession;
  /** Audit row of the session's last answer from the NPC (what /api/confirm confirms). */
  lastAnswer: number | null;
  /** Whether that answer used taught words (a "yes"/"no" next is then read as a confirmation). */
  awaitsConfirmation: boolean;
  toolResults: number;
  /** The last answer, when the escalation model gave it and it may be learned once confirmed. */
  lesson: { input: string; intent: string; session: string; client: ClientId } | null;
}

/** An NPC answer not yet audited: the escalation may take it over first. */
interface PendingTurn {
  client: ClientId;
  sessionId: string;
  state: SessionState;
  message: string;
  response: NpcResponse;
  used: Teaching[];
  tier: string;
  started: number;
}

/** A message the host answered itself, or an NPC answer to finish. */
type Routed = { done: ServeAnswer } | { pending: PendingTurn };

const NOT_RESOLVED = "couldn't resolve";
const MODEL_UNAVAILABLE = "couldn't resolve, and the model is unavailable";

/** The audit's tier of an NPC status: the stage that answered. */
function tierOf(status: string): string {
  if (status.includes(", ")) return "composite";
  return status.endsWith(" match") ? status.slice(0, -" match".length) : status;
}

/** A session id this client did not get from this NPC (never created, dropped, or another client's). */
export class UnknownSessionError extends Error {
  constructor(readonly sessionId: string) {
    super(`unknown session "${sessionId}"`);
    this.name = "UnknownSessionError";
  }
}

const SESSION_PREFIX = "sess_";
const TOOL_ACK_FALLBACK = "Done.";
const TAUGHT_DESTRUCTIVE_NOTICE = "A taught word led to this destructive answer, so it asks before anything runs.";

/** Whether `text` has the shape of a session id this server hands out. */
export const looksLikeSessionId = (text: string): boolean => text.startsWith(SESSION_PREFIX);

export class NpcHost {
  readonly id: string;
  /** Per client (key id, "" without keys): its sessions. */
  private readonly sessions = new Map<string, LruMap<string, SessionState>>();
  /** The bundle's concepts and typo guard, for refusing teachings: built at the first teaching. */
  private teachChecks: { known: ConceptLookup; guard: TeachGuard } | undefined;
  /** Per intent id, an input of the exact table (what a learned input answers as). */
  private exactKeys: Map<string, string> | undefined;
  private readonly toolAck: string[];
  private readonly destructive: ReadonlySet<string>;

  constructor(
    readonly npc: Npc,
    private readonly store: Store | null,
    /** Sessions kept per client. */
    private readonly maxSessions: number,
    /** Options of every new session (`ndfc chat --seed/--user`); default seed 0. */
    private readonly sessionOptions: SessionOptions = { seed: 0 },
    /** The model rejections and low guesses go to (`reply`), or null. */
    private readonly escalation: Escalation | null = null,
    /**
     * `ndfc chat`: one person's conversations, so a provisional teaching of any chat applies in
     * every later one, where using it and saying "yes" confirms it (serve keeps them per session).
     */
    private readonly sharedTeachings = false,
  ) {
    this.id = bundleSlug(npc.name) || "npc";
    // The NPC's own completion words, when they are plain text, acknowledge a tool result.
    const completion = new WordLists(npc.payload.wordLists).get("completion") ?? [];
    const plain = completion.filter((segments) => segments.length === 1 && segments[0]!.trim() !== "").map((s) => s[0]!);
    this.toolAck = plain.length > 0 ? plain : [TOOL_ACK_FALLBACK];
    this.destructive = new Set(npc.payload.intents.filter((intent) => intent.destructive).map((intent) => intent.id));
  }

  /** Starts a conversation for `client`; returns its id. */
  openSession(client: ClientId): string {
    const id = `${SESSION_PREFIX}${randomBytes(16).toString("base64url")}`;
    let own = this.sessions.get(client ?? "");
    if (!own) this.sessions.set(client ?? "", (own = new LruMap(this.maxSessions)));
    own.getOrCreate(id, () => ({ session: this.npc.session({ conversation, ...this.sessionOptions }), lastAnswer: null, awaitsConfirmation: false, toolResults: 0, lesson: null }));
    return id;
  }

  /** Answers one user message of a session of `client`, without escalation. */
  message(client: ClientId, sessionId: string, message: string, options: ProcessOptions = {}): ServeAnswer {
    const routed = this.route(client, sessionId, message, options, performance.now());
    return "done" in routed ? routed.done : this.settle(routed.pending, null);
  }

  /** Answers one user message, escalating a rejection or a low guess when an escalation is configured. */
  async reply(client: ClientId, sessionId: string, message: string, options: ProcessOptions = {}): Promise<ServeAnswer> {
    const routed = this.route(client, sessionId, message, options, performance.now());
    if ("done" in routed) return routed.done;
    const turn = routed.pending;
    if (this.escalation === null || !this.escalation.wants(turn.response)) return this.settle(turn, null);
    const { seed = 0, metadata = {} } = this.sessionOptions;
    return this.settle(turn, await this.escalation.resolve({ message, response: turn.response, seed, metadata }));
  }

  private route(client: ClientId, sessionId: string, message: string, options: ProcessOptions, started: number): Routed {
    const state = this.state(client, sessionId);
    // Past the length limit the NPC refuses the message; nothing else reads it first.
    if (message.length > this.npc.maxMessageChars) return { pending: this.answer(client, sessionId, state, message, message, [], options, started) };
    const teach = parseTeachMessage(message);
    if (teach) return { done: this.teach(client, sessionId, message, teach.word, teach.meaning, started) };
    const confirmation = state.awaitsConfirmation ? parseConfirmation(message) : null;
    if (confirmation !== null) {
      const teachings = this.confirmLast(state, confirmation);
      if (teachings !== null) return { done: this.confirmed(client, sessionId, message, confirmation, teachings, started) };
    }
    // A provisional teaching from a conversation applies in that conversation only, so one
    // client cannot change another's answers; trusted ones and the operator's (CLI) apply to all.
    const taught = (this.sharedTeachings ? this.store?.teachings(this.id) : this.store?.teachingsIn(this.id, sessionId)) ?? [];
    const lesson = this.lessonFor(taught, message);
    if (lesson) return { pending: this.answer(client, sessionId, state, message, lesson.key, [lesson.teaching], options, started, "learned") };
    const { message: rewritten, used } = substituteTaught(message, taught.filter((t) => t.kind !== "input"));
    return { pending: this.answer(client, sessionId, state, message, rewritten, used, options, started) };
  }

  /** A learned input matching the whole message, and the exact input of its intent that answers in its place. */
  private lessonFor(taught: readonly Teaching[], message: string): { teaching: Teaching; key: string } | null {
    const inputs = taught.filter((t) => t.kind === "input");
    if (inputs.length === 0) return null;
    const typed = normalizeKey(message);
    const teaching = inputs.find((t) => t.word === typed);
    const key = teaching && this.exactKeyOf(teaching.meaning);
    return teaching && key ? { teaching, key } : null;
  }

  /** A normalized input of the intent in the exact table, built at the first lesson. */
  private exactKeyOf(intent: string): string | undefined {
    if (!this.exactKeys) {
      const { intents, exact } = this.npc.payload;
      this.exactKeys = new Map();
      for (let i = exact.keys.length - 1; i >= 0; i--) this.exactKeys.set(intents[exact.targets[i]!]!.id, exact.keys.at(i));
    }
    return this.exactKeys.get(intent);
  }

  /** Acknowledges a tool result sent back by the client, as the NPC would. */
  toolResult(client: ClientId, sessionId: string, content: string): ServeAnswer {
    const started = performance.now();
    const state = this.state(client, sessionId);
    const text = this.toolAck[state.toolResults++ % this.toolAck.length]!;
    // A one-line result can be what "them" means next ("find *.log" → "delete them").
    const result = content.trim();
    if (result !== "" && !result.includes("\n")) state.session.noteResult(result);
    this.record(client, sessionId, content, "tool result acknowledged", null, 1, [], controlAudit(started));
    return this.control(sessionId, "tool result acknowledged", text);
  }

  /**
   * Confirms (or denies) the last answer of a session: its audit row, and the teachings it used.
   * Returns null when the session has no answer to confirm.
   */
  confirm(client: ClientId, sessionId: string, correct: boolean): Teaching[] | null {
    return this.confirmLast(this.state(client, sessionId), correct);
  }

  /** Confirms the session's last answer; a confirmed escalated answer is learned (or counts towards trusting the lesson). */
  private confirmLast(state: SessionState, correct: boolean): Teaching[] | null {
    if (state.lastAnswer === null || !this.store) return null;
    const teachings = this.store.confirm(state.lastAnswer, correct);
    const { lesson } = state;
    if (correct && lesson) {
      const outcome = this.store.learnInput({ npc: this.id, ...lesson });
      if (outcome.kind !== "refused") teachings.unshift(outcome.teaching);
    }
    state.awaitsConfirmation = false;
    state.lesson = null;
    return teachings;
  }

  private state(client: ClientId, sessionId: string): SessionState {
    const state = this.sessions.get(client ?? "")?.get(sessionId);
    if (!state) throw new UnknownSessionError(sessionId);
    return state;
  }

  /** The NPC's answer to `rewritten` (the message with taught words replaced, or a learned input's key), to audit under `message`. */
  private answer(
    client: ClientId,
    sessionId: string,
    state: SessionState,
    message: string,
    rewritten: string,
    used: Teaching[],
    options: ProcessOptions,
    started: number,
    tier?: string,
  ): PendingTurn {
    const response = state.session.process(rewritten, options);
    return { client, sessionId, state, message, response, used, tier: tier ?? tierOf(response.status), started };
  }

  /** Audits a turn and returns its answer: the NPC's, or the escalation's when it resolved the message. */
  private settle(turn: PendingTurn, escalated: EscalationResult | null): ServeAnswer {
    const { client, sessionId, state, response, used } = turn;
    const answer: ServeAnswer = escalated?.answer ? { ...escalated.answer } : { ...response };
    const usedNow = answer.status !== "rejected" && !escalated?.answer ? used : [];
    if (usedNow.length > 0) this.askIfDestructive(answer);
    if (escalated) {
      answer.escalation = { model: escalated.model, outcome: escalated.outcome };
      if (escalated.detail !== undefined) answer.escalation.detail = escalated.detail;
      if (answer.status === "rejected") answer.notice = escalated.outcome === "unavailable" ? MODEL_UNAVAILABLE : NOT_RESOLVED;
    }
    const audit = { tier: escalated ? "escalated" : turn.tier, latencyMs: performance.now() - turn.started, model: escalated?.model ?? null };
    state.lastAnswer = this.record(client, sessionId, turn.message, answer.status, answer.intent, answer.confidence, usedNow, audit);
    state.lesson = escalated?.answer && escalated.learnable ? { input: turn.message, intent: escalated.answer.intent!, session: sessionId, client } : null;
    // A guess too can be confirmed: "no" after it records the miss on its audit row.
    state.awaitsConfirmation = usedNow.length > 0 || state.lesson !== null || answer.status === "probabilistic match";
    answer.session = sessionId;
    if (used.length > 0 && !escalated?.answer) answer.taught = used.map((t) => ({ word: t.word, meaning: t.meaning, state: t.state }));
    return answer;
  }

  /** A taught word never makes a destructive entry run without asking (the whole answer asks). */
  private askIfDestructive(response: ServeAnswer): void {
    const answers = response.parts ?? [response];
    if (!answers.some((part) => part.intent !== null && this.destructive.has(part.intent))) return;
    for (const part of [response, ...(response.parts ?? [])]) part.permission = "ask";
    response.notice = response.notice === undefined ? TAUGHT_DESTRUCTIVE_NOTICE : `${response.notice} ${TAUGHT_DESTRUCTIVE_NOTICE}`;
  }

  private teach(client: ClientId, sessionId: string, message: string, word: string, meaning: string, started: number): ServeAnswer {
    if (!this.store) return this.control(sessionId, "teaching refused", "Teaching needs the store, and this server runs without one (--no-store).");
    const checks = (this.teachChecks ??= { known: bundleConcepts(this.npc.payload), guard: teachingGuard(this.npc.payload) });
    const outcome = this.store.teachSynonym({ npc: this.id, word, meaning, source: "conversation", session: sessionId, client, ...checks });
    if (outcome.kind === "refused") {
      this.record(client, sessionId, message, "teaching refused", null, 1, [], controlAudit(started));
      return this.control(sessionId, "teaching refused", `I cannot learn that: ${outcome.message}.`);
    }
    const t = outcome.teaching;
    this.record(client, sessionId, message, "teaching recorded", null, 1, [], controlAudit(started));
    const text =
      outcome.kind === "added"
        ? `Got it: "${t.word}" means "${t.meaning}" here (${t.confirmations} of ${TRUST_AFTER} confirmations: for everyone once ${TRUST_AFTER - t.confirmations} other conversations confirm it).`
        : outcome.counted
          ? `"${t.word}" means "${t.meaning}" was taught already; yours counts as a confirmation (${t.confirmations} of ${TRUST_AFTER}${t.state === "trusted" ? ": now trusted" : ""}).`
          : `I already know "${t.word}" means "${t.meaning}" (${t.state}).`;
    return { ...this.control(sessionId, "teaching recorded", text), teaching: teachingReport(t) };
  }

  private confirmed(client: ClientId, sessionId: string, message: string, correct: boolean, teachings: Teaching[], started: number): ServeAnswer {
    const status = correct ? "teaching confirmed" : "teaching denied";
    this.record(client, sessionId, message, status, null, 1, [], controlAudit(started));
    const first = teachings[0];
    if (!first) return this.control(sessionId, status, correct ? "Thanks." : "Noted, that was not right.");
    const text = correct
      ? first.state === "trusted"
        ? `Thanks: "${first.word}" means "${first.meaning}" is now trusted.`
        : `Thanks: "${first.word}" means "${first.meaning}" (${first.confirmations} of ${TRUST_AFTER} confirmations, one per conversation).`
      : `Noted: "${first.word}" did not mean "${first.meaning}" there.`;
    return { ...this.control(sessionId, status, text), teaching: teachingReport(first) };
  }

  private record(client: ClientId, session: string, input: string, status: string, intent: string | null, confidence: number, used: Teaching[], audit: AuditExtra): number | null {
    if (!this.store) return null;
    return this.store.recordTurn({ npc: this.id, session, client, input, status, intent, confidence, taught: used.map((t) => t.id), ...audit });
  }

  private control(sessionId: string, status: ControlStatus, text: string): ServeAnswer {
    const sentiment = emptySentiment();
    return {
      status,
      confidence: 1,
      intent: null,
      response: text,
      thinking: "",
      tools: [],
      slots: {},
      permission: "ask",
      sentiment,
      emoji: emojiFor(sentiment),
      related: [],
      description: null,
      witness: [],
      session: sessionId,
    };
  }
}

/** The audit fields beyond the answer: which tier answered, in how long, which model was asked. */
interface AuditExtra {
  tier: string;
  latencyMs: number;
  model?: string | null;
}

/** The audit of a message the host answered itself. */
const controlAudit = (started: number): AuditExtra => ({ tier: "control", latencyMs: performance.now() - started });

/** A teaching as answers and /api/confirm report it. */
export function teachingReport(t: Teaching): NonNullable<ServeAnswer["teaching"]> {
  return { word: t.word, meaning: t.meaning, state: t.state, confirmations: t.confirmations };
}
