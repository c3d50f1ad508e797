// Reads the model's answer against what the NPC can do: valid JSON of the schema's shape (prompt.ts),
// an intent of the catalogue or "none", only that intent's slots, every required one, each value a
// piece of the user's message (a model never supplies a path or a name the user did not type) that
// its type's program accepts, as the template stage would.
import { MAX_TYPED_TOKEN } from "../../runtime/text/regex-vm.js";
import type { IntentCard } from "./catalogue.js";
import { NONE } from "./prompt.js";

export type Verdict =
  | { kind: "none" }
  | { kind: "intent"; card: IntentCard; slots: Record<string, string> }
  /** `fault` says what was wrong, for the reminder of the second try. */
  | { kind: "invalid"; fault: string };

const invalid = (fault: string): Verdict => ({ kind: "invalid", fault });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function readAnswer(content: string, cards: ReadonlyMap<string, IntentCard>, message: string): Verdict {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return invalid(`it is not JSON (${JSON.stringify(content.slice(0, 60))})`);
  }
  const answer = isRecord(parsed) ? parsed.answer : undefined;
  if (!isRecord(answer)) return invalid(`it has no "answer" object`);
  const { intent, slots = {} } = answer;
  if (typeof intent !== "string") return invalid(`"intent" is not a string`);
  if (intent === NONE) return { kind: "none" };
  const card = cards.get(intent);
  if (!card) return invalid(`"${intent.slice(0, 80)}" is not one of the actions`);
  if (!isRecord(slots)) return invalid(`"slots" is not an object`);
  const values: Record<string, string> = {};
  const lowerMessage = message.toLowerCase();
  for (const [name, value] of Object.entries(slots)) {
    const slot = card.slots.find((s) => s.name === name);
    if (!slot) return invalid(`${intent} has no slot "${name.slice(0, 40)}"`);
    if (typeof value !== "string" || value.trim() === "") return invalid(`slot "${name}" is not a non-empty string`);
    const text = value.trim();
    if (!lowerMessage.includes(text.toLowerCase())) return invalid(`slot "${name}" = ${JSON.stringify(text.slice(0, 60))} is not text of the message`);
    if (slot.matcher && (text.length > MAX_TYPED_TOKEN || !slot.matcher.test(text))) return invalid(`slot "${name}" = ${JSON.stringify(text.slice(0, 60))} is not a ${slot.type}`);
    values[name] = text;
  }
  const missing = card.slots.find((slot) => slot.required && values[slot.name] === undefined);
  if (missing) return invalid(`${intent} needs the slot "${missing.name}"`);
  return { kind: "intent", card, slots: values };
}
