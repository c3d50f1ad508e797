// One served NPC: its sessions, the messages the server answers itself (teach, yes/no to a taught
// word, tool results), substitution of taught words, and one audit row per message.
//
// Sessions are created here, never named by a client: an id is 128 random bits, owned by the
// client (API key id, or null without keys) that created it, and another client naming it is told
// it does not exist. Each client keeps at most `maxSessions` (least recently used dropped), so
// one client's junk sessions never evict another's.
import { randomBytes } from "node:crypto";
import { bundleSlug } from "../emit/write-bundle.js";
import { emojiFor, type Npc, type NpcResponse, type NpcSession, type ProcessOptions, type SessionOptions } from "../../runtime/index.js";
import { emptySentiment } from "../../runtime/sanitize.js";
import { bundleConcepts } from "../store/bundle-concepts.js";
import { TRUST_AFTER, type ConceptLookup, type Store, type TeachGuard, type Teaching } from "../store/store.js";
import { teachingGuard } from "../store/teach-guards.js";
import { LruMap } from "./lru.js";
import { substituteTaught } from "./substitute.js";
import { parseConfirmation, parseTeachMessage } from "./teach-messages.js";

/** Statuses of the messages the server answers without the NPC. */
export type ControlStatus =
  | "teaching recorded"
  | "teaching refused"
  | "teaching confirmed"
  | "teaching denied"
  | "tool result acknowledged";

/** A native response, or the same shape for a message the server answered itself. */
export type ServeAnswer = Omit<NpcResponse, "status"> & {
  status: NpcResponse["status"] | ControlStatus;
  /** The session that answered (send it back to continue the conversation). */
  session?: string;
  /** Taught words put in their meaning's place before the NPC answered. */
  taught?: { word: string; meaning: string; state: string }[];
  /** The teaching a teach message or a confirmation created or changed. */
  teaching?: { word: string; meaning: string; state: string; confirmations: number };
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
  private readonly toolAck: string[];
  private readonly destructive: ReadonlySet<string>;

  constructor(
    readonly npc: Npc,
    private readonly store: Store | null,
    /** Sessions kept per client. */
    private readonly maxSessions: number,
    /** Options of every new session (`ndfc chat --seed/--user`); default seed 0. */
    private readonly sessionOptions: SessionOptions = { seed: 0 },
  ) {
    this.id = bundleSlug(npc.name) || "npc";
    // The NPC's own completion words, when they are plain text, acknowledge a tool result.
    const completion = npc.payload.wordLists.find(([name]) => name === "completion")?.[1] ?? [];
    const plain = completion.filter((segments) => segments.length === 1 && segments[0]!.trim() !== "").map((s) => s[0]!);
    this.toolAck = plain.length > 0 ? plain : [TOOL_ACK_FALLBACK];
    this.destructive = new Set(npc.payload.intents.filter((intent) => intent.destructive).map((intent) => intent.id));
  }

  /** Starts a conversation for `client`; returns its id. */
  openSession(client: ClientId): string {
    const id = `${SESSION_PREFIX}${randomBytes(16).toString("base64url")}`;
    let own = this.sessions.get(client ?? "");
    if (!own) this.sessions.set(client ?? "", (own = new LruMap(this.maxSessions)));
    own.getOrCreate(id, () => ({ session: this.npc.session(this.sessionOptions), lastAnswer: null, awaitsConfirmation: false, toolResults: 0 }));
    return id;
  }

  /** Answers one user message of a session of `client`. */
  message(client: ClientId, sessionId: string, message: string, options: ProcessOptions = {}): ServeAnswer {
    const state = this.state(client, sessionId);
    // Past the length limit the NPC refuses the message; nothing else reads it first.
    if (message.length > this.npc.maxMessageChars) return this.answer(client, sessionId, state, message, message, [], options);
    const teach = parseTeachMessage(message);
    if (teach) return this.teach(client, sessionId, message, teach.word, teach.meaning);
    const confirmation = state.awaitsConfirmation ? parseConfirmation(message) : null;
    if (confirmation !== null) {
      const teachings = this.confirmLast(state, confirmation);
      if (teachings !== null) return this.confirmed(client, sessionId, message, confirmation, teachings);
    }
    // A provisional teaching from a conversation applies in that conversation only, so one
    // client cannot change another's answers; trusted ones and the operator's (CLI) apply to all.
    const taught = this.store?.teachingsIn(this.id, sessionId) ?? [];
    const { message: rewritten, used } = substituteTaught(message, taught);
    return this.answer(client, sessionId, state, message, rewritten, used, options);
  }

  /** Acknowledges a tool result sent back by the client, as the NPC would. */
  toolResult(client: ClientId, sessionId: string, content: string): ServeAnswer {
    const state = this.state(client, sessionId);
    const text = this.toolAck[state.toolResults++ % this.toolAck.length]!;
    this.record(client, sessionId, content, "tool result acknowledged", null, 1, []);
    return this.control(sessionId, "tool result acknowledged", text);
  }

  /**
   * Confirms (or denies) the last answer of a session: its audit row, and the teachings it used.
   * Returns null when the session has no answer to confirm.
   */
  confirm(client: ClientId, sessionId: string, correct: boolean): Teaching[] | null {
    return this.confirmLast(this.state(client, sessionId), correct);
  }

  private confirmLast(state: SessionState, correct: boolean): Teaching[] | null {
    if (state.lastAnswer === null || !this.store) return null;
    const teachings = this.store.confirm(state.lastAnswer, correct);
    state.awaitsConfirmation = false;
    return teachings;
  }

  private state(client: ClientId, sessionId: string): SessionState {
    const state = this.sessions.get(client ?? "")?.get(sessionId);
    if (!state) throw new UnknownSessionError(sessionId);
    return state;
  }

  /** The NPC's answer to `rewritten` (the message with taught words replaced), audited under `message`. */
  private answer(client: ClientId, sessionId: string, state: SessionState, message: string, rewritten: string, used: Teaching[], options: ProcessOptions): ServeAnswer {
    const response = state.session.process(rewritten, options);
    const usedNow = response.status !== "rejected" ? used : [];
    if (usedNow.length > 0) this.askIfDestructive(response);
    state.lastAnswer = this.record(client, sessionId, message, response.status, response.intent, response.confidence, usedNow);
    state.awaitsConfirmation = usedNow.length > 0;
    const answer: ServeAnswer = { ...response, session: sessionId };
    if (used.length > 0) answer.taught = used.map((t) => ({ word: t.word, meaning: t.meaning, state: t.state }));
    return answer;
  }

  /** A taught word never makes a destructive entry run without asking (the whole answer asks). */
  private askIfDestructive(response: NpcResponse): void {
    const answers = response.parts ?? [response];
    if (!answers.some((part) => part.intent !== null && this.destructive.has(part.intent))) return;
    for (const part of [response, ...(response.parts ?? [])]) part.permission = "ask";
    response.notice = response.notice === undefined ? TAUGHT_DESTRUCTIVE_NOTICE : `${response.notice} ${TAUGHT_DESTRUCTIVE_NOTICE}`;
  }

  private teach(client: ClientId, sessionId: string, message: string, word: string, meaning: string): ServeAnswer {
    if (!this.store) return this.control(sessionId, "teaching refused", "Teaching needs the store, and this server runs without one (--no-store).");
    const checks = (this.teachChecks ??= { known: bundleConcepts(this.npc.payload), guard: teachingGuard(this.npc.payload) });
    const outcome = this.store.teachSynonym({ npc: this.id, word, meaning, source: "conversation", session: sessionId, client, ...checks });
    if (outcome.kind === "refused") {
      this.record(client, sessionId, message, "teaching refused", null, 1, []);
      return this.control(sessionId, "teaching refused", `I cannot learn that: ${outcome.message}.`);
    }
    const t = outcome.teaching;
    this.record(client, sessionId, message, "teaching recorded", null, 1, []);
    const text =
      outcome.kind === "added"
        ? `Got it: "${t.word}" means "${t.meaning}" here (for everyone once ${TRUST_AFTER} other users confirm it).`
        : outcome.counted
          ? `"${t.word}" means "${t.meaning}" was taught already; yours counts as a confirmation (${t.confirmations} of ${TRUST_AFTER}${t.state === "trusted" ? ": now trusted" : ""}).`
          : `I already know "${t.word}" means "${t.meaning}" (${t.state}).`;
    return { ...this.control(sessionId, "teaching recorded", text), teaching: teachingReport(t) };
  }

  private confirmed(client: ClientId, sessionId: string, message: string, correct: boolean, teachings: Teaching[]): ServeAnswer {
    const status = correct ? "teaching confirmed" : "teaching denied";
    this.record(client, sessionId, message, status, null, 1, []);
    const first = teachings[0];
    if (!first) return this.control(sessionId, status, correct ? "Thanks." : "Noted, that was not right.");
    const text = correct
      ? first.state === "trusted"
        ? `Thanks: "${first.word}" means "${first.meaning}" is now trusted.`
        : `Thanks: "${first.word}" means "${first.meaning}" (${first.confirmations} of ${TRUST_AFTER} confirmations from other users).`
      : `Noted: "${first.word}" did not mean "${first.meaning}" there.`;
    return { ...this.control(sessionId, status, text), teaching: teachingReport(first) };
  }

  private record(client: ClientId, session: string, input: string, status: string, intent: string | null, confidence: number, used: Teaching[]): number | null {
    if (!this.store) return null;
    return this.store.recordTurn({ npc: this.id, session, client, input, status, intent, confidence, taught: used.map((t) => t.id) });
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

/** A teaching as answers and /api/confirm report it. */
export function teachingReport(t: Teaching): NonNullable<ServeAnswer["teaching"]> {
  return { word: t.word, meaning: t.meaning, state: t.state, confirmations: t.confirmations };
}
