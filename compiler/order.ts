// Ordering for reproducible output: the compiler sorts with this, never with localeCompare, so
// bundles, diagnostics and reports come out the same on every machine and locale.

/** Code-unit order of strings (locale-independent, so sorted output is the same on every machine). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
