// CSV cases (compiler/eval/csv.ts, cases.ts): RFC 4180 quoting, line numbers that count the line
// breaks inside quoted fields, errors that say file:line, and a public benchmark's test file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalCasesError, parseCases } from "../../compiler/eval/cases.js";
import { parseCsv } from "../../compiler/eval/csv.js";
import { sharedCorpusDir } from "../support/corpus.js";

/** RFC 4180 writing: a field with a comma, quote or line break is quoted, its quotes doubled. */
function writeCsv(rows: readonly string[][], lineEnd: string): string {
  const field = (f: string) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
  return rows.map((row) => row.map(field).join(",") + lineEnd).join("");
}

describe("parseCsv", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks; CRLF or LF; skips blank lines and a BOM", () => {
    const text = '\uFEFFtext,category\r\n"a, b",x\r\n"say ""hi""",y\r\n\r\n"two\nlines",z\nplain,w';
    expect(parseCsv(text)).toEqual([
      { fields: ["text", "category"], line: 1 },
      { fields: ["a, b", "x"], line: 2 },
      { fields: ['say "hi"', "y"], line: 3 },
      { fields: ["two\nlines", "z"], line: 5 },
      { fields: ["plain", "w"], line: 7 },
    ]);
    expect(parseCsv('a,"",b\n')).toEqual([{ fields: ["a", "", "b"], line: 1 }]);
  });

  it("reads back what an RFC 4180 writer wrote, whatever the fields hold", () => {
    const row = fc.array(fc.string({ unit: fc.constantFrom("a", " ", ",", '"', "\n", "\r", "é", "x") }), { minLength: 2, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), fc.constantFrom("\n", "\r\n"), (rows, lineEnd) => {
        const text = writeCsv(rows, lineEnd);
        expect(parseCsv(text).map((r) => r.fields)).toEqual(rows);
        // Each record starts on the line after the line breaks written before it.
        const starts = rows.map((_, i) => writeCsv(rows.slice(0, i), lineEnd).split("\n").length);
        expect(parseCsv(text).map((r) => r.line)).toEqual(starts);
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});

describe("CSV cases", () => {
  it("expect the category as intent; an empty category expects a rejection", () => {
    const cases = parseCases('text,category\n"Hi, there",greet\nbake bread,\n', "cases.csv");
    expect(cases).toEqual([
      { input: "Hi, there", line: 2, expect: { format: "csv", intent: "greet" } },
      { input: "bake bread", line: 3, expect: { format: "csv", status: "rejected" } },
    ]);
  });

  it("find the columns by the header, in any order and among others; a text,category first line is CSV whatever the name", () => {
    expect(parseCases("id,category,text\n7,greet,hello\n", "cases.csv")).toEqual([{ input: "hello", line: 2, expect: { format: "csv", intent: "greet" } }]);
    expect(parseCases("text,category\nhello,greet\n", "cases.txt")).toEqual([{ input: "hello", line: 2, expect: { format: "csv", intent: "greet" } }]);
  });

  it("say file:line and how to mend a malformed case", () => {
    const error = (text: string) => {
      try {
        parseCases(text, "c.csv");
      } catch (e) {
        if (e instanceof EvalCasesError) return e.message;
        throw e;
      }
      throw new Error("no error");
    };
    expect(error('text,category\nok,a\n"never closed,b\nmore,c\n')).toBe('c.csv:3: a quoted field opened on this line is never closed: add the closing "');
    expect(error('text,category\nsay "hi",a\n')).toBe('c.csv:2: a quote inside an unquoted field: quote the whole field and double its quotes ("say ""hi""")');
    expect(error('text,category\n"two\nlines" x,a\n')).toBe("c.csv:3: text after the closing quote of a field: quote the whole field, or none of it");
    expect(error("text,category\n\"multi\nline\",a\nhello, world,b\n")).toBe('c.csv:4: 3 field(s) where the header has 2; quote a field that holds a comma ("a, b")');
    expect(error("text,label\nhello,a\n")).toBe('c.csv:1: the header must name the columns text and category (found "text","label")');
    expect(error("text,category\n  ,a\n")).toBe("c.csv:2: the text is empty");
    expect(error("\n\n")).toBe("c.csv: empty; a CSV cases file starts with the header text,category");
  });
});

const banking = join(sharedCorpusDir, "banking77");

describe.skipIf(!existsSync(banking))("Banking77's test.csv", () => {
  it("gives 3,080 cases over the 77 categories of categories.json", () => {
    const cases = parseCases(readFileSync(join(banking, "test.csv"), "utf8"), "test.csv");
    expect(cases).toHaveLength(3080);
    const categories = JSON.parse(readFileSync(join(banking, "categories.json"), "utf8")) as string[];
    expect(new Set(cases.map((c) => (c.expect.format === "csv" ? c.expect.intent : undefined)))).toEqual(new Set(categories));
    expect(cases.every((c) => c.input.trim() !== "")).toBe(true);
  });
});
