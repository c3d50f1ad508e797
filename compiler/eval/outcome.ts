// Asking one evaluation case (compiler/eval/cases.ts) and judging the answer. Each case is asked in
// a fresh session (seed 0) with ndfc/runtime/conversation, as chat and serve answer, so cases never
// influence each other and a request missing its slot is asked about, as a user would see it. The outcome keeps everything the
// report (score.ts, metrics.ts) counts, so the answers of several bundles (the folds of a
// cross-validation) can be summed into one report.
//
// A case is correct when:
//   - JSONL, CSV and cross-validation: every listed expectation holds: `intent` equals the answer's
//     intent, `status` its status, each listed slot its value, `output` the response text (or an
//     output/command of the answering entry, see below); `{"status": "rejected"}` is an off-topic case.
//   - NDF eval: the answer is not a rejection and the answering entry has the expected `output`
//     among its outputs, its tools' `arguments.command` strings or its tools' `name`s, or the
//     expected `description` as its description or a tool's `arguments.explanation`; each is
//     compared both as written in the dataset (template text with `<||tag||>`) and as rendered.
// A case is asked when the answer is a question (status "elicit") naming the case's expected intent
// ("delete" → "Delete what?" for a case expecting the delete entry): an abstention with the right
// intent, neither correct nor an error. A question is never an answer: precision counts answers only.
// A case is reachable when its expected answer exists somewhere in the bundle at all (its intent
// exists, or some entry has that output or description as written, before rendering): the others
// no matcher could get right, only adding the answer to the dataset.
//
// The expected intent of a case (for per-intent metrics): the answering intent when the case is
// correct; otherwise the intent it names, or for NDF the first entry in bundle order that has the
// expected output or description; null when it expects a rejection or no entry has its answer.

import { conversation } from "../../runtime/conversation/conversation.js";
import type { Npc, NpcResponse, ToolTree } from "../../runtime/index.js";
import { joinSegments } from "../ir/walk.js";
import type { AnswerExpectation, EvalCase, NdfExpectation } from "./cases.js";
import { toolCallParts } from "../../runtime/render/tool-call.js";

export interface CaseOutcome {
  case: EvalCase;
  response: NpcResponse;
  correct: boolean;
  /** The answer is neither a rejection nor a question (elicit). */
  answered: boolean;
  /** The answer is a question (elicit) naming the expected intent: an abstention, not an error. */
  asked: boolean;
  expectsRejection: boolean;
  expectedIntent: string | null;
  reachable: boolean;
  /** A rejected case expecting an answer whose suggestions offered the expected entry. */
  offeredExpected: boolean;
  /** Time of `process`, in microseconds. */
  latencyUs: number;
}

interface EntryTexts {
  outputs: Set<string>;
  descriptions: Set<string>;
}

/** What the judging needs to know of a bundle, computed once per bundle. */
export interface BundleTexts {
  /** The dataset texts of every intent, by id, in bundle order. */
  entries: Map<string, EntryTexts>;
  /** All of them together. */
  all: EntryTexts;
}

function unsplitTool(tree: ToolTree): unknown {
  if (Array.isArray(tree)) return joinSegments(tree);
  if ("sh" in tree) return joinSegments(tree.sh.segments);
  if ("a" in tree) return tree.a.map(unsplitTool);
  if ("j" in tree) return JSON.stringify(unsplitTool(tree.j));
  if ("o" in tree) return Object.fromEntries(tree.o.map(([key, value]) => [key, unsplitTool(value)]));
  return tree.v;
}

/** Adds a tool object's name, command and explanation (raw or rendered) to the sets. */
function addTool(tool: unknown, texts: EntryTexts): void {
  if (tool === null || typeof tool !== "object" || Array.isArray(tool)) return;
  const { name, arguments: args } = toolCallParts(tool as Record<string, unknown>);
  if (name !== null) texts.outputs.add(name.trim());
  if (args === null) return;
  const { command, explanation } = args;
  if (typeof command === "string") texts.outputs.add(command.trim());
  if (typeof explanation === "string") texts.descriptions.add(explanation.trim());
}

/** The dataset texts of every intent as written (with their `<||tag||>`s). */
export function bundleTexts(npc: Npc): BundleTexts {
  const entries = new Map<string, EntryTexts>();
  const all: EntryTexts = { outputs: new Set(), descriptions: new Set() };
  for (const intent of npc.payload.intents) {
    const texts: EntryTexts = { outputs: new Set(intent.outputs.map((o) => joinSegments(o).trim())), descriptions: new Set() };
    if (intent.description) texts.descriptions.add(joinSegments(intent.description).trim());
    for (const tool of intent.tools) addTool(unsplitTool(tool), texts);
    entries.set(intent.id, texts);
    texts.outputs.forEach((t) => all.outputs.add(t));
    texts.descriptions.forEach((t) => all.descriptions.add(t));
  }
  return { entries, all };
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
  return response.status !== "rejected" && response.status !== "elicit" && hasExpected(expect, answeredTexts(response, entries));
}

function answerCorrect(expect: AnswerExpectation, response: NpcResponse, entries: Map<string, EntryTexts>): boolean {
  if (expect.status !== undefined && response.status !== expect.status) return false;
  if (expect.intent !== undefined && response.intent !== expect.intent) return false;
  for (const [slot, value] of Object.entries(expect.slots ?? {})) if (response.slots[slot] !== value) return false;
  if (expect.output !== undefined && !answeredTexts(response, entries).outputs.has(expect.output.trim())) return false;
  return true;
}

/** Whether a rejection suggested an entry that would have been the expected answer. */
function offered(c: EvalCase, response: NpcResponse, entries: Map<string, EntryTexts>): boolean {
  const e = c.expect;
  return response.related.some(({ intent }) => {
    if (e.format !== "ndf") return e.intent !== undefined && intent === e.intent;
    const texts = entries.get(intent);
    return texts !== undefined && hasExpected(e, texts);
  });
}

function expectsRejection(c: EvalCase): boolean {
  return c.expect.format !== "ndf" && c.expect.status === "rejected";
}

function isReachable(c: EvalCase, texts: BundleTexts): boolean {
  const e = c.expect;
  if (e.format !== "ndf") {
    if (e.status === "rejected") return false;
    return e.intent === undefined || texts.entries.has(e.intent);
  }
  return (e.output !== undefined && texts.all.outputs.has(e.output.trim())) || (e.description !== undefined && texts.all.descriptions.has(e.description.trim()));
}

function expectedIntent(c: EvalCase, response: NpcResponse, correct: boolean, entries: Map<string, EntryTexts>): string | null {
  if (expectsRejection(c)) return null;
  if (correct) return response.intent;
  const e = c.expect;
  if (e.format !== "ndf") return e.intent ?? null;
  for (const [id, texts] of entries) if (hasExpected(e, texts)) return id;
  return null;
}

/** Asks `c` to `npc` in a fresh session and judges the answer (`texts` is bundleTexts(npc)). */
export function askCase(npc: Npc, texts: BundleTexts, c: EvalCase): CaseOutcome {
  const session = npc.session({ seed: 0, conversation });
  const started = process.hrtime.bigint();
  const response = session.process(c.input);
  const latencyUs = Number(process.hrtime.bigint() - started) / 1000;
  const correct = c.expect.format === "ndf" ? ndfCorrect(c.expect, response, texts.entries) : answerCorrect(c.expect, response, texts.entries);
  const answered = response.status !== "rejected" && response.status !== "elicit";
  const rejection = expectsRejection(c);
  const expected = expectedIntent(c, response, correct, texts.entries);
  return {
    case: c,
    response,
    correct,
    answered,
    asked: !correct && expected !== null && response.elicit?.intent === expected,
    expectsRejection: rejection,
    expectedIntent: expected,
    reachable: isReachable(c, texts),
    offeredExpected: response.status === "rejected" && !rejection && offered(c, response, texts.entries),
    latencyUs,
  };
}
