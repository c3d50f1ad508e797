// One chat call to a local model with Node's fetch: an OpenAI-compatible /v1/chat/completions
// (llama.cpp server, vLLM, LM Studio, LocalAI, …) or Ollama's /api/chat, asking for structured
// output with the given JSON Schema. Every failure to get an answer (refused connection, DNS,
// a non-2xx status, the deadline) is a ModelUnavailableError; an envelope without a message is an
// InvalidReplyError (the model answered, badly: worth the second try).
import type { ChatMessage } from "./prompt.js";
import type { EscalationApi } from "./types.js";

export interface Endpoint {
  /** The server's base URL (http://127.0.0.1:11434), or the full chat URL. */
  url: string;
  api: EscalationApi;
  model: string;
}

export interface ModelReply {
  content: string;
  /** The model as the server named it, else the one asked. */
  model: string;
}

export class ModelUnavailableError extends Error {}
export class InvalidReplyError extends Error {}

/** Largest reply body read: an answer is a small JSON object. */
const MAX_REPLY_BYTES = 256 * 1024;

/** The chat URL of an endpoint: the path of its API appended, unless the URL already names it. */
export function chatUrl(url: string, api: EscalationApi): string {
  const base = url.replace(/\/+$/, "");
  if (api === "ollama") return base.endsWith("/api/chat") ? base : `${base}/api/chat`;
  if (base.endsWith("/chat/completions")) return base;
  return base.endsWith("/v1") ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

function requestBody(endpoint: Endpoint, messages: readonly ChatMessage[], schema: Record<string, unknown>): Record<string, unknown> {
  if (endpoint.api === "ollama") return { model: endpoint.model, messages, format: schema, stream: false, options: { temperature: 0 } };
  return {
    model: endpoint.model,
    messages,
    temperature: 0,
    stream: false,
    response_format: { type: "json_schema", json_schema: { name: "ndfc_action", schema } },
  };
}

/** The reply's message text and model, from either API's envelope. */
function readReply(endpoint: Endpoint, body: unknown): ModelReply {
  const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});
  const envelope = record(body);
  const message = endpoint.api === "ollama" ? record(envelope.message) : record(record((envelope.choices as unknown[] | undefined)?.[0]).message);
  if (typeof message.content !== "string") throw new InvalidReplyError(`the ${endpoint.api} reply holds no message content`);
  return { content: message.content, model: typeof envelope.model === "string" && envelope.model !== "" ? envelope.model : endpoint.model };
}

export async function askModel(endpoint: Endpoint, messages: readonly ChatMessage[], schema: Record<string, unknown>, signal: AbortSignal): Promise<ModelReply> {
  const url = chatUrl(endpoint.url, endpoint.api);
  let text: string;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(requestBody(endpoint, messages, schema)),
      signal,
      redirect: "error",
    });
    text = await response.text();
    if (!response.ok) throw new ModelUnavailableError(`${url} answered HTTP ${response.status}: ${text.slice(0, 200).trim()}`);
  } catch (error) {
    if (error instanceof ModelUnavailableError) throw error;
    throw new ModelUnavailableError(signal.aborted ? `no answer from ${url} in time` : `cannot reach ${url}: ${causeOf(error)}`);
  }
  if (text.length > MAX_REPLY_BYTES) throw new InvalidReplyError(`the reply is over ${MAX_REPLY_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidReplyError(`the ${endpoint.api} reply is not JSON`);
  }
  return readReply(endpoint, body);
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED, ENOTFOUND) in `cause`. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
