// Diagnostics: what every check pass reports, and the collector passes report into.
import { closest, distance } from "fastest-levenshtein";
import type { SourceLocation } from "./ir/types.js";
import { compareStrings } from "./order.js";

const SEVERITIES = ["error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A diagnostic code's entry in the lint catalogue (SARIF rules, documentation). */
export interface CodeInfo {
  code: string;
  severity: Severity;
  title: string;
}

/** One area's codes as its codes.json writes each of them once: the name its reporters use → the entry. */
type CodeRows = Record<string, { code: string; severity: string; title: string }>;

/**
 * An area's codes (names → codes, for `bag.error(CODES.schema, …)`) and its part of the catalogue,
 * both from its table. A severity the table misspells stops the compiler at load (a test loads it).
 */
export function codeArea<T extends CodeRows>(table: T): { codes: { readonly [K in keyof T]: string }; catalogue: CodeInfo[] } {
  const rows = Object.entries(table);
  const catalogue = rows.map(([name, { code, severity, title }]) => {
    const known = SEVERITIES.find((s) => s === severity);
    if (!known) throw new Error(`${code} (${name}): severity "${severity}" is not one of ${SEVERITIES.join(", ")}`);
    return { code, severity: known, title };
  });
  const codes = Object.fromEntries(rows.map(([name, { code }]) => [name, code])) as { readonly [K in keyof T]: string };
  return { codes, catalogue };
}

export interface RelatedLocation {
  message: string;
  loc: SourceLocation;
}

/** A mechanical source edit: replace [offset, endOffset) of `file` with `text`. */
export interface FixEdit {
  file: string;
  offset: number;
  endOffset: number;
  text: string;
}

export interface Diagnostic {
  /** Stable code, e.g. `NDF001`; documented in the lint catalogue. */
  code: string;
  severity: Severity;
  message: string;
  loc: SourceLocation;
  related?: RelatedLocation[];
  fix?: FixEdit[];
}

/** Collects diagnostics from loaders and passes; order of reports does not matter (sorted on read). */
export class DiagnosticBag {
  private readonly items: Diagnostic[] = [];

  report(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  error(code: string, message: string, loc: SourceLocation, related?: RelatedLocation[]): void {
    this.report({ code, severity: "error", message, loc, ...(related ? { related } : {}) });
  }

  warning(code: string, message: string, loc: SourceLocation, related?: RelatedLocation[]): void {
    this.report({ code, severity: "warning", message, loc, ...(related ? { related } : {}) });
  }

  info(code: string, message: string, loc: SourceLocation, related?: RelatedLocation[]): void {
    this.report({ code, severity: "info", message, loc, ...(related ? { related } : {}) });
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /** Diagnostics in a deterministic order: file, line, column, code, message. */
  sorted(): Diagnostic[] {
    return [...this.items].sort(compareDiagnostics);
  }
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.loc.file, b.loc.file) ||
    a.loc.line - b.loc.line ||
    a.loc.column - b.loc.column ||
    compareStrings(a.code, b.code) ||
    compareStrings(a.message, b.message)
  );
}

/** A location for a whole file (line 1, column 1), used when nothing more precise exists. */
export function fileStart(file: string): SourceLocation {
  return { file, line: 1, column: 1, offset: 0 };
}

/** For a "did you mean" hint: the candidate closest to `name`, when it differs by 1 to `maxEdits` edits. */
export function nearMiss(name: string, candidates: readonly string[], maxEdits = 2): string | undefined {
  if (candidates.length === 0) return undefined;
  const guess = closest(name, [...candidates]);
  const edits = distance(name, guess);
  return edits > 0 && edits <= maxEdits ? guess : undefined;
}
