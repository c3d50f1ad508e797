// The request to the model: a JSON Schema that admits only the NPC's actions (each intent's id,
// with its slots and their types) or "none", and the messages: a system prompt listing the same
// actions, the matcher's best candidates as hints, and the user's message. The schema is what
// structured output enforces (OpenAI `response_format: json_schema`, Ollama `format`); the
// answer is still validated (answer.ts), since not every server enforces it.
import type { IntentCard } from "./catalogue.js";

export const NONE = "none";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface Hint {
  intent: string;
  score: number;
}

type JsonSchema = Record<string, unknown>;

/** `{ "answer": { "intent": ID, "slots": {…} } }`, one alternative per intent, or `{ "answer": { "intent": "none" } }`. */
export function answerSchema(cards: readonly IntentCard[]): JsonSchema {
  const choices: JsonSchema[] = cards.map((card) => ({
    type: "object",
    properties: {
      intent: { const: card.id, description: card.description },
      slots: {
        type: "object",
        properties: Object.fromEntries(card.slots.map((slot) => [slot.name, { type: "string", description: slotDescription(slot.type) }])),
        required: card.slots.filter((slot) => slot.required).map((slot) => slot.name),
        additionalProperties: false,
      },
    },
    required: ["intent", "slots"],
    additionalProperties: false,
  }));
  choices.push({
    type: "object",
    properties: { intent: { const: NONE, description: "no action of this NPC fits the message" } },
    required: ["intent"],
    additionalProperties: false,
  });
  return { type: "object", properties: { answer: { anyOf: choices } }, required: ["answer"], additionalProperties: false };
}

function slotDescription(type: string | null): string {
  return type === null ? "words copied from the message" : `a ${type}, copied from the message`;
}

export function promptMessages(npcName: string, cards: readonly IntentCard[], message: string, hints: readonly Hint[]): ChatMessage[] {
  const actions = cards.map((card) => {
    const slots = card.slots.map((slot) => `${slot.name}${slot.required ? "" : "?"}: ${slot.type ?? "text"}`);
    return `- ${card.id}: ${card.description}${slots.length > 0 ? ` (slots ${slots.join(", ")})` : ""}`;
  });
  const lines = [
    `You choose which action of the assistant "${npcName}" a user's message asks for.`,
    `Answer with JSON only: {"answer": {"intent": ID, "slots": {NAME: VALUE}}} where ID is one of the actions below and each VALUE is copied from the message,`,
    `or {"answer": {"intent": "${NONE}"}} when no action fits. Never invent an action or a value.`,
    "Actions:",
    ...actions,
  ];
  if (hints.length > 0) {
    lines.push(`The assistant's own matcher found these closest (a hint, not an answer): ${hints.map((h) => `${h.intent} (${h.score})`).join(", ")}.`);
  }
  return [
    { role: "system", content: lines.join("\n") },
    { role: "user", content: message },
  ];
}

/** The second try after an invalid answer: what was wrong, and the rules again. */
export function reminder(fault: string): ChatMessage {
  return {
    role: "user",
    content: `That answer was not valid: ${fault}. Reply with one JSON object and nothing else: {"answer": {"intent": ID, "slots": {…}}} with ID one of the listed actions, or {"answer": {"intent": "${NONE}"}}.`,
  };
}
