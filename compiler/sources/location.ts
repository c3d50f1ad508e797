// Source locations: positions inside a file's text, and of DSL tokens.
import type { IToken } from "./dsl/chevrotain.js";
import type { SourceLocation } from "../ir/types.js";

/** Line starts of a text, for turning offsets into 1-based line and column. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(readonly file: string, readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1); // indexOf: a native scan
  }

  at(offset: number, endOffset?: number): SourceLocation {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    const line = low + 1;
    const column = offset - this.starts[low]! + 1;
    // One literal per shape: a property added after creation would cost every location (the most
    // numerous objects of a big file's AST and IR) a separate property store.
    return endOffset === undefined ? { file: this.file, line, column, offset } : { file: this.file, line, column, offset, endOffset };
  }

  /** The location of a token, spanning its image. */
  ofToken(token: IToken): SourceLocation {
    return this.at(token.startOffset, token.startOffset + token.image.length);
  }

  /** The text of 1-based line `line` without its line break, or undefined past the last line. */
  lineText(line: number): string | undefined {
    const start = this.starts[line - 1];
    if (start === undefined) return undefined;
    const next = this.starts[line];
    return this.text.slice(start, next === undefined ? this.text.length : next - 1);
  }

  /** The location just past the end of the text (where an unexpected end of file is reported). */
  end(): SourceLocation {
    return this.at(this.text.length, this.text.length);
  }
}

/** The line map of the text last asked about (callers ask many positions of one file in a row). */
let lastMap: LineMap | undefined;

/** 1-based line and column of a 0-based offset into `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  if (lastMap?.text !== text) lastMap = new LineMap("", text);
  const { line, column } = lastMap.at(offset);
  return { line, column };
}
