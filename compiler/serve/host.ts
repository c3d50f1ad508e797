// One served NPC: its sessions (LRU), the messages the server answers itself (teach, yes/no to a
// taught word, tool results), substitution of taught words, and one audit row per message.
import { bundleSlug } from "../emit/write-bundle.js";
import { emojiFor, type Npc, type NpcResponse, type NpcSession, type ProcessOptions, type SessionOptions } from "../../runtime/index.js";
import { emptySentiment } from "../../runtime/sanitize.js";
import { bundleConcepts } from "../store/bundle-concepts.js";
import { TRUST_AFTER, type ConceptLookup, type Store, type Teaching } from "../store/store.js";
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
  /** Taught words put in their meaning's place before the NPC answered. */
  taught?: { word: string; meaning: string; state: string }[];
  /** The teaching a teach message or a confirmation created or changed. */
  teaching?: { word: string; meaning: string; state: string; confirmations: number };
};

interface SessionState {
  session: NpcSession;
  /** Audit row of the session's last answer from the NPC (what /api/confirm confirms). */
  lastAnswer: number | null;
  /** Whether that answer used taught words (a "yes"/"no" next is then read as a confirmation). */
  awaitsConfirmation: boolean;
  toolResults: number;
}

const ANONYMOUS_SESSION = "anonymous";
const TOOL_ACK_FALLBACK = "Done.";

export class NpcHost {
  readonly id: string;
  private readonly sessions: LruMap<string, SessionState>;
  /** The bundle's concepts, for refusing conflicting teachings: built at the first teaching. */
  private concepts: ConceptLookup | undefined;
  private readonly toolAck: string[];

  constructor(
    readonly npc: Npc,
    private readonly store: Store | null,
    maxSessions: number,
    /** Options of every new session (`ndfc chat --seed/--user`); default seed 0. */
    private readonly sessionOptions: SessionOptions = { seed: 0 },
  ) {
    this.id = bundleSlug(npc.name) || "npc";
    this.sessions = new LruMap(maxSessions);
    // The NPC's own completion words, when they are plain text, acknowledge a tool result.
    const completion = npc.payload.wordLists.find(([name]) => name === "completion")?.[1] ?? [];
    const plain = completion.filter((segments) => segments.length === 1 && segments[0]!.trim() !== "").map((s) => s[0]!);
    this.toolAck = plain.length > 0 ? plain : [TOOL_ACK_FALLBACK];
  }

  /** Answers one user message of session `sessionId` (null: the anonymous session). */
  message(sessionId: string | null, message: string, options: ProcessOptions = {}): ServeAnswer {
    const key = sessionId ?? ANONYMOUS_SESSION;
    const state = this.state(key);
    const teach = parseTeachMessage(message);
    if (teach) return this.teach(key, message, teach.word, teach.meaning);
    const confirmation = state.awaitsConfirmation ? parseConfirmation(message) : null;
    if (confirmation !== null) {
      const teachings = this.confirm(key, confirmation);
      if (teachings !== null) return this.confirmed(key, message, confirmation, teachings);
    }
    // A provisional teaching from a conversation applies in that conversation only, so one
    // client cannot change another's answers; trusted ones and the operator's (CLI) apply to all.
    const taught = this.store?.teachingsIn(this.id, key) ?? [];
    const { message: rewritten, used } = substituteTaught(message, taught);
    const response = state.session.process(rewritten, options);
    const understood = response.status !== "rejected";
    const usedNow = understood ? used : [];
    const auditId = this.record(key, message, response.status, response.intent, response.confidence, usedNow);
    state.lastAnswer = auditId;
    state.awaitsConfirmation = usedNow.length > 0;
    const answer: ServeAnswer = response;
    if (used.length > 0) answer.taught = used.map((t) => ({ word: t.word, meaning: t.meaning, state: t.state }));
    return answer;
  }

  /** Acknowledges a tool result sent back by the client, as the NPC would. */
  toolResult(sessionId: string | null, content: string): ServeAnswer {
    const key = sessionId ?? ANONYMOUS_SESSION;
    const state = this.state(key);
    const text = this.toolAck[state.toolResults++ % this.toolAck.length]!;
    this.record(key, content, "tool result acknowledged", null, 1, []);
    return this.control("tool result acknowledged", text);
  }

  /**
   * Confirms (or denies) the last answer of a session: its audit row, and the teachings it used.
   * Returns null when the session has no answer to confirm.
   */
  confirm(sessionId: string | null, correct: boolean): Teaching[] | null {
    const state = this.sessions.get(sessionId ?? ANONYMOUS_SESSION);
    if (!state || state.lastAnswer === null || !this.store) return null;
    const teachings = this.store.confirm(state.lastAnswer, correct);
    state.awaitsConfirmation = false;
    return teachings;
  }

  private state(key: string): SessionState {
    return this.sessions.getOrCreate(key, () => ({
      session: this.npc.session(this.sessionOptions),
      lastAnswer: null,
      awaitsConfirmation: false,
      toolResults: 0,
    }));
  }

  private teach(key: string, message: string, word: string, meaning: string): ServeAnswer {
    if (!this.store) return this.control("teaching refused", "Teaching needs the store, and this server runs without one (--no-store).");
    const outcome = this.store.teachSynonym({ npc: this.id, word, meaning, source: "conversation", session: key, known: (this.concepts ??= bundleConcepts(this.npc.payload)) });
    if (outcome.kind === "refused") {
      this.record(key, message, "teaching refused", null, 1, []);
      return this.control("teaching refused", `I cannot learn that: ${outcome.message}.`);
    }
    const t = outcome.teaching;
    this.record(key, message, "teaching recorded", null, 1, []);
    const text =
      outcome.kind === "added"
        ? `Got it: "${t.word}" means "${t.meaning}" (provisional until you confirm it ${TRUST_AFTER} times).`
        : `I already know "${t.word}" means "${t.meaning}" (${t.state}).`;
    return { ...this.control("teaching recorded", text), teaching: teachingReport(t) };
  }

  private confirmed(key: string, message: string, correct: boolean, teachings: Teaching[]): ServeAnswer {
    const status = correct ? "teaching confirmed" : "teaching denied";
    this.record(key, message, status, null, 1, []);
    const first = teachings[0];
    if (!first) return this.control(status, correct ? "Thanks." : "Noted, that was not right.");
    const text = correct
      ? first.state === "trusted"
        ? `Thanks: "${first.word}" means "${first.meaning}" is now trusted.`
        : `Thanks: "${first.word}" means "${first.meaning}" (${first.confirmations} of ${TRUST_AFTER} confirmations).`
      : `Noted: "${first.word}" did not mean "${first.meaning}" there.`;
    return { ...this.control(status, text), teaching: teachingReport(first) };
  }

  private record(session: string, input: string, status: string, intent: string | null, confidence: number, used: Teaching[]): number | null {
    if (!this.store) return null;
    return this.store.recordTurn({ npc: this.id, session, input, status, intent, confidence, taught: used.map((t) => t.id) });
  }

  private control(status: ControlStatus, text: string): ServeAnswer {
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
    };
  }
}

/** A teaching as answers and /api/confirm report it. */
export function teachingReport(t: Teaching): NonNullable<ServeAnswer["teaching"]> {
  return { word: t.word, meaning: t.meaning, state: t.state, confirmations: t.confirmations };
}
