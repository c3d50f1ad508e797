// Positions inside a string literal of a source file: which source offset holds the i-th character
// of the decoded value (escapes such as \" and \\ take two source characters for one), and how to
// write new text into the literal with the escaping its language needs. JSON (NDF) and Ruby (DSL).

export type LiteralLanguage = "json" | "ruby";

export interface StringLiteralMap {
  /** Length of the decoded value. */
  length: number;
  /** Source offset of the decoded character at `index`; `length` gives the closing quote's offset. */
  sourceOffset(index: number): number;
  /** `text` written as it must appear inside this literal. */
  encode(text: string): string;
}

/** Maps the literal whose opening quote is at `openOffset`; undefined when no string literal starts there. */
export function mapStringLiteral(text: string, openOffset: number, language: LiteralLanguage): StringLiteralMap | undefined {
  const quote = text[openOffset];
  if (quote !== '"' && !(language === "ruby" && quote === "'")) return undefined;
  const offsets: number[] = [];
  let pos = openOffset + 1;
  while (pos < text.length && text[pos] !== quote) {
    const width = text[pos] === "\\" ? escapeWidth(text, pos, language, quote) : { source: 1, decoded: 1 };
    for (let k = 0; k < width.decoded; k++) offsets.push(pos);
    pos += width.source;
  }
  if (pos >= text.length) return undefined;
  offsets.push(pos);
  return {
    length: offsets.length - 1,
    sourceOffset: (index) => offsets[Math.max(0, Math.min(index, offsets.length - 1))]!,
    encode: (value) => encodeFor(value, language, quote),
  };
}

function escapeWidth(text: string, pos: number, language: LiteralLanguage, quote: string): { source: number; decoded: number } {
  const next = text[pos + 1];
  if (language === "json") return next === "u" ? { source: 6, decoded: 1 } : { source: 2, decoded: 1 };
  if (quote === "'") return next === "\\" || next === "'" ? { source: 2, decoded: 1 } : { source: 1, decoded: 1 };
  if (next === "u" && text[pos + 2] === "{") {
    const close = text.indexOf("}", pos);
    const codePoints = text.slice(pos + 3, close).trim().split(/\s+/);
    const decoded = codePoints.reduce((n, hex) => n + String.fromCodePoint(parseInt(hex, 16) || 0).length, 0);
    return { source: close - pos + 1, decoded };
  }
  if (next === "u") return { source: 6, decoded: 1 };
  if (next === "x") return { source: 2 + (/^[0-9a-fA-F]{1,2}/.exec(text.slice(pos + 2, pos + 4))?.[0].length ?? 0), decoded: 1 };
  if (next !== undefined && next >= "0" && next <= "7") return { source: 1 + (/^[0-7]{1,3}/.exec(text.slice(pos + 1, pos + 4))?.[0].length ?? 1), decoded: 1 };
  return { source: 2, decoded: 1 };
}

function encodeFor(value: string, language: LiteralLanguage, quote: string): string {
  if (language === "json") return JSON.stringify(value).slice(1, -1);
  if (quote === "'") return value.replace(/[\\']/g, (c) => `\\${c}`);
  return value.replace(/[\\"#]/g, (c) => `\\${c}`);
}
