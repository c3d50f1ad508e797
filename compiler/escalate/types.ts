// What a host (compiler/serve/host.ts) knows of escalation: these types only. The implementation
// (escalator.ts and what it imports) is loaded with a dynamic import when --escalate is given, so
// a server without it never loads, parses or runs any of it (test/escalate/lazy-import.test.ts).
import type { NpcResponse, SessionMetadata } from "../../runtime/index.js";

/** The API the model's server speaks: OpenAI's /v1/chat/completions, or Ollama's /api/chat. */
export type EscalationApi = "openai" | "ollama";

/** How an escalation ended: the model picked an action, said "none", never gave a valid answer, or could not be reached in time. */
export type EscalationOutcome = "answered" | "none" | "invalid" | "unavailable";

/** An answer the model resolved: the intent's answer rendered as a match would be, its status "escalated". */
export type EscalatedAnswer = Omit<NpcResponse, "status"> & { status: "escalated" };

export interface EscalationRequest {
  /** The message as the user typed it. */
  message: string;
  /** The NPC's own answer: a rejection or a low-confidence guess. */
  response: NpcResponse;
  /** The session's seed and metadata, to render the answer as the session would. */
  seed: number;
  metadata: SessionMetadata;
}

export interface EscalationResult {
  outcome: EscalationOutcome;
  /** The model that answered, as it named itself (else the one asked). */
  model: string;
  /** Set when `outcome` is "answered". */
  answer?: EscalatedAnswer;
  /** Why it did not answer (the endpoint's error, the last invalid answer's fault), for the audit and the response. */
  detail?: string;
  /** Whether a confirmed answer may be learned as a new input of its intent (no slots, an intent with an exact input). */
  learnable: boolean;
}

/** One NPC's escalation: which answers it takes over, and the call. `resolve` never rejects. */
export interface Escalation {
  readonly model: string;
  wants(response: NpcResponse): boolean;
  resolve(request: EscalationRequest): Promise<EscalationResult>;
}
