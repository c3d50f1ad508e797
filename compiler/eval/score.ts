// Scoring an NPC on evaluation cases (compiler/eval/cases.ts). Each case is asked in a fresh
// session (seed 0), so cases never influence each other.
//
// A case is correct when:
//   - JSONL: every listed expectation holds: `intent` equals the answer's intent, `status` its
//     status, each listed slot its value, `output` the response text (or an output/command of
//     the answering entry, see below); `{"status": "rejected"}` is an off-topic case.
//   - NDF eval: the answer is not a rejection and the answering entry has the expected `output`
//     among its outputs, its tools' `arguments.command` strings or its tools' `name`s, or the
//     expected `description` as its description or a tool's `arguments.explanation`; each is
//     compared both as written in the dataset (template text with `<||tag||>`) and as rendered.
// A case is reachable when its expected answer exists somewhere in the bundle at all (its intent
// exists, or some entry has that output or description as written, before rendering): the others
// no matcher could get right, only adding the answer to the dataset.

import type { Npc, NpcResponse, ToolTree } from "../../runtime/index.js";
import { joinSegments } from "../ir/walk.js";
import type { EvalCase, JsonlExpectation, NdfExpectation } from "./cases.js";

export interface EvalFailure {
  input: string;
  line: number;
  expected: string;
  status: string;
  intent: string | null;
  response: string;
}

export interface Rate {
  cases: number;
  correct: number;
  /** correct / cases (0 when there is no case). */
  accuracy: number;
}

export interface EvalReport {
  cases: number;
  correct: number;
  accuracy: number;
  /** Answers that were not rejections, and how many of those were correct. */
  answered: number;
  answeredCorrect: number;
  /** answeredCorrect / answered: how far an answer can be trusted. */
  precision: number;
  rejected: number;
  rejectionRate: number;
  /** Answers per status. */
  statuses: Record<string, number>;
  /** Cases that expect an answer (not a rejection). */
  inScope: Rate;
  /** Cases that expect a rejection, and how many were rejected. */
  offTopic: Rate;
  /** Cases whose expected answer exists in the bundle; precision among their answered ones. */
  reachable: Rate & { answered: number; answeredCorrect: number; precision: number };
  /**
   * Rejected cases that expect an answer, and how many of those offered the expected entry among
   * their suggestions (`related`): the user was one choice away from it.
   */
  suggested: { rejected: number; offered: number };
  /** Correct answers to cases that state a permission (NDF), and how many answered with that permission. */
  permission: { compared: number; agree: number };
  /** Time of `process` per case, in microseconds. */
  latencyUs: { p50: number; p90: number; p99: number };
  failures: EvalFailure[];
}

interface EntryTexts {
  outputs: Set<string>;
  descriptions: Set<string>;
}

function unsplitTool(tree: ToolTree): unknown {
  if (Array.isArray(tree)) return joinSegments(tree);
  if ("sh" in tree) return joinSegments(tree.sh.segments);
  if ("a" in tree) return tree.a.map(unsplitTool);
  if ("o" in tree) return Object.fromEntries(tree.o.map(([key, value]) => [key, unsplitTool(value)]));
  return tree.v;
}

/** Adds a tool object's name, command and explanation (raw or rendered) to the sets. */
function addTool(tool: unknown, texts: EntryTexts): void {
  if (tool === null || typeof tool !== "object" || Array.isArray(tool)) return;
  const { name, arguments: args } = tool as { name?: unknown; arguments?: unknown };
  if (typeof name === "string") texts.outputs.add(name.trim());
  if (args === null || typeof args !== "object") return;
  const { command, explanation } = args as { command?: unknown; explanation?: unknown };
  if (typeof command === "string") texts.outputs.add(command.trim());
  if (typeof explanation === "string") texts.descriptions.add(explanation.trim());
}

/** The dataset texts of every intent, by id, as written (with their `<||tag||>`s). */
function entryTexts(npc: Npc): Map<string, EntryTexts> {
  const out = new Map<string, EntryTexts>();
  for (const intent of npc.payload.intents) {
    const texts: EntryTexts = { outputs: new Set(intent.outputs.map((o) => joinSegments(o).trim())), descriptions: new Set() };
    if (intent.description) texts.descriptions.add(joinSegments(intent.description).trim());
    for (const tool of intent.tools) addTool(unsplitTool(tool), texts);
    out.set(intent.id, texts);
  }
  return out;
}

function answeredTexts(response: NpcResponse, entries: Map<string, EntryTexts>): EntryTexts {
  const texts: EntryTexts = { outputs: new Set([response.response.trim()]), descriptions: new Set() };
  for (const part of response.parts ?? [response]) {
    texts.outputs.add(part.response.trim());
    if (part.description) texts.descriptions.add(part.description.trim());
    for (const tool of part.tools) addTool(tool, texts);
    const entry = part.intent === null ? undefined : entries.get(part.intent);
    entry?.outputs.forEach((t) => texts.outputs.add(t));
    entry?.descriptions.forEach((t) => texts.descriptions.add(t));
  }
  return texts;
}

function hasExpected(expect: NdfExpectation, texts: EntryTexts): boolean {
  return (
    (expect.output !== undefined && texts.outputs.has(expect.output.trim())) ||
    (expect.description !== undefined && texts.descriptions.has(expect.description.trim()))
  );
}

function ndfCorrect(expect: NdfExpectation, response: NpcResponse, entries: Map<string, EntryTexts>): boolean {
  return response.status !== "rejected" && hasExpected(expect, answeredTexts(response, entries));
}

/** Whether a rejection suggested an entry that would have been the expected answer. */
function offeredExpected(c: EvalCase, response: NpcResponse, entries: Map<string, EntryTexts>): boolean {
  const e = c.expect;
  return response.related.some(({ intent }) => {
    if (e.format === "jsonl") return e.intent !== undefined && intent === e.intent;
    const texts = entries.get(intent);
    return texts !== undefined && hasExpected(e, texts);
  });
}

function jsonlCorrect(expect: JsonlExpectation, response: NpcResponse, entries: Map<string, EntryTexts>): boolean {
  if (expect.status !== undefined && response.status !== expect.status) return false;
  if (expect.intent !== undefined && response.intent !== expect.intent) return false;
  for (const [slot, value] of Object.entries(expect.slots ?? {})) if (response.slots[slot] !== value) return false;
  if (expect.output !== undefined && !answeredTexts(response, entries).outputs.has(expect.output.trim())) return false;
  return true;
}

function expectsRejection(c: EvalCase): boolean {
  return c.expect.format === "jsonl" && c.expect.status === "rejected";
}

function describeExpectation(c: EvalCase): string {
  const { format: _format, ...rest } = c.expect;
  return JSON.stringify(rest);
}

function isReachable(c: EvalCase, entries: Map<string, EntryTexts>, all: EntryTexts): boolean {
  const e = c.expect;
  if (e.format === "jsonl") {
    if (e.status === "rejected") return false;
    return e.intent === undefined || entries.has(e.intent);
  }
  return (e.output !== undefined && all.outputs.has(e.output.trim())) || (e.description !== undefined && all.descriptions.has(e.description.trim()));
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 10) / 10;
}

function rate(cases: number, correct: number): Rate {
  return { cases, correct, accuracy: cases === 0 ? 0 : correct / cases };
}

/** Asks every case of `cases` to `npc` and scores the answers. */
export function evaluate(npc: Npc, cases: readonly EvalCase[]): EvalReport {
  const entries = entryTexts(npc);
  const all: EntryTexts = { outputs: new Set(), descriptions: new Set() };
  for (const texts of entries.values()) {
    texts.outputs.forEach((t) => all.outputs.add(t));
    texts.descriptions.forEach((t) => all.descriptions.add(t));
  }
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const failures: EvalFailure[] = [];
  let correct = 0;
  let answered = 0;
  let answeredCorrect = 0;
  const inScope = { cases: 0, correct: 0 };
  const offTopic = { cases: 0, correct: 0 };
  const reachable = { cases: 0, correct: 0, answered: 0, answeredCorrect: 0 };
  const permission = { compared: 0, agree: 0 };
  const suggested = { rejected: 0, offered: 0 };
  for (const c of cases) {
    const session = npc.session({ seed: 0 });
    const started = process.hrtime.bigint();
    const response = session.process(c.input);
    latencies.push(Number(process.hrtime.bigint() - started) / 1000);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    const ok = c.expect.format === "ndf" ? ndfCorrect(c.expect, response, entries) : jsonlCorrect(c.expect, response, entries);
    const isAnswer = response.status !== "rejected";
    if (ok) correct++;
    if (ok && c.expect.format === "ndf" && c.expect.permission !== undefined) {
      permission.compared++;
      if (response.permission === c.expect.permission) permission.agree++;
    }
    if (isAnswer) answered++;
    if (ok && isAnswer) answeredCorrect++;
    if (!isAnswer && !expectsRejection(c)) {
      suggested.rejected++;
      if (offeredExpected(c, response, entries)) suggested.offered++;
    }
    const bucket = expectsRejection(c) ? offTopic : inScope;
    bucket.cases++;
    if (ok) bucket.correct++;
    if (isReachable(c, entries, all)) {
      reachable.cases++;
      if (ok) reachable.correct++;
      if (isAnswer) reachable.answered++;
      if (ok && isAnswer) reachable.answeredCorrect++;
    }
    if (!ok) failures.push({ input: c.input, line: c.line, expected: describeExpectation(c), status: response.status, intent: response.intent, response: response.response });
  }
  latencies.sort((a, b) => a - b);
  const rejected = statuses.rejected ?? 0;
  return {
    cases: cases.length,
    correct,
    accuracy: cases.length === 0 ? 0 : correct / cases.length,
    answered,
    answeredCorrect,
    precision: answered === 0 ? 0 : answeredCorrect / answered,
    rejected,
    rejectionRate: cases.length === 0 ? 0 : rejected / cases.length,
    statuses,
    inScope: rate(inScope.cases, inScope.correct),
    offTopic: rate(offTopic.cases, offTopic.correct),
    reachable: {
      ...rate(reachable.cases, reachable.correct),
      answered: reachable.answered,
      answeredCorrect: reachable.answeredCorrect,
      precision: reachable.answered === 0 ? 0 : reachable.answeredCorrect / reachable.answered,
    },
    suggested,
    permission,
    latencyUs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99) },
    failures,
  };
}
