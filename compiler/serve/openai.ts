// The OpenAI chat-completions mapping: reading a request, writing an answer as a
// `chat.completion` or as the `chat.completion.chunk` events of a stream.
import { randomUUID } from "node:crypto";
import type { RenderedTool } from "../../runtime/index.js";
import type { ServeAnswer } from "./host.js";
import { badRequest } from "./http-error.js";
import { toolCallParts } from "../../runtime/render/tool-call.js";

/** What a chat-completions request asks, once validated. */
export interface ChatRequest {
  model: string;
  /** The last message: the user's text, or a tool result to acknowledge. */
  last: { kind: "user" | "tool"; content: string };
  stream: boolean;
  user: string | null;
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

/** Validates a chat-completions body (already a JSON object); throws a 400 naming the field. */
export function parseChatRequest(body: Record<string, unknown>): ChatRequest {
  const { model, messages, stream, user } = body;
  if (typeof model !== "string" || model === "") throw badRequest("`model` must be a non-empty string naming a served NPC", "model");
  if (!Array.isArray(messages) || messages.length === 0) throw badRequest("`messages` must be a non-empty array", "messages");
  if (stream !== undefined && stream !== null && typeof stream !== "boolean") throw badRequest("`stream` must be a boolean", "stream");
  if (user !== undefined && user !== null && typeof user !== "string") throw badRequest("`user` must be a string", "user");
  const parsed = messages.map((message, index) => parseMessage(message, index));
  const last = parsed[parsed.length - 1]!;
  let chosen: ChatRequest["last"];
  if (last.role === "tool") {
    chosen = { kind: "tool", content: last.content };
  } else {
    const lastUser = [...parsed].reverse().find((m) => m.role === "user");
    if (!lastUser) throw badRequest("`messages` has no message with role \"user\"", "messages");
    chosen = { kind: "user", content: lastUser.content };
  }
  return { model, last: chosen, stream: stream === true, user: typeof user === "string" && user !== "" ? user : null };
}

function parseMessage(value: unknown, index: number): { role: string; content: string } {
  const param = `messages[${index}]`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest(`${param} must be an object`, param);
  const { role, content } = value as Record<string, unknown>;
  if (typeof role !== "string" || !ROLES.has(role)) throw badRequest(`${param}.role must be one of ${[...ROLES].join(", ")}`, `${param}.role`);
  return { role, content: contentText(content, `${param}.content`, role) };
}

/** A message's content: a string, an array of text parts, or null (an assistant's tool call). */
function contentText(content: unknown, param: string, role: string): string {
  if (typeof content === "string") return content;
  if ((content === null || content === undefined) && role !== "user") return "";
  if (Array.isArray(content)) {
    return content
      .map((part, i) => {
        const p = part as Record<string, unknown> | null;
        if (typeof p !== "object" || p === null || p.type !== "text" || typeof p.text !== "string") {
          throw badRequest(`${param}[${i}] must be a text part ({ "type": "text", "text": "…" })`, `${param}[${i}]`);
        }
        return p.text;
      })
      .join("\n");
  }
  throw badRequest(`${param} must be a string or an array of text parts`, param);
}

export interface OpenAiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The ndfc fields of an answer, under the `ndfc` key of the message (and of the stream's last chunk). */
function ndfcFields(answer: ServeAnswer): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    status: answer.status,
    confidence: answer.confidence,
    intent: answer.intent,
    permission: answer.permission,
    slots: answer.slots,
  };
  if (answer.captures !== undefined) fields.captures = answer.captures;
  if (answer.related.length > 0) fields.related = answer.related;
  if (answer.elicit !== undefined) fields.elicit = answer.elicit;
  if (answer.notice !== undefined) fields.notice = answer.notice;
  if (answer.taught !== undefined) fields.taught = answer.taught;
  if (answer.teaching !== undefined) fields.teaching = answer.teaching;
  if (answer.session !== undefined) fields.session = answer.session;
  if (answer.escalation !== undefined) fields.escalation = answer.escalation;
  return fields;
}

function toolCalls(tools: readonly RenderedTool[], callPrefix: string): OpenAiToolCall[] {
  return tools.map((tool, index) => {
    const { name, arguments: args, argumentsJson } = toolCallParts(tool);
    // An NDF tool without `arguments` sends its other keys, so nothing it says is lost.
    const { name: _name, arguments: _args, ...rest } = tool;
    return {
      id: `call_${callPrefix}_${index}`,
      type: "function",
      function: { name: name ?? "tool", arguments: argumentsJson ?? JSON.stringify(args ?? rest) },
    };
  });
}

function finishReason(answer: ServeAnswer): "tool_calls" | "stop" {
  return answer.tools.length > 0 ? "tool_calls" : "stop";
}

/** Rough token counts (words), so clients that read `usage` get numbers. */
function usage(prompt: string, answer: ServeAnswer) {
  const count = (text: string) => (text.match(/\S+/g) ?? []).length;
  const prompt_tokens = count(prompt);
  const completion_tokens = count(answer.response) + count(answer.thinking);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

const COMPLETION_ID_PREFIX = "chatcmpl-";

export function completionId(): string {
  return `${COMPLETION_ID_PREFIX}${randomUUID().replace(/-/g, "")}`;
}

/** The tool calls of an answer, their ids made from the completion's id. */
function completionToolCalls(answer: ServeAnswer, id: string) {
  return toolCalls(answer.tools, id.slice(COMPLETION_ID_PREFIX.length, COMPLETION_ID_PREFIX.length + 12));
}

/**
 * The text a generic client shows: the answer, and for a rejection its suggestions as a numbered
 * list (a client that ignores `message.ndfc` still sees the choices; "1" picks the first in chat).
 * An elicitation's response is already its question.
 */
export function contentOf(answer: ServeAnswer): string {
  if (answer.status !== "rejected" || answer.related.length === 0) return answer.response;
  const options = answer.related.map((r, i) => `${i + 1}. ${r.example ?? r.intent}`);
  return [answer.response, ...options].join("\n");
}

export function completionBody(model: string, prompt: string, answer: ServeAnswer, id: string, created: number) {
  const calls = completionToolCalls(answer, id);
  const message: Record<string, unknown> = { role: "assistant", content: contentOf(answer), refusal: null };
  if (answer.thinking !== "") message.reasoning_content = answer.thinking;
  if (calls.length > 0) message.tool_calls = calls;
  message.ndfc = ndfcFields(answer);
  return {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer) }],
    usage: usage(prompt, answer),
  };
}

/** The chunks of a streamed answer: role, thinking, content pieces, tool calls, finish. */
export function completionChunks(model: string, answer: ServeAnswer, id: string, created: number): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, ...extra }],
  });
  const chunks = [chunk({ role: "assistant", content: "" })];
  if (answer.thinking !== "") chunks.push(chunk({ reasoning_content: answer.thinking }));
  for (const piece of contentOf(answer).match(/\S+\s*|\s+/g) ?? []) chunks.push(chunk({ content: piece }));
  const calls = completionToolCalls(answer, id);
  if (calls.length > 0) chunks.push(chunk({ tool_calls: calls.map((call, index) => ({ index, ...call })) }));
  chunks.push(chunk({}, finishReason(answer), { ndfc: ndfcFields(answer) }));
  return chunks;
}
