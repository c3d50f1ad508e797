// Reading evaluation cases. Two formats, told apart by the text:
//   - NDF eval (a JSON array, as NPC-Forge's eval.json): blocks `{ input: string | string[], output?,
//     description?, permission? }`; each input is one case expecting that output or description.
//   - JSONL: one `{ "input": "...", "expect": { intent?, output?, status?, slots? } }` per line.
// Mistakes are reported as `file:line: what is wrong`.
import { positionAt } from "../sources/location.js";

export interface NdfExpectation {
  format: "ndf";
  output?: string;
  description?: string;
  permission?: string;
}

export interface JsonlExpectation {
  format: "jsonl";
  intent?: string;
  output?: string;
  status?: string;
  slots?: Record<string, string>;
}

export interface EvalCase {
  input: string;
  /** 1-based line of the case in its file. */
  line: number;
  expect: NdfExpectation | JsonlExpectation;
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

/** Parses the text of a cases file (`name` is used in messages). */
export function parseCases(text: string, name: string): EvalCase[] {
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
    const expect: JsonlExpectation = { format: "jsonl" };
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
