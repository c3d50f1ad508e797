// Safety guards applied to every answer that carries an intent, after it is rendered:
//   - a permission that is missing or unknown is `ask`;
//   - a destructive intent reached by a guess (probabilistic match) is `ask`;
//   - a negated request ("don't delete x", "do not remove y", "never …") never comes back as a
//     runnable destructive call: its permission is `ask` and the response says `negated: true`.
// Negation is detected on the message's words, wherever they sit: a false alarm only makes the
// NPC ask first, while a missed "don't" could delete what the user wanted kept.
import type { MatchStatus, Permission } from "./response.js";

export interface GuardedAnswer {
  status: MatchStatus;
  permission: Permission;
  negated?: boolean;
}

export interface GuardedIntent {
  permission: Permission | undefined;
  destructive: boolean;
}

const PERMISSIONS: ReadonlySet<string> = new Set(["ask", "yolo", "auto"]);

// Apostrophes as typed: ' ‘ ’ ʼ. Matched in place (no rewriting of the message first): every
// answer of a destructive entry asks this.
const NEGATION = /(?:^|[^\p{L}'\u2018\u2019\u02bc])(?:don['\u2018\u2019\u02bc]?t|doesn['\u2018\u2019\u02bc]?t|do\s+not|does\s+not|never|not|no|cannot|can['\u2018\u2019\u02bc]?t|won['\u2018\u2019\u02bc]?t|shouldn['\u2018\u2019\u02bc]?t|mustn['\u2018\u2019\u02bc]?t|avoid)(?![\p{L}'\u2018\u2019\u02bc])/u;

/** Whether the message negates what it asks ("don't delete x"). */
export function isNegated(message: string): boolean {
  return NEGATION.test(message.toLowerCase());
}

/** Applies the guards to `answer` in place. */
export function applyGuards(answer: GuardedAnswer, intent: GuardedIntent, message: string): void {
  let permission: Permission = intent.permission !== undefined && PERMISSIONS.has(intent.permission) ? intent.permission : "ask";
  if (intent.destructive && answer.status === "probabilistic match") permission = "ask";
  if (intent.destructive && isNegated(message)) {
    permission = "ask";
    answer.negated = true;
  }
  answer.permission = permission;
}
