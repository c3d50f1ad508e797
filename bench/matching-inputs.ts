// Messages for matching measurements (bench/matching.ts, test/matching/*): an NPC's training
// inputs that the lint does not report as conflicting, and deterministic typos of them (one or two
// character edits — insert, delete, substitute, transpose — in words of five letters or more,
// drawn by fast-check from a fixed seed per message).
import fc from "fast-check";
import type { Intent } from "../compiler/ir/types.js";
import type { LintResult } from "../compiler/lint.js";
import { CODES } from "../compiler/codes.js";
import { normalizeKey } from "../runtime/text/normalize.js";

export interface Edit {
  kind: "insert" | "delete" | "substitute" | "transpose";
  word: number;
  at: number;
  letter: string;
}

const editArb: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom("insert", "delete", "substitute", "transpose"),
  word: fc.nat(),
  at: fc.nat(),
  letter: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"),
});

function applyEdit(word: string, edit: Edit): string {
  const at = edit.at % word.length;
  switch (edit.kind) {
    case "insert":
      return word.slice(0, at) + edit.letter + word.slice(at);
    case "delete":
      return word.slice(0, at) + word.slice(at + 1);
    case "substitute":
      return word.slice(0, at) + (word[at] === edit.letter ? "z" : edit.letter) + word.slice(at + 1);
    case "transpose": {
      const i = Math.min(at, word.length - 2);
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    }
  }
}

/** The input with its edits applied to words of five letters or more, or null when it has none. */
export function misspell(input: string, edits: readonly Edit[]): string | null {
  const words = input.split(" ");
  const long = words.map((w, i) => (/^[a-z]{5,}$/i.test(w) ? i : -1)).filter((i) => i >= 0);
  if (long.length === 0) return null;
  for (const edit of edits) {
    const target = long[edit.word % long.length]!;
    words[target] = applyEdit(words[target]!, edit);
  }
  return words.join(" ");
}

/** The `index`-th message's typo'd form (one or two edits, seed 9000 + index), or null. */
export function typoOf(input: string, index: number): string | null {
  const [edits] = fc.sample(fc.array(editArb, { minLength: 1, maxLength: 2 }), { seed: 9000 + index, numRuns: 1 });
  const typo = misspell(input, edits!);
  return typo === input ? null : typo;
}

/** Top-level training inputs with their intent, minus lint-reported conflicts and shared keys. */
export function unambiguousInputs(lint: LintResult): { intent: string; input: string }[] {
  const conflictCodes = new Set<string>([CODES.duplicateInput, CODES.sanitizedInput]);
  const at = (loc: { file: string; offset: number }) => `${loc.file}@${loc.offset}`;
  const excluded = new Set<string>();
  for (const d of lint.diagnostics.filter((d) => conflictCodes.has(d.code))) {
    excluded.add(at(d.loc));
    for (const r of d.related ?? []) excluded.add(at(r.loc));
  }
  const owners = new Map<string, Set<string>>();
  for (const intent of lint.ir.intents) {
    for (const input of intent.inputs) {
      const key = normalizeKey(input.value);
      owners.set(key, (owners.get(key) ?? new Set()).add(intent.id));
    }
  }
  return lint.ir.intents.flatMap((intent: Intent) =>
    intent.inputs
      .filter((input) => !excluded.has(at(input.loc)) && owners.get(normalizeKey(input.value))!.size === 1)
      .map((input) => ({ intent: intent.id, input: input.value })),
  );
}

/**
 * A deterministic typo: the two middle letters of the longest word swapped. null when no word has
 * five letters or more, or when the swap changes nothing ("committee").
 */
export function swapMiddleOfLongestWord(text: string): string | null {
  const words = text.split(" ");
  const at = words.reduce((best, w, i) => (w.length > words[best]!.length ? i : best), 0);
  const word = words[at]!;
  if (word.length < 5) return null;
  const mid = Math.floor(word.length / 2);
  words[at] = word.slice(0, mid - 1) + word[mid] + word[mid - 1] + word.slice(mid + 1);
  const typo = words.join(" ");
  return typo === text ? null : typo;
}
