// Transform pass (before the compute passes): folds trusted teachings ("zap" means "delete") into
// the IR's synonym sets, for `ndfc build --taught`. The word joins every set holding its meaning,
// or a new set `taught_<meaning>` when none does. A word that already belongs to a set without
// its meaning is skipped and reported, never merged. Deterministic: teachings are applied in
// sorted order and recorded as one source entry whose hash covers exactly what was applied.
// Two teachings are never folded, whatever their trust: a negated one, and one whose word would
// reach a destructive entry that answers without asking (at serve time such an answer asks, but
// a bundle has no notion of taught words).
import { isNegated } from "../../runtime/match/guards.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { sha256, toHex } from "../../runtime/bundle/sha256.js";
import type { Intent, NpcIR, SourceLocation, SynonymSet } from "../ir/types.js";
import { compareStrings } from "../order.js";
import { hasDestructiveTool } from "../tcs/destructive.js";
import { templateNodes } from "../ir/template-parts.js";

export interface TaughtSynonym {
  word: string;
  meaning: string;
}

export interface ApplyTaughtResult {
  ir: NpcIR;
  applied: TaughtSynonym[];
  skipped: { teaching: TaughtSynonym; reason: string }[];
}

/** The source-list path standing for the teachings (sources are hashed into the bundle). */
export const TAUGHT_SOURCE = "(taught)";
const TAUGHT_LOC: SourceLocation = { file: TAUGHT_SOURCE, line: 1, column: 1, offset: 0 };

export function applyTaught(ir: NpcIR, teachings: readonly TaughtSynonym[]): ApplyTaughtResult {
  const sorted = teachings
    .map((t) => ({ word: normalizeKey(t.word), meaning: normalizeKey(t.meaning) }))
    .filter((t) => t.word !== "" && t.meaning !== "" && t.word !== t.meaning)
    .sort((a, b) => compareStrings(a.word, b.word) || compareStrings(a.meaning, b.meaning));
  const synonyms: SynonymSet[] = ir.synonyms.map((set) => ({ ...set, words: [...set.words] }));
  const applied: TaughtSynonym[] = [];
  const skipped: ApplyTaughtResult["skipped"] = [];
  const unguarded = unguardedDestructive(ir.intents);
  for (const teaching of sorted) {
    const holds = (set: SynonymSet, text: string) => set.words.some((w) => normalizeKey(w) === text);
    const clash = synonyms.find((set) => holds(set, teaching.word) && !holds(set, teaching.meaning));
    if (clash) {
      skipped.push({ teaching, reason: `"${teaching.word}" is already a synonym in ${clash.tag} (${clash.words.join(", ")})` });
      continue;
    }
    const negated = [teaching.word, teaching.meaning].find((text) => isNegated(text));
    if (negated !== undefined) {
      skipped.push({ teaching, reason: `"${negated}" is negated; a teaching never maps a request not to do something` });
      continue;
    }
    const targets = synonyms.filter((set) => holds(set, teaching.meaning) && !holds(set, teaching.word));
    const reached = reachedIntent(unguarded, teaching.meaning, targets);
    if (reached) {
      skipped.push({
        teaching,
        reason: `"${teaching.meaning}" leads to ${reached.id}, destructive with permission ${reached.permission}; a taught word never runs a destructive command without asking`,
      });
      continue;
    }
    if (targets.length === 0 && synonyms.some((set) => holds(set, teaching.meaning))) continue; // already known
    if (targets.length === 0) {
      synonyms.push({ tag: `taught_${teaching.meaning.replace(/\W+/g, "_")}`, words: [teaching.meaning, teaching.word], loc: TAUGHT_LOC });
    }
    for (const set of targets) set.words.push(teaching.word);
    applied.push(teaching);
  }
  if (applied.length === 0) return { ir, applied, skipped };
  const hash = toHex(sha256(new TextEncoder().encode(applied.map((t) => `${t.word}\t${t.meaning}\n`).join(""))));
  const sources = [...ir.sources.filter((s) => s.path !== TAUGHT_SOURCE), { path: TAUGHT_SOURCE, sha256: hash }].sort((a, b) =>
    compareStrings(a.path, b.path),
  );
  return { ir: { ...ir, synonyms, sources }, applied, skipped };
}

/** Destructive intents (context children included) that answer without asking. */
function unguardedDestructive(intents: readonly Intent[]): Intent[] {
  return intents.flatMap((intent) => [
    ...(intent.permission !== "ask" && hasDestructiveTool(intent.tools) ? [intent] : []),
    ...unguardedDestructive(intent.context ?? []),
  ]);
}

/**
 * The first of `intents` the taught word could reach once it means `meaning` and joins `sets`:
 * an input holding the meaning or a word of those sets (as whole words) or one of their tags, or a
 * template node taking one of their tags. Errs on the side of reaching.
 */
function reachedIntent(intents: readonly Intent[], meaning: string, sets: readonly SynonymSet[]): Intent | undefined {
  const phrases = [meaning, ...sets.flatMap((set) => set.words.map(normalizeKey))].map((phrase) => ` ${phrase} `);
  const tags = new Set(sets.map((set) => set.tag));
  const inputReaches = (text: string) =>
    [...tags].some((tag) => text.includes(`<||${tag}||>`)) || phrases.some((phrase) => ` ${normalizeKey(text)} `.includes(phrase));
  return intents.find(
    (intent) => intent.inputs.some((input) => inputReaches(input.value)) || intent.paths.some((path) => templateNodes(path.nodes).some((node) => node.tags.some((tag) => tags.has(tag)))),
  );
}
