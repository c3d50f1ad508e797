// `ndfc ask`: answer one message with a bundle (a fresh session), as text or as the whole JSON response.
import type { NpcResponse } from "../../runtime/index.js";
import { formatExplanation } from "./format-trace.js";
import { parseSeed } from "./parse-options.js";
import { loadBundleFile } from "./read-bundle.js";
import type { RegisterCommand } from "./io.js";
import { preferPackagedRuntime } from "./runtime.js";
// Pure functions of an answer's plain JSON (no class, no state): either runtime's answers read the same.
import { toolCallParts, toolCommand } from "../../runtime/render/tool-call.js";

interface AskOptions {
  json?: boolean;
  seed?: number;
  user?: string;
  host?: string;
  explain?: boolean;
}

/** The answer as a person reads it: the response, each tool call and its permission, suggestions, notices. */
function formatAnswer(answer: NpcResponse): string {
  const lines = [answer.response];
  for (const tool of answer.tools) {
    const { name, arguments: args } = toolCallParts(tool);
    lines.push(`[${name ?? "tool"}] ${toolCommand(tool) ?? JSON.stringify(args ?? {})}`);
  }
  if (answer.tools.length > 0) lines.push(`[permission] ${answer.permission}`);
  for (const related of answer.related) lines.push(`  - ${related.example ?? related.intent}`);
  if (answer.notice) lines.push(`(${answer.notice})`);
  return lines.filter((line) => line !== "").join("\n") + "\n";
}

export const registerAsk: RegisterCommand = (program, io) => {
  program
    .command("ask")
    .description("answer one message with a .npc bundle")
    .argument("<bundle>", "a .npc file")
    .argument("<message...>", "the message (words are joined with spaces)")
    .option("--json", "print the whole response object as JSON")
    .option("--seed <n>", "seed of the variant choices (default 0)", parseSeed)
    .option("--user <name>", "value of <||username||> (default: user)")
    .option("--host <name>", "value of <||computer_name||> (default: localhost)")
    .option("--explain", "also print how the answer was reached: each stage tried, candidates, scores, the decision")
    .action(async (file: string, words: string[], options: AskOptions) => {
      // An ask hands the bundle to nothing else: the packaged runtime, the quickest to import.
      const runtime = await preferPackagedRuntime();
      const { npc } = await loadBundleFile(file, io.cwd);
      const metadata: Record<string, string> = {};
      if (options.user !== undefined) metadata.username = options.user;
      if (options.host !== undefined) metadata.computer_name = options.host;
      const session = npc.session({ seed: options.seed ?? 0, metadata });
      // The explain entry (and the lexer it brings) is loaded only when asked for: start-up is most of an ask.
      const explain = options.explain === true && (await runtime.loadExplain());
      const answer = session.process(words.join(" "), { explain });
      if (options.json) io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
      else io.stdout(formatAnswer(answer) + formatExplanation(answer));
    });
};
