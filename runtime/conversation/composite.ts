// One response for a composite message, from its parts' responses (NDF's rules):
//   - any rejected part rejects the whole (the first rejected part's answer, with its suggestions);
//   - confidence is the minimum; permission is `ask` if any part asks, else the last part's;
//   - responses, thinking and descriptions are joined with " "; tools are concatenated in order;
//   - the status is the common status, or the parts' statuses joined with ", ";
//   - `parts` holds each part's own response.

import type { MatchStatus, NpcResponse, Sentiment } from "../response.js";

function joined(texts: readonly (string | null)[]): string {
  return texts.filter((t): t is string => t !== null && t !== "").join(" ");
}

export function combineParts(parts: NpcResponse[], sentiment: Sentiment, emoji: string): NpcResponse {
  // A part that asks (elicit) stops the whole as a rejection does: nothing runs until it is answered.
  const rejected = parts.find((p) => p.status === "rejected" || p.status === "elicit");
  const notices = parts.map((p) => p.notice).filter((n): n is string => n !== undefined);
  const statuses = [...new Set(parts.map((p) => p.status))];
  const witness = parts.flatMap((p) => p.witness);
  const common: NpcResponse = rejected
    ? { ...rejected, witness }
    : {
        status: statuses.length === 1 ? statuses[0]! : (statuses.join(", ") as `${MatchStatus}, ${string}`),
        confidence: Math.min(...parts.map((p) => p.confidence)),
        intent: parts.map((p) => p.intent).join(", "),
        response: joined(parts.map((p) => p.response)),
        thinking: joined(parts.map((p) => p.thinking)),
        tools: parts.flatMap((p) => p.tools),
        slots: Object.assign({}, ...parts.map((p) => p.slots)) as Record<string, string>,
        permission: parts.some((p) => p.permission === "ask") ? "ask" : parts[parts.length - 1]!.permission,
        sentiment,
        emoji,
        related: [],
        description: joined(parts.map((p) => p.description)) || null,
        witness,
      };
  const combined: NpcResponse = { ...common, sentiment: { ...sentiment }, emoji, parts };
  delete combined.notice;
  if (notices.length > 0) combined.notice = notices.join(" ");
  if (parts.some((p) => p.negated)) combined.negated = true;
  else delete combined.negated;
  return combined;
}
