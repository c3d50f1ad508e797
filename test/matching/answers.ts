// The matcher's answers on fixed messages, as digests: what test/matching/answers.test.ts compares
// against test/matching/answers.json, so a speed-up of the probabilistic stage provably changes no
// answer. Each answer (status, intent, confidence and the related list with scores, numbers
// rounded to 1e-9) is hashed, so the fixture holds no corpus text. Deterministic: fixed message
// lists, fixed typo seeds, fixed session seed.
//
//   RECORD_ANSWERS=1 npx vitest run test/matching/answers.test.ts   rewrites the fixture
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { syntheticNpc } from "../../bench/synthetic.js";
import { compileNpc } from "../../compiler/compile.js";
import { parseCases } from "../../compiler/eval/cases.js";
import { lintSources } from "../../compiler/lint.js";
import { wordnetExpansion } from "../../compiler/wordnet.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import type { NpcResponse } from "../../runtime/response.js";
import { repoRoot } from "../compile/termy-corpus.js";
import { hasTermy, termyDir, typoOf, unambiguousInputs } from "./support.js";

export interface AnswerSet {
  /** Digest of the message list, so a changed list is told apart from a changed answer. */
  messages: string;
  /**
   * Six hex digits per message (fresh session each), then per message of one long session:
   * a changed answer goes unnoticed with odds of 1 in 16 million.
   */
  answers: string;
}

const digest = (text: string, length = 16) => createHash("sha256").update(text).digest("hex").slice(0, length);
const round9 = (x: number) => Math.round(x * 1e9) / 1e9;

/** What must not change: status, intent, confidence and the related suggestions. */
export function answerKey(response: NpcResponse): string {
  return JSON.stringify([
    response.status,
    response.intent,
    round9(response.confidence),
    response.related.map((r) => [r.intent, round9(r.score)]),
  ]);
}

function answerSet(npc: Npc, messages: readonly string[]): AnswerSet {
  const answers = messages.map((m) => digest(answerKey(npc.session({ seed: 1 }).process(m)), 6));
  const long = npc.session({ seed: 1 });
  for (const m of messages) answers.push(digest(answerKey(long.process(m)), 6));
  return { messages: digest(JSON.stringify(messages)), answers: answers.join("") };
}

const offTopic = () =>
  readFileSync(resolve(import.meta.dirname, "off-topic.txt"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));

/** Training inputs, their typos, their first two words, eval prompts and off-topic prompts. */
function datasetMessages(dir: string, evalFile: string): { lint: ReturnType<typeof lintSources>; messages: string[] } {
  const lint = lintSources([dir]);
  const inputs = unambiguousInputs(lint).map((x) => x.input);
  const typos = inputs.map((input, i) => typoOf(input, i)).filter((t): t is string => t !== null);
  const partial = inputs.map((input) => input.split(" ").slice(0, 2).join(" "));
  const evals = existsSync(evalFile) ? parseCases(readFileSync(evalFile, "utf8"), evalFile).map((c) => c.input) : [];
  return { lint, messages: [...inputs, ...typos, ...partial, ...evals, ...offTopic()] };
}

function syntheticMessages(size: number): { npc: ReturnType<typeof syntheticNpc>; messages: string[] } {
  const npc = syntheticNpc(size);
  const sample = npc.inputs.filter((_, i) => i % 10 === 0).map((x) => x.text);
  const last = npc.vocabulary.at(-1)!;
  const messages = [
    ...sample,
    ...sample.map((t, i) => typoOf(t, i) ?? t),
    ...sample.map((t) => `${t} ${last} zorbly`),
    ...sample.map((t) => t.split(" ").slice(0, 2).join(" ")),
    ...sample.map((t) => t.split(" ").slice(1).join(" ") + " the of"),
  ];
  return { npc, messages };
}

/** Every answer set the fixture holds; TERMy's corpus ones only when the corpus is present. */
export async function collectAnswers(): Promise<Record<string, AnswerSet>> {
  const out: Record<string, AnswerSet> = {};
  if (hasTermy) {
    const { lint, messages } = datasetMessages(termyDir, resolve(termyDir, "dataset/eval.json"));
    out["corpus-termy"] = answerSet(await loadNpc(compileNpc(lint.ir).bytes), messages);
    const expanded = compileNpc(lint.ir, { lexicalExpansion: wordnetExpansion });
    out["corpus-termy-wordnet"] = answerSet(await loadNpc(expanded.bytes), messages);
  }
  const ownDir = resolve(repoRoot, "datasets/termy");
  const own = datasetMessages(ownDir, resolve(ownDir, "eval.jsonl"));
  out["datasets-termy"] = answerSet(await loadNpc(compileNpc(own.lint.ir).bytes), own.messages);
  const synthetic = syntheticMessages(5_000);
  out["synthetic-5000"] = answerSet(await loadNpc(compileNpc(synthetic.npc.ir).bytes), synthetic.messages);
  return out;
}
