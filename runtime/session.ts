// A conversation with a loaded NPC: holds the active context, sentiment counts and the turn
// number, and runs the pipeline (DESIGN §7): tokenize → sanitize → exact → template →
// probabilistic → rejection, then renders the answer. `process` never throws.

import type { BundleIntent } from "./bundle-types.js";
import { applyGuards } from "./guards.js";
import { matchExact } from "./match-exact.js";
import { matchProbabilistic, type RankedIntent } from "./match-probabilistic.js";
import { matchTemplate } from "./match-template.js";
import type { NpcModel } from "./model.js";
import { tokenize, type Token } from "./normalize.js";
import { renderSegments, renderTool, renderVariant, type RenderContext } from "./render.js";
import type { MatchStatus, NpcResponse, RelatedSuggestion, Sentiment, Witness } from "./response.js";
import { turnRandom } from "./rng.js";
import { emptySentiment, sanitize } from "./sanitize.js";
import { WordResolver } from "./word-resolver.js";
import { UnsafeSlotValueError } from "./shell-escape.js";

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
}

const DEFAULT_USERNAME = "user";
const DEFAULT_COMPUTER_NAME = "localhost";
const FALLBACK_UNKNOWN = "Sorry, I did not understand that.";
const NEGATIONS = new Set(["not", "never", "no"]);
const NEGATED_NOTICE = "This reads as a request not to do something destructive, so nothing will run.";
const UNBALANCED_QUOTE_NOTICE = 'A quote was opened and never closed: close it so the quoted text is read as one piece.';

interface Match {
  status: MatchStatus;
  intent: number;
  confidence: number;
  slots: Record<string, string>;
}

export class NpcSession {
  private activeContext: number | null = null;
  private turn = 0;
  private readonly totals: Sentiment = emptySentiment();
  private readonly seed: number;
  private readonly system: Record<string, string>;

  constructor(
    private readonly model: NpcModel,
    options: SessionOptions = {},
  ) {
    this.seed = Number.isFinite(options.seed) ? Math.trunc(options.seed!) : 0;
    const config = model.payload.config;
    const system: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.metadata ?? {})) if (typeof value === "string") system[key] = value;
    system.username ??= DEFAULT_USERNAME;
    system.computer_name ??= DEFAULT_COMPUTER_NAME;
    system.npc_name ??= config.npcName;
    system.creator ??= config.creator ?? "";
    this.system = system;
  }

  /** Id of the intent whose context children are reachable now, or null. */
  get context(): string | null {
    return this.activeContext === null ? null : this.model.payload.intents[this.activeContext]!.id;
  }

  process(message: string): NpcResponse {
    const turn = this.turn++;
    try {
      return this.answer(typeof message === "string" ? message : String(message), turn);
    } catch (error) {
      // A bug must not take the host down: answer with a rejection that says what happened.
      return this.reject([], [{ stage: "sanitize", items: [], note: `internal error: ${String(error)}` }], turn, emptySentiment());
    }
  }

  private answer(message: string, turn: number): NpcResponse {
    const limit = this.model.payload.config.maxMessageChars;
    const truncated = message.length > limit ? { limit, length: message.length } : undefined;
    const read = truncated ? message.slice(0, limit) : message;
    const { clean, tokens, unbalancedQuote } = tokenize(read);
    const sanitized = sanitize(this.model, tokens);
    addSentiment(this.totals, sanitized.counts);
    const witness: Witness[] = sanitized.items.length > 0 ? [{ stage: "sanitize", items: sanitized.items }] : [];
    const match = this.match(tokens, sanitized.kept, sanitized.content, clean, witness);
    let response: NpcResponse;
    let refusal: string | undefined;
    if (match.kind === "rejected") response = this.reject(match.related, witness, turn, this.totals);
    else {
      try {
        response = this.respond(match.match, witness, turn);
        applyGuards(response, this.model.payload.intents[match.match.intent]!, read);
      } catch (error) {
        // A slot value that cannot sit where the command puts it (e.g. `$` inside "…"): no tool runs.
        if (!(error instanceof UnsafeSlotValueError)) throw error;
        const intent = match.match.intent;
        response = this.reject([{ intent, score: match.match.confidence }], witness, turn, this.totals);
        refusal = `${error.message}; nothing will run.`;
      }
    }
    if (truncated) response.truncated = truncated;
    const notices = [match.kind === "rejected" ? match.notice : refusal, unbalancedQuote ? UNBALANCED_QUOTE_NOTICE : undefined];
    const notice = notices.filter((n) => n !== undefined).join(" ");
    if (notice !== "") response.notice = notice;
    return response;
  }

  private match(
    tokens: Token[],
    kept: Token[],
    content: Token[],
    clean: string,
    witness: Witness[],
  ): { kind: "match"; match: Match } | { kind: "rejected"; related: RankedIntent[]; notice?: string } {
    const keyOf = (list: Token[]) => list.map((t) => t.norm).join(" ");
    // The message as typed first: a dataset phrase containing a noise word ("clear") still matches.
    const typed = keyOf(tokens);
    const keys = kept.length === tokens.length ? [typed] : [typed, keyOf(kept)];
    const exact = matchExact(this.model, keys, this.activeContext);
    if (exact) {
      witness.push({
        stage: exact.status === "context match" ? "context" : "exact",
        items: tokens.map((t) => ({ word: t.text, kind: "word" as const, matched: t.norm })),
        note: exact.key,
      });
      return { kind: "match", match: { status: exact.status, intent: exact.intent, confidence: 1, slots: {} } };
    }
    const words = new WordResolver(this.model);
    for (const candidate of kept.length === tokens.length ? [kept] : [kept, tokens]) {
      const template = matchTemplate(this.model, candidate, clean, words);
      if (template) {
        witness.push({ stage: "template", items: template.items, note: `path ${template.path}` });
        const match = { status: "template match" as const, intent: template.intent, confidence: 1, slots: template.slots };
        return { kind: "match", match };
      }
    }
    const suggestions = this.model.payload.config.suggestions;
    const query = content.length > 0 ? content : kept;
    const probabilistic = matchProbabilistic(this.model, query, Math.max(suggestions, 2), words, this.activeContext);
    const negated = query.some((t) => t.kind !== "quoted" && NEGATIONS.has(t.norm));
    if (probabilistic.hit && negated && this.model.payload.intents[probabilistic.hit.intent]!.destructive) {
      // "don't delete x" resembles "delete x": a guess must never turn it into a destructive call.
      return { kind: "rejected", related: probabilistic.ranking.slice(0, suggestions), notice: NEGATED_NOTICE };
    }
    if (probabilistic.hit) {
      const { hit } = probabilistic;
      witness.push({ stage: "probabilistic", items: hit.items, note: `input ${hit.input}` });
      const confidence = Math.round(hit.score * 10000) / 10000;
      return { kind: "match", match: { status: "probabilistic match", intent: hit.intent, confidence, slots: {} } };
    }
    // Suggestions must share real evidence with the message: half the threshold at least.
    const floor = this.model.payload.config.sentenceThreshold / 2;
    return { kind: "rejected", related: probabilistic.ranking.filter((r) => r.score >= floor).slice(0, suggestions) };
  }

  private renderContext(intent: BundleIntent | null, slots: Record<string, string>, turn: number): RenderContext {
    return { model: this.model, intent, slots, system: this.system, random: turnRandom(this.seed, turn) };
  }

  private respond(match: Match, witness: Witness[], turn: number): NpcResponse {
    const intent = this.model.payload.intents[match.intent]!;
    const ctx = this.renderContext(intent, match.slots, turn);
    const response = renderVariant(intent.outputs, ctx);
    const thinking = renderVariant(intent.thinking, ctx);
    const tools = intent.tools.map((tool) => renderTool(tool, ctx) as Record<string, unknown>);
    const description = intent.description ? renderSegments(intent.description, ctx) : null;
    if (intent.context !== null) this.activeContext = intent.context.length > 0 ? match.intent : null;
    return {
      status: match.status,
      confidence: match.confidence,
      intent: intent.id,
      response,
      thinking,
      tools,
      slots: match.slots,
      permission: intent.permission, // then applyGuards (guards.ts)
      sentiment: { ...this.totals },
      emoji: emojiFor(this.totals),
      related: [],
      description,
      witness,
    };
  }

  private reject(ranking: Pick<RankedIntent, "intent" | "score">[], witness: Witness[], turn: number, sentiment: Sentiment): NpcResponse {
    const ctx = this.renderContext(null, {}, turn);
    const related: RelatedSuggestion[] = ranking.map(({ intent, score }) => {
      const target = this.model.payload.intents[intent]!;
      return { intent: target.id, category: target.category, example: target.example, score: Math.round(score * 10000) / 10000 };
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

function addSentiment(total: Sentiment, add: Sentiment): void {
  total.expletives += add.expletives;
  total.interjections += add.interjections;
  total.thanking += add.thanking;
  total.encouraging += add.encouraging;
  total.discouraging += add.discouraging;
}

/** A face for the session's mood so far (a fixed ladder over the counts). */
export function emojiFor(s: Sentiment): string {
  if (s.expletives > 0 && s.expletives >= s.encouraging + s.thanking) return "😠";
  if (s.discouraging > s.encouraging + s.thanking) return "😞";
  if (s.thanking > 0 && s.thanking >= s.encouraging) return "🤗";
  if (s.encouraging > 0) return "😊";
  if (s.interjections > 0) return "🤔";
  return "🙂";
}


