// Decoding literal tokens (strings, symbols, regexes, numbers) into values.

export interface DecodedString {
  value: string;
  /**
   * Source offset of each UTF-16 unit of `value`, when escapes make it differ from
   * `start + 1 + index`; absent for the common string without escapes (no per-character garbage).
   */
  offsets?: number[];
  /** Problems found, each at a source offset. */
  problems: { offset: number; length: number; message: string }[];
}

const DOUBLE_QUOTED_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  s: " ",
  e: "\u001b",
  a: "\u0007",
  b: "\b",
  f: "\f",
  v: "\v",
};

/**
 * Decodes a quoted string token image starting at source offset `start`. Double quotes follow
 * Ruby's escapes; single quotes only know `\\` and `\'`. Interpolation `#{…}` is refused: slot
 * values go in as `<||slot||>` and are filled (and escaped) by the runtime.
 */
export function decodeString(image: string, start: number): DecodedString {
  const quote = image[0]!;
  const closed = image.length >= 2 && image.endsWith(quote) && !endsWithEscape(image);
  const body = image.slice(1, closed ? -1 : undefined);
  if (!body.includes("\\") && (quote === "'" || !body.includes("#{"))) return { value: body, problems: [] };
  const offsets: number[] = [];
  const out: DecodedString = { value: "", offsets, problems: [] };
  const push = (text: string, offset: number): void => {
    out.value += text;
    for (let k = 0; k < text.length; k++) offsets.push(offset);
  };
  for (let i = 0; i < body.length; ) {
    const offset = start + 1 + i;
    const c = body[i]!;
    if (c === "#" && quote === '"' && body[i + 1] === "{") {
      out.problems.push({ offset, length: 2, message: "string interpolation `#{…}` is not supported: write the slot as <||name||>, or escape it as \\#{" });
      push(c, offset);
      i++;
      continue;
    }
    if (c !== "\\" || i + 1 >= body.length) {
      push(c, offset);
      i++;
      continue;
    }
    const next = body[i + 1]!;
    if (quote === "'") {
      push(next === "\\" || next === "'" ? next : c + next, offset);
      i += 2;
      continue;
    }
    const unicode = decodeUnicodeEscape(body, i);
    if (unicode !== undefined) {
      if (unicode.text === undefined) out.problems.push({ offset, length: unicode.length, message: "invalid \\u escape: expected \\uXXXX or \\u{X…}" });
      else push(unicode.text, offset);
      i += unicode.length;
      continue;
    }
    if (next === "x") {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 2));
      if (hex === null) out.problems.push({ offset, length: 2, message: "invalid \\x escape: expected one or two hex digits" });
      else push(String.fromCharCode(parseInt(hex[0], 16)), offset);
      i += 2 + (hex?.[0].length ?? 0);
      continue;
    }
    push(DOUBLE_QUOTED_ESCAPES[next] ?? next, offset);
    i += 2;
  }
  return out;
}

function endsWithEscape(image: string): boolean {
  let backslashes = 0;
  for (let i = image.length - 2; i >= 1 && image[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

function decodeUnicodeEscape(body: string, i: number): { text?: string; length: number } | undefined {
  if (body[i + 1] !== "u") return undefined;
  const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(body.slice(i + 2));
  if (braced !== null) {
    const code = parseInt(braced[1]!, 16);
    return code <= 0x10ffff ? { text: String.fromCodePoint(code), length: 2 + braced[0].length } : { length: 2 + braced[0].length };
  }
  const four = /^[0-9a-fA-F]{4}/.exec(body.slice(i + 2));
  if (four !== null) return { text: String.fromCharCode(parseInt(four[0], 16)), length: 6 };
  return { length: 2 };
}

/** `:name` or `:"quoted name"` → the name. */
export function decodeSymbol(image: string, start: number): DecodedString {
  if (image[1] === '"') return decodeString(image.slice(1), start + 1);
  return { value: image.slice(1), problems: [] };
}

export interface DecodedRegex {
  source: string;
  flags: string;
}

/** `/body/flags` or `%r{body}flags` → body and flags (an unterminated one runs to its end and has no flags). */
export function decodeRegex(image: string, unterminated: boolean): DecodedRegex {
  const bodyStart = image.startsWith("%r") ? 3 : 1;
  if (unterminated) return { source: image.slice(bodyStart), flags: "" };
  const flags = /[a-z]*$/.exec(image)![0];
  return { source: image.slice(bodyStart, image.length - flags.length - 1), flags };
}

export function decodeNumber(image: string): number {
  return Number(image.replaceAll("_", ""));
}
