// An RFC 4180 CSV reader, so that a public intent benchmark's test file (`text,category`, such as
// Banking77's test.csv) can be scored as it is published. Fields are separated by commas and
// records by CRLF or LF; a field may be quoted, and then holds commas, line breaks and doubled
// quotes (`""`). Blank lines are skipped. Mistakes carry the 1-based line where they are.

export interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "CsvSyntaxError";
  }
}

/** Reads CSV text (a leading byte order mark is ignored) into records. */
export function parseCsv(text: string): CsvRecord[] {
  const reader = new CsvReader(text);
  const records: CsvRecord[] = [];
  while (!reader.done()) {
    const record = reader.record();
    if (record !== null) records.push(record);
  }
  return records;
}

class CsvReader {
  private at: number;
  private line = 1;

  constructor(private readonly text: string) {
    this.at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  done(): boolean {
    return this.at >= this.text.length;
  }

  /** The next record, or null for a blank line. */
  record(): CsvRecord | null {
    const line = this.line;
    if (this.atLineEnd()) {
      this.skipLineEnd();
      return null;
    }
    const fields: string[] = [];
    for (;;) {
      fields.push(this.text[this.at] === '"' ? this.quoted() : this.unquoted());
      if (this.text[this.at] !== ",") break;
      this.at++;
    }
    this.skipLineEnd();
    return { fields, line };
  }

  private atLineEnd(): boolean {
    const c = this.text[this.at];
    return c === undefined || c === "\n" || (c === "\r" && this.text[this.at + 1] === "\n");
  }

  private skipLineEnd(): void {
    if (this.done()) return;
    this.at += this.text[this.at] === "\r" ? 2 : 1;
    this.line++;
  }

  private unquoted(): string {
    const start = this.at;
    while (!this.atLineEnd() && this.text[this.at] !== ",") {
      if (this.text[this.at] === '"') {
        throw new CsvSyntaxError(this.line, 'a quote inside an unquoted field: quote the whole field and double its quotes ("say ""hi""")');
      }
      this.at++;
    }
    return this.text.slice(start, this.at);
  }

  private quoted(): string {
    const opened = this.line;
    let value = "";
    this.at++;
    for (;;) {
      const close = this.text.indexOf('"', this.at);
      if (close < 0) throw new CsvSyntaxError(opened, 'a quoted field opened on this line is never closed: add the closing "');
      value += this.text.slice(this.at, close);
      this.at = close + 1;
      if (this.text[this.at] !== '"') break;
      value += '"';
      this.at++;
    }
    this.line += countLineBreaks(value);
    if (!this.atLineEnd() && this.text[this.at] !== ",") {
      throw new CsvSyntaxError(this.line, "text after the closing quote of a field: quote the whole field, or none of it");
    }
    return value;
  }
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
