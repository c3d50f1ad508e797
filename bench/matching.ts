// Matching quality and probabilistic-stage latency on TERMy (issue 9). Writes
// bench/results/matching.json:
//   - TERMy eval.json (reworded requests) scored by compiler/eval, plain and `--wordnet` bundles
//     (whole, and by half: even-index cases developed on, odd-index ones held out),
//     and the same bundles forced to answer every message with their first-ranked entry (no
//     threshold, no margin): how many the ranking itself gets right, which no threshold can beat;
//   - off-topic prompts (test/matching/off-topic.txt) answered by each bundle;
//   - datasets/termy eval.jsonl (our own dataset), plain and `--wordnet`;
//   - TERMy training inputs with one or two typos (bench/matching-inputs.ts) reaching their entry;
//   - latency of the probabilistic stage alone (matchProbabilistic) and of whole answers, on the
//     eval prompts, on training inputs with a typo, and on the off-topic prompts.
//
//   npm run build && node --expose-gc build/bench/matching.js

import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileNpc } from "../compiler/compile.js";
import { parseCases, type EvalCase } from "../compiler/eval/cases.js";
import { evaluate } from "../compiler/eval/score.js";
import { lintSources, type LintResult } from "../compiler/lint.js";
import { wordnetExpansion } from "../compiler/wordnet.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { loadNpc, type Npc } from "../runtime/index.js";
import { matchProbabilistic } from "../runtime/match/match-probabilistic.js";
import { NpcModel } from "../runtime/bundle/model.js";
import { tokenize, type Token } from "../runtime/text/normalize.js";
import { sanitize } from "../runtime/text/sanitize.js";
import { WordResolver } from "../runtime/text/word-resolver.js";
import { swapMiddleOfLongestWord, typoOf, unambiguousInputs } from "./matching-inputs.js";
import { measure, round } from "./stats.js";

/**
 * Before the stage of issue 9 (commit 0e3aa73, same scoring): TERMy eval.json 6 of 491 correct
 * (8 reachable answered), off-topic prompts 1 of 204 answered, datasets/termy 585/638 in scope and
 * 146/147 off-topic rejected. The original Python engine: 3 of 491 (REFERENCE-ENGINE.md).
 */
const BASELINE = {
  commit: "0e3aa73",
  termyEval: { correct: 6, reachableAnswered: 8, reachableCorrect: 6 },
  offTopicAnswered: 1,
  ownEval: { inScopeCorrect: 585, inScopeCases: 638, offTopicRejected: 146, offTopicCases: 147 },
  originalEngineTermyEvalCorrect: 3,
};

// Run from build/bench/: the repository is two levels up.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const termyDir = resolve(repoRoot, "../shared/corpus/npc-forge/termy");
const ownDir = join(repoRoot, "datasets/termy");

/** The dataset with no sentence threshold and no margin: every message that shares a word with an entry gets its first-ranked one. */
function forced(lint: LintResult): LintResult {
  const { config } = lint.ir;
  return { ...lint, ir: { ...lint.ir, config: { ...config, sentenceThreshold: 0, extra: { ...config.extra, margin: 0 } } } };
}

async function bundles(lint: LintResult): Promise<{ plain: { npc: Npc; model: NpcModel }; wordnet: { npc: Npc; model: NpcModel } }> {
  const plain = compileNpc(lint.ir);
  const wordnet = compileNpc(lint.ir, { lexicalExpansion: wordnetExpansion });
  return {
    plain: { npc: await loadNpc(plain.bytes), model: new NpcModel(plain.payload) },
    wordnet: { npc: await loadNpc(wordnet.bytes), model: new NpcModel(wordnet.payload) },
  };
}

/** Reachable cases of one half of a cases file: answered, correct, precision. */
function halfSummary(npc: Npc, cases: readonly EvalCase[]) {
  const { reachable } = evaluate(npc, [...cases]);
  return { cases: cases.length, reachable: reachable.cases, reachableAnswered: reachable.answered, reachableCorrect: reachable.correct, reachablePrecision: round(reachable.precision, 3) };
}

/**
 * The cases with even index (0, 2, …) are the ones matching was developed on; those with odd
 * index were not looked at, so they show whether a change holds on prompts it was not fitted to.
 */
function byHalf(npc: Npc, file: string) {
  const cases = parseCases(readFileSync(file, "utf8"), file);
  return { developedOn: halfSummary(npc, cases.filter((_, i) => i % 2 === 0)), heldOut: halfSummary(npc, cases.filter((_, i) => i % 2 === 1)) };
}

function evalSummary(npc: Npc, file: string) {
  const report = evaluate(npc, parseCases(readFileSync(file, "utf8"), file));
  return {
    cases: report.cases,
    correct: report.correct,
    answered: report.answered,
    reachable: report.reachable.cases,
    reachableAnswered: report.reachable.answered,
    reachableCorrect: report.reachable.correct,
    reachablePrecision: round(report.reachable.precision, 3),
    /** Rejected in-scope cases, and those that offered the expected entry among their suggestions. */
    suggested: report.suggested,
    inScope: { cases: report.inScope.cases, correct: report.inScope.correct, accuracy: round(report.inScope.accuracy, 3) },
    offTopic: { cases: report.offTopic.cases, rejected: report.offTopic.correct, rate: round(report.offTopic.accuracy, 3) },
  };
}

async function main(): Promise<void> {
  if (!existsSync(join(termyDir, "config.json"))) throw new Error(`NPC-Forge corpus not found at ${termyDir}`);
  const evalFile = join(termyDir, "dataset/eval.json");
  const offTopic = readFileSync(join(repoRoot, "test/matching/off-topic.txt"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const termyLint = lintSources([termyDir]);
  const ownLint = lintSources([ownDir]);
  const termy = await bundles(termyLint);
  const termyForced = await bundles(forced(termyLint));
  const own = await bundles(ownLint);

  const evalPrompts = (JSON.parse(readFileSync(evalFile, "utf8")) as { input: string | string[] }[]).flatMap((b) => [b.input].flat());
  const typos = termyLint.ir.intents.flatMap((i) => i.inputs.map((input) => swapMiddleOfLongestWord(input.value))).filter((t): t is string => t !== null);
  const query = (model: NpcModel, message: string): Token[] => sanitize(model, tokenize(message).tokens).content;
  const stage = (entry: { model: NpcModel }, messages: string[]) => {
    const prepared = messages.map((m) => query(entry.model, m)).filter((tokens) => tokens.length > 0);
    return measure(prepared, (tokens) => matchProbabilistic(entry.model, tokens, 5, new WordResolver(entry.model), null), 20, 3);
  };
  const answers = (npc: Npc, messages: string[]) => {
    const session = npc.session();
    return measure(messages, (message) => session.process(message), 20, 3);
  };
  const typoRate = (npc: Npc) => {
    let total = 0;
    let own = 0;
    unambiguousInputs(termyLint).forEach(({ intent, input }, i) => {
      const typo = typoOf(input, i);
      if (typo === null) return;
      total++;
      if (npc.session().process(typo).intent === intent) own++;
    });
    return { messages: total, ownEntry: own, rate: round(own / total, 3) };
  };
  const answeredOffTopic = (npc: Npc) => offTopic.filter((p) => npc.session().process(p).status !== "rejected").length;

  const result = {
    name: "matching",
    description: "Probabilistic stage quality (TERMy eval.json, off-topic prompts, datasets/termy eval.jsonl) and latency",
    baseline: BASELINE,
    typos: { plain: typoRate(termy.plain.npc), wordnet: typoRate(termy.wordnet.npc) },
    termyEval: { plain: evalSummary(termy.plain.npc, evalFile), wordnet: evalSummary(termy.wordnet.npc, evalFile) },
    termyEvalByHalf: { plain: byHalf(termy.plain.npc, evalFile), wordnet: byHalf(termy.wordnet.npc, evalFile) },
    termyEvalForcedTop1: { plain: evalSummary(termyForced.plain.npc, evalFile), wordnet: evalSummary(termyForced.wordnet.npc, evalFile) },
    termyEvalForcedTop1ByHalf: { plain: byHalf(termyForced.plain.npc, evalFile), wordnet: byHalf(termyForced.wordnet.npc, evalFile) },
    offTopic: { prompts: offTopic.length, answeredPlain: answeredOffTopic(termy.plain.npc), answeredWordnet: answeredOffTopic(termy.wordnet.npc) },
    ownEval: {
      plain: evalSummary(own.plain.npc, join(ownDir, "eval.jsonl")),
      wordnet: evalSummary(own.wordnet.npc, join(ownDir, "eval.jsonl")),
    },
    latencyUs: {
      probabilisticStage: {
        evalPrompts: stage(termy.plain, evalPrompts),
        trainingTypos: stage(termy.plain, typos),
        offTopic: stage(termy.plain, offTopic),
        evalPromptsWordnet: stage(termy.wordnet, evalPrompts),
      },
      wholeAnswer: { evalPrompts: answers(termy.plain.npc, evalPrompts), evalPromptsWordnet: answers(termy.wordnet.npc, evalPrompts) },
    },
    machine: { loadAverage1m: round(loadavg()[0]!, 2) },
  };
  const file = join(repoRoot, "bench/results/matching.json");
  // bench/learned.ts writes its own section of the file: keep it.
  const learned = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { learned?: unknown }).learned : undefined;
  writeFileAtomic(file, `${JSON.stringify(learned === undefined ? result : { ...result, learned }, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  console.log(`bench: wrote ${file}`);
}

await main();
