// K-fold splits of an NPC's own inputs, for measuring it without a test file (cross-validate.ts).
//
// Each top-level intent's inputs are grouped by their normalized key (the exact table's key: two
// inputs that differ only in case or punctuation are one phrasing, held out together, or the copy
// left behind would answer it exactly). The groups are ordered by an FNV-1a hash of (seed, intent
// id, key) and dealt round the folds from a start fold that also depends on the hash of (seed,
// intent id), so that folds come out about the same size. Intent ids never depend on file
// enumeration order, so neither do the folds.
//
// Not held out: intents with fewer than two phrasings (holding out the only one leaves nothing to
// learn it from: they stay in every fold's training, where they can still attract wrong answers),
// inputs that normalize to nothing, and context follow-ups, which a fresh session cannot reach.

import { hashString } from "../../runtime/text/fuzzy.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { compareStrings } from "../order.js";
import type { Intent, LocatedText, NpcIR } from "../ir/types.js";

/** One phrasing held out of a fold: every input of `intent` whose normalized key is `key`. */
export interface HeldOut {
  intent: string;
  key: string;
  /** The first of them as written, which is asked. */
  input: LocatedText;
}

export interface FoldPlan {
  folds: number;
  seed: number;
  /** Per fold, what it holds out, by intent id then hash order. */
  heldOut: HeldOut[][];
  /** What is not held out anywhere (see the header). */
  skipped: { intents: number; inputs: number; followUpInputs: number };
}

function countFollowUpInputs(intents: readonly Intent[] | undefined): number {
  return (intents ?? []).reduce((sum, i) => sum + i.inputs.length + countFollowUpInputs(i.context), 0);
}

/** The phrasings of an intent: its inputs grouped by normalized key, in written order; and how many normalize to nothing. */
function phrasings(intent: Intent): { groups: Map<string, LocatedText>; empty: number } {
  const groups = new Map<string, LocatedText>();
  let empty = 0;
  for (const input of intent.inputs) {
    const key = normalizeKey(input.value);
    if (key === "") empty++;
    else if (!groups.has(key)) groups.set(key, input);
  }
  return { groups, empty };
}

export function planFolds(ir: NpcIR, folds: number, seed: number): FoldPlan {
  if (!Number.isInteger(folds) || folds < 2) throw new RangeError(`cross-validation needs at least 2 folds, not ${folds}`);
  const heldOut: HeldOut[][] = Array.from({ length: folds }, () => []);
  const skipped = { intents: 0, inputs: 0, followUpInputs: 0 };
  const intents = [...ir.intents].sort((a, b) => compareStrings(a.id, b.id));
  for (const intent of intents) {
    skipped.followUpInputs += countFollowUpInputs(intent.context);
    const { groups, empty } = phrasings(intent);
    if (groups.size < 2) {
      if (intent.inputs.length > 0) skipped.intents++;
      skipped.inputs += intent.inputs.length;
      continue;
    }
    skipped.inputs += empty;
    const rank = (key: string) => hashString(`${seed}\u0000${intent.id}\u0000${key}`);
    const keys = [...groups.keys()].sort((a, b) => rank(a) - rank(b) || compareStrings(a, b));
    const start = hashString(`${seed}\u0000${intent.id}`) % folds;
    keys.forEach((key, i) => heldOut[(start + i) % folds]!.push({ intent: intent.id, key, input: groups.get(key)! }));
  }
  return { folds, seed, heldOut, skipped };
}

/** A copy of `ir` whose top-level intents no longer have the held-out phrasings (the rest is shared, not copied). */
export function withoutInputs(ir: NpcIR, heldOut: readonly HeldOut[]): NpcIR {
  const keysByIntent = new Map<string, Set<string>>();
  for (const { intent, key } of heldOut) {
    let keys = keysByIntent.get(intent);
    if (!keys) keysByIntent.set(intent, (keys = new Set()));
    keys.add(key);
  }
  return {
    ...ir,
    intents: ir.intents.map((intent) => {
      const keys = keysByIntent.get(intent.id);
      return keys ? { ...intent, inputs: intent.inputs.filter((input) => !keys.has(normalizeKey(input.value))) } : intent;
    }),
  };
}
