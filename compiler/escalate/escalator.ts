// The escalation of one NPC (the module `--escalate` loads): which answers go to the model (a
// rejection the NPC could have read, a guess under the confidence threshold), the call with one
// retry after an invalid answer, and the answer rendered as the NPC renders a match. One deadline
// covers both tries. Destructive intents resolved this way always ask.
import type { Npc, NpcResponse } from "../../runtime/index.js";
import { applyGuards } from "../../runtime/match/guards.js";
import { NpcModel } from "../../runtime/bundle/model.js";
import { RenderBudget, renderIntent } from "../../runtime/render/render.js";
import { turnRandom } from "../../runtime/render/rng.js";
import { systemValues } from "../../runtime/conversation/session.js";
import { UnsafeSlotValueError } from "../../runtime/render/shell-escape.js";
import { readAnswer } from "./answer.js";
import { intentCatalogue, type IntentCard } from "./catalogue.js";
import { askModel, InvalidReplyError, ModelUnavailableError, type Endpoint } from "./client.js";
import { answerSchema, promptMessages, reminder, type ChatMessage, type Hint } from "./prompt.js";
import type { EscalatedAnswer, Escalation, EscalationRequest, EscalationResult } from "./types.js";

export interface EscalationOptions extends Endpoint {
  /** Milliseconds for the whole escalation, both tries (default 3000). */
  timeoutMs: number;
  /** A guess under this confidence is escalated too (default 0.8, the audit's threshold). */
  below: number;
}

export const DEFAULT_ESCALATION_TIMEOUT_MS = 3000;
/** The matcher's candidates sent as hints (spec §6.4). */
const HINTS = 3;

export function createEscalation(npc: Npc, options: EscalationOptions): Escalation {
  return new Escalator(npc, options);
}

class Escalator implements Escalation {
  readonly model: string;
  private readonly cards: Map<string, IntentCard>;
  private readonly schema: Record<string, unknown>;
  /** The runtime's model of the bundle, for rendering; a second one, built once per NPC only with --escalate. */
  private readonly renderModel: NpcModel;

  constructor(
    private readonly npc: Npc,
    private readonly options: EscalationOptions,
  ) {
    this.model = options.model;
    const cards = intentCatalogue(npc.payload);
    this.cards = new Map(cards.map((card) => [card.id, card]));
    this.schema = answerSchema(cards);
    this.renderModel = new NpcModel(npc.payload);
  }

  /**
   * A plain rejection (not one the NPC refused on purpose: too long, an open quote, a negated
   * destructive request, an unsafe slot value, all of which carry a notice) or a low guess.
   * A composite message is left to the NPC.
   */
  wants(response: NpcResponse): boolean {
    if (response.parts !== undefined || response.notice !== undefined) return false;
    return response.status === "rejected" || (response.status === "probabilistic match" && response.confidence < this.options.below);
  }

  async resolve(request: EscalationRequest): Promise<EscalationResult> {
    try {
      return await this.ask(request);
    } catch (error) {
      // A bug here must not cost the user an answer or the audit its row.
      return { outcome: "unavailable", model: this.model, detail: `internal error: ${error instanceof Error ? error.message : String(error)}`, learnable: false };
    }
  }

  private async ask(request: EscalationRequest): Promise<EscalationResult> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const messages: ChatMessage[] = promptMessages(this.npc.name, [...this.cards.values()], request.message, hintsOf(request.response));
    let model = this.model;
    let fault = "";
    for (let attempt = 0; attempt < 2; attempt++) {
      let content: string;
      try {
        const reply = await askModel(this.options, messages, this.schema, signal);
        ({ content, model } = reply);
      } catch (error) {
        if (error instanceof ModelUnavailableError) return { outcome: "unavailable", model, detail: error.message, learnable: false };
        if (!(error instanceof InvalidReplyError)) throw error;
        fault = error.message;
        messages.push(reminder(fault));
        continue;
      }
      const verdict = readAnswer(content, this.cards, request.message);
      if (verdict.kind === "none") return { outcome: "none", model, learnable: false };
      if (verdict.kind === "intent") {
        const answer = this.render(verdict.card, verdict.slots, request);
        if (answer !== null) return { outcome: "answered", model, answer, learnable: verdict.card.slots.length === 0 && verdict.card.exactKey !== null };
        fault = `a slot value cannot sit in ${verdict.card.id}'s command`;
      } else fault = verdict.fault;
      messages.push({ role: "assistant", content: content.slice(0, 2000) }, reminder(fault));
    }
    return { outcome: "invalid", model, detail: fault, learnable: false };
  }

  /** The intent's answer as a guess would render it (destructive: ask), or null when a slot value is unsafe in its command. */
  private render(card: IntentCard, slots: Record<string, string>, request: EscalationRequest): EscalatedAnswer | null {
    const intent = this.npc.payload.intents[card.index]!;
    const system = systemValues(this.npc.payload.config, request.metadata);
    const ctx = { model: this.renderModel, intent, slots, system, random: turnRandom(request.seed, 0), budget: new RenderBudget() };
    let rendered;
    try {
      rendered = renderIntent(intent, ctx);
    } catch (error) {
      if (error instanceof UnsafeSlotValueError) return null;
      throw error;
    }
    // Guarded as a guess: permission checked, negation read; destructive always asks.
    const guarded = { status: "probabilistic match" as const, permission: intent.permission, negated: undefined as boolean | undefined };
    applyGuards(guarded, intent, request.message);
    const { sentiment, emoji } = request.response;
    const answer: EscalatedAnswer = {
      status: "escalated",
      // The model gives no score: the NPC's own (0 for a rejection) says how sure the NPC was.
      confidence: request.response.confidence,
      intent: intent.id,
      ...rendered,
      slots,
      permission: card.destructive ? "ask" : guarded.permission,
      sentiment,
      emoji,
      related: [],
      witness: [],
    };
    if (guarded.negated) answer.negated = true;
    return answer;
  }
}

/** The matcher's best candidates: a rejection's related intents, or a guess's own intent. */
function hintsOf(response: NpcResponse): Hint[] {
  if (response.status === "rejected") return response.related.slice(0, HINTS).map((r) => ({ intent: r.intent, score: r.score }));
  return response.intent !== null ? [{ intent: response.intent, score: response.confidence }] : [];
}
