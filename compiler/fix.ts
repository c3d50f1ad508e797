// Applying the mechanical fixes diagnostics carry (`ndfc lint --fix`). A diagnostic's edits are
// applied all together or not at all; edits that overlap (or insert at the same point as) an edit
// already taken are left for the next round, after a re-lint. Each file is rewritten atomically and
// only if it still holds the text the linter read; bytes outside the edits are kept as they were.
import { readFileSync } from "node:fs";
import type { Diagnostic, FixEdit } from "./diagnostics.js";
import { writeFileAtomic } from "./write-atomic.js";
import { compareStrings } from "./order.js";

export interface FixResult {
  /** Diagnostics whose fix was applied. */
  applied: number;
  /** Diagnostics with a fix that conflicted with another one this round. */
  deferred: number;
  /** Files rewritten, sorted. */
  files: string[];
  /** Files left alone because they changed since they were linted. */
  changedOnDisk: string[];
}

/**
 * Applies the fixes of `diagnostics`. `linted` maps each file to the text the diagnostics were
 * computed from; a file whose current content differs is not touched.
 */
export function applyFixes(diagnostics: readonly Diagnostic[], linted: ReadonlyMap<string, string>): FixResult {
  const byFile = new Map<string, FixEdit[][]>();
  for (const diagnostic of diagnostics) {
    const edits = diagnostic.fix;
    if (!edits || edits.length === 0) continue;
    const files = new Set(edits.map((e) => e.file));
    if (files.size !== 1) continue; // one file per fix keeps each rewrite atomic
    const file = edits[0]!.file;
    byFile.set(file, [...(byFile.get(file) ?? []), edits]);
  }
  const result: FixResult = { applied: 0, deferred: 0, files: [], changedOnDisk: [] };
  for (const [file, fixes] of [...byFile].sort(([a], [b]) => compareStrings(a, b))) {
    const current = readFileSync(file, "utf8");
    if (linted.has(file) && linted.get(file) !== current) {
      result.changedOnDisk.push(file);
      continue;
    }
    const { taken, applied, deferred } = selectCompatible(fixes);
    result.applied += applied;
    result.deferred += deferred;
    const updated = applyEdits(current, taken);
    if (updated !== current) {
      writeFileAtomic(file, updated);
      result.files.push(file);
    }
  }
  return result;
}

/** Greedy, in source order: a fix is taken when none of its edits conflicts with an edit taken before. */
function selectCompatible(fixes: FixEdit[][]): { taken: FixEdit[]; applied: number; deferred: number } {
  const ordered = [...fixes].sort((a, b) => firstOffset(a) - firstOffset(b));
  const taken: FixEdit[] = [];
  let applied = 0;
  let deferred = 0;
  for (const fix of ordered) {
    const fresh = fix.filter((edit) => !taken.some((t) => sameEdit(t, edit)));
    if (fresh.some((edit) => taken.some((t) => conflicts(t, edit)) || fresh.some((other) => other !== edit && conflicts(other, edit)))) {
      deferred++;
      continue;
    }
    taken.push(...fresh);
    applied++;
  }
  return { taken, applied, deferred };
}

function firstOffset(fix: FixEdit[]): number {
  return Math.min(...fix.map((e) => e.offset));
}

function sameEdit(a: FixEdit, b: FixEdit): boolean {
  return a.offset === b.offset && a.endOffset === b.endOffset && a.text === b.text;
}

/** Overlapping ranges, or a point insertion touching another edit (their order would be a guess). */
function conflicts(a: FixEdit, b: FixEdit): boolean {
  if (a.offset < b.endOffset && b.offset < a.endOffset) return true;
  const touching = a.endOffset === b.offset || b.endOffset === a.offset;
  return touching && (a.offset === a.endOffset || b.offset === b.endOffset);
}

/** Applies non-conflicting edits, from the end of the text backwards so earlier offsets stay valid. */
export function applyEdits(text: string, edits: readonly FixEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) {
    out = out.slice(0, edit.offset) + edit.text + out.slice(edit.endOffset);
  }
  return out;
}

export interface FixRunResult {
  applied: number;
  rounds: number;
  files: string[];
  changedOnDisk: string[];
}

/**
 * Lints, applies the fixes, and lints again until no fix applies (fixes deferred by a conflict
 * get their turn on the re-linted text), so one `--fix` run leaves nothing for the next one.
 * `final` is the last lint when it found nothing left to apply: it already describes the files
 * as they now are, so callers need not lint them again.
 */
export function fixUntilStable<R extends { diagnostics: readonly Diagnostic[]; texts: ReadonlyMap<string, string> }>(
  lint: () => R,
  maxRounds = 8,
): FixRunResult & { final?: R } {
  const files = new Set<string>();
  const changedOnDisk = new Set<string>();
  let applied = 0;
  let rounds = 0;
  let final: R | undefined;
  while (rounds < maxRounds) {
    const linted = lint();
    const result = applyFixes(linted.diagnostics, linted.texts);
    rounds++;
    result.files.forEach((file) => files.add(file));
    result.changedOnDisk.forEach((file) => changedOnDisk.add(file));
    applied += result.applied;
    if (result.files.length === 0) {
      final = linted;
      break;
    }
  }
  return { applied, rounds, files: [...files].sort(), changedOnDisk: [...changedOnDisk].sort(), ...(final ? { final } : {}) };
}
