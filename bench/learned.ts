// The learned stage (issue 14): quality on Banking77 and TERMy, latency, build time and bundle
// bytes. Adds a "learned" section to bench/results/matching.json (the rest of that file is
// bench/matching.ts's):
//   - Banking77 test.csv at the build-time threshold (correct of all, precision on answered),
//     forced top-1, and the off-topic prompts of test/matching/banking77-off-topic.txt rejected,
//     as built and with --wordnet;
//   - TERMy eval.json scored by compiler/eval (reachable prompts answered and correct), as built
//     and with the learned stage forced (its concept features from TERMy's synonym sets);
//   - latency of single distinct calls in shuffled order, each in a fresh session: the learned
//     stage alone (LearnedIndex.score) on TERMy's eval prompts and Banking77's test.csv, and whole
//     answers on Banking77;
//   - `ndfc build` of Banking77 as a whole CLI process (wall and CPU medians of 3, with the load;
//     bench/banking77-build.ts measures this alone);
//   - bundle bytes with the learned stage and without it (`"matcher": "lexical"`);
//   - whether "matcher": "auto" shipped the stage and why; TERMy's learned latency with it forced.
//
//   npm run build && node --expose-gc build/bench/learned.js

import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileNpc, type CompileResult } from "../compiler/compile.js";
import { parseCases } from "../compiler/eval/cases.js";
import { evaluate, type EvalReport } from "../compiler/eval/score.js";
import { lintSources, type LintResult } from "../compiler/lint.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";
import { wordnetExpansion } from "../compiler/wordnet.js";
import { loadNpc, type Npc } from "../runtime/index.js";
import { learnedIndexFor, NpcModel } from "../runtime/bundle/model.js";
import { tokenize, type Token } from "../runtime/text/normalize.js";
import { sanitize } from "../runtime/text/sanitize.js";
import { banking77OffTopic, cliBuildFigures, corpusBeside, hasBanking77, writeBanking77Npc, type LabelledRow } from "./banking77.js";
import { percentile, round } from "./stats.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const termyDir = resolve(repoRoot, "../shared/corpus/npc-forge/termy");

/** A fixed shuffle (linear congruential), so every run times the same sequence. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Median and p99 in µs of single calls, each item once per pass, three passes in different
 * shuffles after one warm-up pass; and the process's CPU µs per call over those passes (a mean,
 * timer reads included), which other processes on a loaded machine disturb less than wall time.
 */
function singleCalls<T>(items: readonly T[], run: (item: T) => void): { messages: number; medianUs: number; p99Us: number; cpuUsPerCall: number } {
  (globalThis as { gc?: () => void }).gc?.();
  for (const item of items) run(item);
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let pass = 1; pass <= 3; pass++) {
    for (const item of shuffled(items, pass)) {
      const start = process.hrtime.bigint();
      run(item);
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  const used = process.cpuUsage(cpu);
  return { messages: items.length, medianUs: round(percentile(samples, 50), 2), p99Us: round(percentile(samples, 99), 2), cpuUsPerCall: round((used.user + used.system) / samples.length, 2) };
}

function withMatcher(lint: LintResult, matcher: "learned" | "lexical"): LintResult {
  return { ...lint, ir: { ...lint.ir, config: { ...lint.ir.config, extra: { ...lint.ir.config.extra, matcher } } } };
}

/** Banking77 test.csv at the build threshold and forced top-1, and the off-topic prompts rejected, of one build. */
async function banking77Quality(built: CompileResult, npc: Npc, test: readonly LabelledRow[]) {
  const learned = (await learnedIndexFor(built.payload))!;
  const ids = built.payload.intents.map((i) => i.id);
  let answered = 0;
  let correct = 0;
  let forced = 0;
  for (const row of test) {
    const answer = npc.session().process(row.text);
    if (answer.status !== "rejected") {
      answered++;
      if (answer.intent === row.label) correct++;
    }
    const scores = learned.score(tokenize(row.text).tokens);
    if (ids[scores.topIntent >= 0 ? scores.topIntent : scores.runnerUpIntent] === row.label) forced++;
  }
  const offTopic = banking77OffTopic(repoRoot);
  const offAnswered = offTopic.filter((p) => npc.session().process(p).status !== "rejected").length;
  return {
    test: { cases: test.length, answered, correct, accuracy: round(correct / test.length, 4), precision: round(correct / answered, 4), forcedTop1: round(forced / test.length, 4) },
    offTopic: { prompts: offTopic.length, rejected: offTopic.length - offAnswered, rate: round(1 - offAnswered / offTopic.length, 4) },
  };
}

async function banking77() {
  const dir = mkdtempSync(join(tmpdir(), "ndfc-banking77-"));
  const { test } = writeBanking77Npc(corpusBeside(repoRoot), dir);
  const lint = lintSources([dir]);
  const built = compileNpc(lint.ir);
  const npc = await loadNpc(built.bytes);
  const model = new NpcModel(built.payload, await learnedIndexFor(built.payload));
  const queries = test.map((row) => sanitize(model, tokenize(row.text).tokens).content).filter((t) => t.length > 0);
  const builds = cliBuildFigures(repoRoot, dir, join(mkdtempSync(join(tmpdir(), "ndfc-bench-")), "banking77.npc"), 3);
  const wordnetBuild = compileNpc(lint.ir, { lexicalExpansion: wordnetExpansion });
  return {
    threshold: built.payload.config.learnedThreshold,
    crossValidation: built.summary.learned,
    ...(await banking77Quality(built, npc, test)),
    // --wordnet: its relatives reach the lexical stage only (compile.ts), so the model is the same.
    withWordnet: { bundleBytes: wordnetBuild.bytes.length, ...(await banking77Quality(wordnetBuild, await loadNpc(wordnetBuild.bytes), test)) },
    latencyUs: {
      learnedStage: singleCalls(queries, (tokens: Token[]) => model.learned!.score(tokens)),
      wholeAnswer: singleCalls(test.map((r) => r.text), (message) => npc.session().process(message)),
    },
    cliBuild: builds,
    learnedShipped: built.summary.learnedShipped,
    learnedNote: built.summary.learnedNote,
    bundleBytes: { learned: built.bytes.length, lexicalOnly: compileNpc(withMatcher(lint, "lexical").ir).bytes.length },
  };
}

function evalFigures(report: EvalReport) {
  return { cases: report.cases, correct: report.correct, reachable: report.reachable.cases, reachableAnswered: report.reachable.answered, reachableCorrect: report.reachable.correct, reachablePrecision: round(report.reachable.precision, 3) };
}

/** TERMy as built ("matcher": "auto" decides), and the learned stage's latency when forced. */
async function termy() {
  const lint = lintSources([termyDir]);
  const built = compileNpc(lint.ir);
  const npc = await loadNpc(built.bytes);
  const forced = compileNpc(withMatcher(lint, "learned").ir);
  const model = new NpcModel(forced.payload, await learnedIndexFor(forced.payload));
  const evalFile = join(termyDir, "dataset/eval.json");
  const cases = parseCases(readFileSync(evalFile, "utf8"), evalFile);
  const report = evaluate(npc, cases);
  const forcedReport = evaluate(await loadNpc(forced.bytes), cases);
  const prompts = (JSON.parse(readFileSync(evalFile, "utf8")) as { input: string | string[] }[]).flatMap((b) => [b.input].flat());
  const queries = prompts.map((m) => sanitize(model, tokenize(m).tokens).content).filter((t) => t.length > 0);
  return {
    threshold: built.payload.config.learnedThreshold,
    crossValidation: built.summary.learned,
    eval: evalFigures(report),
    evalLearnedForced: evalFigures(forcedReport),
    learnedForcedCrossValidation: forced.summary.learned,
    learnedShipped: built.summary.learnedShipped,
    learnedNote: built.summary.learnedNote,
    latencyUs: { learnedStageForced: singleCalls(queries, (tokens: Token[]) => model.learned!.score(tokens)) },
    bundleBytes: { asBuilt: built.bytes.length, learnedForced: forced.bytes.length },
  };
}

async function main(): Promise<void> {
  if (!hasBanking77(corpusBeside(repoRoot))) throw new Error("Banking77 corpus not found beside the repository (../shared/corpus/banking77)");
  if (!existsSync(join(termyDir, "config.json"))) throw new Error(`NPC-Forge corpus not found at ${termyDir}`);
  const learned = { banking77: await banking77(), termy: await termy(), machine: { loadAverage1m: round(loadavg()[0]!, 2) } };
  const file = join(repoRoot, "bench/results/matching.json");
  const results = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  results.learned = learned;
  writeFileAtomic(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(learned, null, 2));
  console.log(`bench: wrote the learned section of ${file}`);
}

await main();
