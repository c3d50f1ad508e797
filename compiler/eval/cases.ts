// Reading evaluation cases. Three formats:
//   - NDF eval (a JSON array, as NPC-Forge's eval.json): blocks `{ input: string | string[], output?,
//     description?, permission? }`; each input is one case expecting that output or description.
//   - JSONL: one `{ "input": "...", "expect": { intent?, output?, status?, slots? } }` per line.
//   - CSV (RFC 4180, as public intent benchmarks publish their test sets): a header naming the
//     columns `text` and `category`, then one case per record expecting the intent `category`; an
//     empty category expects a rejection (an off-topic message).
// A file whose name ends in .csv, or whose first line is `text,category`, is CSV; otherwise one
// starting with `[` is NDF, and the rest JSONL.
// Mistakes are reported as `file:line: what is wrong`.
import { positionAt } from "../sources/location.js";
import { CsvSyntaxError, parseCsv } from "./csv.js";

export interface NdfExpectation {
  format: "ndf";
  output?: string;
  description?: string;
  permission?: string;
}

/**
 * What the answer itself must be: from JSONL, from CSV (`intent`, or `status: "rejected"` for an
 * empty category), or an NPC's own input held out by cross-validation (`intent`).
 */
export interface AnswerExpectation {
  format: "jsonl" | "csv" | "inputs";
  intent?: string;
  output?: string;
  status?: string;
  slots?: Record<string, string>;
}

export interface EvalCase {
  input: string;
  /** 1-based line of the case in its file. */
  line: number;
  expect: NdfExpectation | AnswerExpectation;
  /** The source file the input is written in, when it is not the cases file (cross-validation). */
  source?: string;
}

export class EvalCasesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EvalCasesError";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function optionalString(where: string, record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new EvalCasesError(`${where}: "${key}" must be a string`);
  return value;
}

/** A first line `text,category` marks CSV whatever the file's name. */
const CSV_HEADER = /^\uFEFF?\s*text,category\s*(\r?\n|$)/i;

/** Parses the text of a cases file (`name` is used in messages). */
export function parseCases(text: string, name: string): EvalCase[] {
  if (name.toLowerCase().endsWith(".csv") || CSV_HEADER.test(text)) return parseCsvCases(text, name);
  const trimmed = text.trimStart();
  return trimmed.startsWith("[") ? parseNdf(text, name) : parseJsonl(text, name);
}

function parseNdf(text: string, name: string): EvalCase[] {
  let blocks: unknown;
  try {
    blocks = JSON.parse(text);
  } catch (error) {
    throw new EvalCasesError(`${name}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(blocks)) throw new EvalCasesError(`${name}: an NDF eval file is an array of blocks`);
  const cases: EvalCase[] = [];
  let searchFrom = 0;
  blocks.forEach((block, index) => {
    const where = `${name}: block ${index + 1}`;
    if (!isRecord(block)) throw new EvalCasesError(`${where}: must be an object`);
    const inputs = typeof block.input === "string" ? [block.input] : block.input;
    if (!Array.isArray(inputs) || inputs.some((i) => typeof i !== "string")) throw new EvalCasesError(`${where}: "input" must be a string or a list of strings`);
    const expect: NdfExpectation = { format: "ndf" };
    const output = optionalString(where, block, "output");
    const description = optionalString(where, block, "description");
    const permission = optionalString(where, block, "permission");
    if (output !== undefined) expect.output = output;
    if (description !== undefined) expect.description = description;
    if (permission !== undefined) expect.permission = permission;
    if (output === undefined && description === undefined) throw new EvalCasesError(`${where}: needs "output" or "description" to compare with`);
    for (const input of inputs as string[]) {
      // Lines are found by searching the input's JSON text forward: good enough for messages.
      const at = text.indexOf(JSON.stringify(input), searchFrom);
      if (at >= 0) searchFrom = at;
      cases.push({ input, line: positionAt(text, at >= 0 ? at : searchFrom).line, expect });
    }
  });
  return cases;
}

function parseJsonl(text: string, name: string): EvalCase[] {
  const cases: EvalCase[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    const where = `${name}:${line}`;
    if (raw.trim() === "" || raw.trimStart().startsWith("//")) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new EvalCasesError(`${where}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (!isRecord(value) || typeof value.input !== "string") throw new EvalCasesError(`${where}: expected {"input": "...", "expect": {...}}`);
    if (!isRecord(value.expect)) throw new EvalCasesError(`${where}: "expect" must be an object`);
    const expect: AnswerExpectation = { format: "jsonl" };
    for (const key of ["intent", "output", "status"] as const) {
      const v = optionalString(where, value.expect, key);
      if (v !== undefined) expect[key] = v;
    }
    const slots = value.expect.slots;
    if (slots !== undefined) {
      if (!isRecord(slots) || Object.values(slots).some((v) => typeof v !== "string")) throw new EvalCasesError(`${where}: "slots" must map names to strings`);
      expect.slots = slots as Record<string, string>;
    }
    if (Object.keys(expect).length === 1) throw new EvalCasesError(`${where}: "expect" needs intent, output, status or slots`);
    cases.push({ input: value.input, line, expect });
  });
  return cases;
}

function parseCsvCases(text: string, name: string): EvalCase[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new EvalCasesError(`${name}:${error.line}: ${error.reason}`);
    throw error;
  }
  const [header, ...rows] = records;
  if (header === undefined) throw new EvalCasesError(`${name}: empty; a CSV cases file starts with the header text,category`);
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const textColumn = columns.indexOf("text");
  const categoryColumn = columns.indexOf("category");
  if (textColumn < 0 || categoryColumn < 0) {
    throw new EvalCasesError(`${name}:${header.line}: the header must name the columns text and category (found ${header.fields.map((f) => JSON.stringify(f)).join(",")})`);
  }
  return rows.map(({ fields, line }) => {
    const where = `${name}:${line}`;
    if (fields.length !== columns.length) {
      throw new EvalCasesError(`${where}: ${fields.length} field(s) where the header has ${columns.length}; quote a field that holds a comma ("a, b")`);
    }
    const input = fields[textColumn]!;
    if (input.trim() === "") throw new EvalCasesError(`${where}: the text is empty`);
    const category = fields[categoryColumn]!.trim();
    const expect: AnswerExpectation = category === "" ? { format: "csv", status: "rejected" } : { format: "csv", intent: category };
    return { input, line, expect };
  });
}
