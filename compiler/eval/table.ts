// Plain-text tables for the eval report: columns padded to their widest cell, numbers aligned
// right, the last column left ragged so a long example does not widen every line.

export type Align = "left" | "right";

/** The lines of a table (header first), each indented by `indent`. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[], indent = "  "): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, i) => (i === cells.length - 1 && align[i] === "left" ? cell : align[i] === "right" ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [header, ...rows].map(line);
}

/** `text` cut to `max` characters, ending in "…" when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
