// Transform pass (before the compute passes, after applyTaught): folds trusted learned inputs
// (a message the escalation model resolved and users confirmed, compiler/escalate/) into the
// IR as new inputs of their intents, for `ndfc build --taught`. Skipped and reported: an intent
// the NPC no longer has, a negated message, one another intent already lists (the exact table
// would hold it twice), and one of a destructive intent that answers without asking (an
// escalated answer always asked; an exact input would not). Deterministic: applied in sorted
// order, recorded as one source entry whose hash covers exactly what was applied.
import { isNegated } from "../../runtime/match/guards.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { sha256, toHex } from "../../runtime/bundle/sha256.js";
import { compareStrings } from "../order.js";
import type { Intent, NpcIR, SourceLocation } from "../ir/types.js";
import { hasDestructiveTool } from "../tcs/destructive.js";

export interface LearnedInput {
  /** The message, normalized. */
  input: string;
  /** The id of a top-level intent. */
  intent: string;
}

export interface ApplyLearnedResult {
  ir: NpcIR;
  applied: LearnedInput[];
  skipped: { lesson: LearnedInput; reason: string }[];
}

export const LEARNED_SOURCE = "(learned)";
const LEARNED_LOC: SourceLocation = { file: LEARNED_SOURCE, line: 1, column: 1, offset: 0 };

export function applyLearned(ir: NpcIR, lessons: readonly LearnedInput[]): ApplyLearnedResult {
  const sorted = lessons
    .map((l) => ({ input: normalizeKey(l.input), intent: l.intent }))
    .filter((l) => l.input !== "")
    .sort((a, b) => compareStrings(a.input, b.input) || compareStrings(a.intent, b.intent));
  const owner = new Map<string, string>();
  for (const intent of ir.intents) for (const input of intent.inputs) if (!owner.has(normalizeKey(input.value))) owner.set(normalizeKey(input.value), intent.id);
  const added = new Map<string, string[]>();
  const applied: LearnedInput[] = [];
  const skipped: ApplyLearnedResult["skipped"] = [];
  const byId = new Map(ir.intents.map((intent) => [intent.id, intent]));
  for (const lesson of sorted) {
    const intent = byId.get(lesson.intent);
    const reason = !intent
      ? `${lesson.intent} is not an intent of this NPC (any more)`
      : isNegated(lesson.input)
        ? `"${lesson.input}" is negated; a lesson never maps a request not to do something`
        : owner.has(lesson.input)
          ? `"${lesson.input}" is already an input of ${owner.get(lesson.input)}`
          : unguarded(intent)
            ? `${intent.id} is destructive with permission ${intent.permission}; a learned input never runs a destructive command without asking`
            : null;
    if (reason !== null) {
      skipped.push({ lesson, reason });
      continue;
    }
    owner.set(lesson.input, lesson.intent);
    added.set(lesson.intent, [...(added.get(lesson.intent) ?? []), lesson.input]);
    applied.push(lesson);
  }
  if (applied.length === 0) return { ir, applied, skipped };
  const intents = ir.intents.map((intent) => {
    const inputs = added.get(intent.id);
    return inputs ? { ...intent, inputs: [...intent.inputs, ...inputs.map((value) => ({ value, loc: LEARNED_LOC }))] } : intent;
  });
  const hash = toHex(sha256(new TextEncoder().encode(applied.map((l) => `${l.input}\t${l.intent}\n`).join(""))));
  const sources = [...ir.sources.filter((s) => s.path !== LEARNED_SOURCE), { path: LEARNED_SOURCE, sha256: hash }].sort((a, b) => compareStrings(a.path, b.path));
  return { ir: { ...ir, intents, sources }, applied, skipped };
}

function unguarded(intent: Intent | undefined): boolean {
  return intent !== undefined && intent.permission !== "ask" && hasDestructiveTool(intent.tools);
}
