// `ndfc sample NPC`: the sentences each template accepts (hassil's `sample`), for authors checking
// what they wrote, each asked of the built NPC so a sentence another intent answers is flagged.
import { resolve } from "node:path";
import type { Intent, NpcIR } from "../ir/types.js";
import { allIntents } from "../ir/walk.js";
import type { Placeholder } from "../sample/sample-sentences.js";
import { CliError, EXIT_FAILED, EXIT_USAGE } from "./errors.js";
import { displayPath } from "./format-diagnostics.js";
import { countParser } from "./parse-options.js";
import type { RegisterCommand } from "./io.js";

interface SampleOptions {
  intent?: string;
  count: number;
  json?: boolean;
  check?: boolean;
}

interface SampleLine {
  text: string;
  placeholders: Placeholder[];
  /** Who the built NPC says answers it; absent when the NPC could not be built (lint errors). */
  answered?: { intent: string | null; status: string };
}

interface IntentSamples {
  intent: string;
  at: string;
  sentences: SampleLine[];
}

function chosenIntents(ir: NpcIR, wanted: string | undefined): Intent[] {
  const intents = allIntents(ir);
  if (wanted === undefined) return intents.filter((intent) => intent.paths.length > 0);
  const found = intents.find((intent) => intent.id === wanted);
  if (found) return [found];
  const near = intents.filter((i) => i.id.includes(wanted) || wanted.includes(i.id)).map((i) => i.id).slice(0, 5);
  const hint = near.length > 0 ? `; did you mean ${near.join(", ")}?` : "; ndfc sample NPC without --intent lists every template intent";
  throw new CliError(`no intent "${wanted}" in this NPC${hint}`, EXIT_USAGE);
}

function formatText(groups: readonly IntentSamples[]): string {
  const lines: string[] = [];
  for (const group of groups) {
    lines.push(`${group.intent}  (${group.at})`);
    const width = Math.max(0, ...group.sentences.map((s) => s.text.length));
    for (const sentence of group.sentences) {
      const note = verdictNote(group.intent, sentence);
      lines.push(`  ${note === "" ? sentence.text : `${sentence.text.padEnd(width)}  ← ${note}`}`);
    }
    if (group.sentences.length === 0) lines.push("  (no sentence: a required node has no value to offer)");
  }
  return lines.join("\n") + "\n";
}

function verdictNote(intent: string, sentence: SampleLine): string {
  const notes: string[] = [];
  for (const { slot, reason } of sentence.placeholders) notes.push(`<${slot}>: ${reason}`);
  const answered = sentence.answered;
  if (answered && answered.intent !== intent && sentence.placeholders.length === 0) {
    notes.push(answered.intent === null ? "rejected by the built NPC" : `answered by ${answered.intent} (${answered.status}): shadowed`);
  }
  return notes.join("; ");
}

const mismatched = (group: IntentSamples) => group.sentences.filter((s) => s.answered !== undefined && s.answered.intent !== group.intent && s.placeholders.length === 0);

export const registerSample: RegisterCommand = (program, io, exitCode) => {
  program
    .command("sample")
    .description("list sentences each template accepts, each checked against the built NPC")
    .argument("<npc>", "an NPC directory or a rule DSL file (sources, not a bundle: sampling needs the synonyms and the regexes)")
    .option("--intent <id>", "only this intent (an entry's exact inputs, or a template's sentences)")
    .option("-n, --count <n>", "at most n sentences per intent", countParser("-n must be a whole number ≥ 1", 1), 10)
    .option("--json", "print [{intent, at, sentences: [{text, placeholders: [{slot, reason}], answered: {intent, status}}]}]")
    .option("--check", "exit 1 when the built NPC answers a sampled sentence with another intent (or rejects it)")
    .addHelpText(
      "after",
      `
Sentences come in a fixed order, the same every run: one from each path of a template before a
second from any, the last node varying fastest. A vocab node offers each synonym, an optional node
is written then left out, a list its spoken forms, a number range its bounds, a typed slot one
token its regex accepts (notes.txt, 42, /tmp/notes.txt…; <slot>, with the reason, when none
fits or the type is undefined; such sentences are not judged).
Each sentence is asked of the NPC built from these sources (a follow-up after its parents' first
phrasing); "← answered by X: shadowed" means an earlier template, an exact input or the learned
stage wins that sentence. Exit codes: 0, 1 with --check when a sentence is answered otherwise or
the sources have lint errors, 2 usage or I/O errors.

Examples:
  ndfc sample datasets/termy -n 3                    three sentences per template
  ndfc sample datasets/termy --intent files_delete   what files_delete accepts
  ndfc sample datasets/mybot --check                 in CI: every sampled sentence reaches its own intent`,
    )
    .action(async (npc: string, options: SampleOptions) => {
      const [{ lintForCli }, { Sampler }, { sampleAnswerer }] = await Promise.all([
        import("./lint-sources.js"),
        import("../sample/sample-sentences.js"),
        import("../sample/answer-samples.js"),
      ]);
      const lint = lintForCli([resolve(io.cwd, npc)]);
      const intents = chosenIntents(lint.ir, options.intent);
      const sampler = new Sampler(lint.ir);
      const sentencesOf = (intent: Intent) =>
        intent.paths.length > 0 ? sampler.sample(intent, options.count) : intent.inputs.slice(0, options.count).map((input) => ({ text: input.value, placeholders: [] }));
      const errors = lint.diagnostics.filter((d) => d.severity === "error").length;
      const answerer = errors === 0 ? await sampleAnswerer(lint.ir, (intent) => intent.inputs[0]?.value ?? sentencesOf(intent)[0]?.text) : null;
      const groups: IntentSamples[] = intents.map((intent) => ({
        intent: intent.id,
        at: `${displayPath(intent.loc.file, io.cwd)}:${intent.loc.line}:${intent.loc.column}`,
        sentences: sentencesOf(intent).map((s) => (answerer ? { ...s, answered: answerer.answer(intent, s.text) } : s)),
      }));
      io.stdout(options.json ? `${JSON.stringify(groups, null, 2)}\n` : formatText(groups));
      if (errors > 0) io.stderr(`not checked against the built NPC: the sources have ${errors} lint error(s) (ndfc lint ${npc} shows them)\n`);
      const wrong = groups.reduce((sum, group) => sum + mismatched(group).length, 0);
      if (wrong > 0) io.stderr(`${wrong} sampled sentence(s) answered by another intent or rejected\n`);
      if (options.check && (wrong > 0 || errors > 0)) exitCode.value = EXIT_FAILED;
    });
};
