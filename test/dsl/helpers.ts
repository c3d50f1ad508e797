// Shared helpers of the DSL tests.
import { DiagnosticBag, type Diagnostic } from "../../compiler/diagnostics.js";
import type { IrFragment, SourceLocation } from "../../compiler/ir/types.js";
import { lowerDslFile } from "../../compiler/sources/dsl/index.js";

export interface Lowered {
  fragment: IrFragment;
  diagnostics: Diagnostic[];
}

export function lower(text: string, file = "test.rules"): Lowered {
  const bag = new DiagnosticBag();
  const fragment = lowerDslFile(file, text, bag);
  return { fragment, diagnostics: bag.sorted() };
}

/** `line:col CODE` of every diagnostic, in order. */
export function positions(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.loc.line}:${d.loc.column} ${d.code}`);
}

/** A value with every `loc` / `commandLoc` / `keyLocs` removed, to compare shapes only. */
export function withoutLocations<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "loc" || key === "commandLoc" || key === "keyLocs" ? undefined : v))) as T;
}

/** The text at a location (from its offset to its end offset). */
export function textAt(text: string, loc: SourceLocation): string {
  return text.slice(loc.offset, loc.endOffset ?? loc.offset + 1);
}
