// Printing diagnostics: human text with the source line and a caret, JSON, and SARIF 2.1.0.
import { relative } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { CATALOGUE } from "../codes.js";
import { LineMap } from "../sources/location.js";
import { COMPILER_VERSION } from "../version.js";

export type DiagnosticFormat = "text" | "json" | "sarif";

export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" ? file : rel;
}

const COLORS = { error: "\x1b[31m", warning: "\x1b[33m", info: "\x1b[36m", reset: "\x1b[0m", dim: "\x1b[2m" };

export function formatText(diagnostics: Diagnostic[], texts: Map<string, string>, cwd: string, color: boolean): string {
  const paint = (code: keyof typeof COLORS, text: string) => (color ? `${COLORS[code]}${text}${COLORS.reset}` : text);
  // One line index per file: splitting a big file for each of its diagnostics was quadratic.
  const maps = new Map<string, LineMap>();
  const mapOf = (file: string): LineMap | undefined => {
    const text = texts.get(file);
    if (text === undefined) return undefined;
    let map = maps.get(file);
    if (!map) maps.set(file, (map = new LineMap(file, text)));
    return map;
  };
  return diagnostics
    .map((d) => {
      const where = `${displayPath(d.loc.file, cwd)}:${d.loc.line}:${d.loc.column}`;
      const head = `${where}: ${paint(d.severity, d.severity)} ${d.code}: ${d.message}`;
      const lines = [head, ...sourceExcerpt(mapOf(d.loc.file), d.loc.line, d.loc.column)];
      for (const related of d.related ?? []) {
        lines.push(paint("dim", `  ${displayPath(related.loc.file, cwd)}:${related.loc.line}:${related.loc.column}: ${related.message}`));
      }
      return lines.join("\n") + "\n";
    })
    .join("");
}

function sourceExcerpt(map: LineMap | undefined, line: number, column: number): string[] {
  const source = map?.lineText(line);
  if (source === undefined) return [];
  const shown = source.replace(/\r$/, "").replace(/\t/g, " ");
  if (shown.length > 200) return [];
  return [`  ${shown}`, `  ${" ".repeat(Math.max(0, column - 1))}^`];
}

export function summaryLine(diagnostics: Diagnostic[]): string {
  const count = (severity: string) => diagnostics.filter((d) => d.severity === severity).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}, ${plural(count("info"), "note")}`;
}

export function formatJson(diagnostics: Diagnostic[], cwd: string): string {
  const rows = diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    file: displayPath(d.loc.file, cwd),
    line: d.loc.line,
    column: d.loc.column,
    message: d.message,
    ...(d.related ? { related: d.related.map((r) => ({ message: r.message, file: displayPath(r.loc.file, cwd), line: r.loc.line, column: r.loc.column })) } : {}),
  }));
  return JSON.stringify(rows, null, 2) + "\n";
}

const SARIF_LEVEL = { error: "error", warning: "warning", info: "note" } as const;

export function formatSarif(diagnostics: Diagnostic[], cwd: string): string {
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "ndfc",
            version: COMPILER_VERSION,
            rules: CATALOGUE.map((c) => ({
              id: c.code,
              shortDescription: { text: c.title },
              defaultConfiguration: { level: SARIF_LEVEL[c.severity] },
            })),
          },
        },
        results: diagnostics.map((d) => ({
          ruleId: d.code,
          level: SARIF_LEVEL[d.severity],
          message: { text: d.message },
          locations: [physicalLocation(d.loc.file, d.loc.line, d.loc.column, cwd)],
          ...(d.related ? { relatedLocations: d.related.map((r, i) => ({ id: i, message: { text: r.message }, ...physicalLocation(r.loc.file, r.loc.line, r.loc.column, cwd) })) } : {}),
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + "\n";
}

function physicalLocation(file: string, line: number, column: number, cwd: string) {
  return { physicalLocation: { artifactLocation: { uri: displayPath(file, cwd).split("\\").join("/") }, region: { startLine: line, startColumn: column } } };
}
