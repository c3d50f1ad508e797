// `ndfc chat <bundle>`: a conversation in the terminal (node:readline: line editing, history).
// Each turn goes through NpcHost (compiler/serve/host.ts), so chat behaves like serve: teach
// messages, taught words, yes/no confirmations, one audit row per message in the store.
//
//   /reset            start a new conversation (context and counts cleared)
//   /explain          show how the last answer was reached; /explain on|off: after every answer
//   /help             these commands
//   /quit or Ctrl-D   leave
//
// After a rejection with suggestions, typing a suggestion's number sends its example.
// With --exec, `run_in_terminal` commands run in one /bin/sh for the whole chat (shell-session.ts:
// what a step sets is there for the next), shown first as a numbered plan when there are several,
// after one y/N confirmation whenever the answer's permission is `ask`; a failing step stops the
// rest. With --json, each answer is one JSON line and nothing else is printed (no banner, no
// prompts); prompts are also left out whenever stdin is not a terminal. With --escalate, what the
// NPC rejects goes to a local model first (compiler/escalate/), as in serve.
import { createInterface, type Interface } from "node:readline";
import { explain } from "../../runtime/explain.js";
import type { NpcResponse } from "../../runtime/index.js";
import { NpcHost, type ServeAnswer } from "../serve/host.js";
import { formatExplanation } from "./format-trace.js";
import type { RegisterCommand } from "./io.js";
import { parseSeed } from "./parse-options.js";
import { loadBundleFile } from "./read-bundle.js";
import { noStoreOption, openOptionalStore, optionalStoreOption } from "./store-options.js";
import { addEscalationOptions, ESCALATION_HELP, loadEscalation, type EscalationCliOptions } from "./escalate-options.js";
import { toolCallParts, toolCommand } from "../../runtime/render/tool-call.js";
import { ShellSession } from "./shell-session.js";

interface ChatCliOptions extends EscalationCliOptions {
  seed?: number;
  user?: string;
  exec?: boolean;
  json?: boolean;
  /** A path, or false for --no-store. */
  store?: string | false;
}

interface ChatStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface ChatOptions extends ChatStreams {
  host: NpcHost;
  name: string;
  exec: boolean;
  colour: boolean;
  /** One JSON answer per line, nothing else. */
  json?: boolean;
}

const HELP = `Commands: /reset (new conversation), /explain (how the last answer was reached; /explain on|off after every answer), /help, /quit (or Ctrl-D).`;

/** Colours for a TTY; plain text otherwise or with NO_COLOR. */
function palette(on: boolean) {
  const wrap = (code: string) => (text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { dim: wrap("2"), bold: wrap("1"), green: wrap("32"), yellow: wrap("33"), red: wrap("31"), cyan: wrap("36") };
}

/** Lines from readline, one at a time (a prompt for each). null once the input ends. */
class LineReader {
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private closed = false;

  constructor(
    private readonly rl: Interface,
    /** Whether the `you>` prompt is shown (a person at a terminal). */
    private readonly prompts: boolean,
    /** Whether nothing but answers may be printed (--json). */
    private readonly quiet: boolean,
  ) {
    rl.on("line", (line) => {
      if (this.waiting) {
        const done = this.waiting;
        this.waiting = null;
        done(line);
      } else this.queue.push(line);
    });
    rl.on("close", () => {
      this.closed = true;
      this.waiting?.(null);
      this.waiting = null;
    });
  }

  /** The next line; `prompt` shows on a terminal, or always when `always` (a y/N question). */
  next(prompt: string, always = false): Promise<string | null> {
    const queued = this.queue.shift();
    if (this.closed && queued === undefined) return Promise.resolve(null);
    // The prompt shows even for a line typed (or piped) ahead: a y/N question is always visible.
    if (this.prompts || (always && !this.quiet)) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    }
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((done) => (this.waiting = done));
  }
}

function commandOf(tool: Record<string, unknown>): string | null {
  return toolCallParts(tool).name === "run_in_terminal" ? toolCommand(tool) : null;
}

/** The example a number picks among the last rejection's suggestions ("2"), or null. */
function pickedSuggestion(message: string, last: NpcResponse | null): string | null {
  if (!/^\d{1,2}$/.test(message) || last?.status !== "rejected") return null;
  const picked = last.related[Number(message) - 1];
  return picked ? (picked.example ?? null) : null;
}

async function runChat(options: ChatOptions): Promise<void> {
  const { host, output, name } = options;
  const c = palette(options.colour);
  const json = options.json === true;
  const interactive = !json && Boolean(options.input.isTTY);
  const rl = createInterface({ input: options.input, output, terminal: interactive && Boolean(output.isTTY), historySize: 1000 });
  rl.on("SIGINT", () => rl.close()); // Ctrl-C leaves like Ctrl-D
  const lines = new LineReader(rl, interactive, json);
  const write = (text: string) => void (json || output.write(text.endsWith("\n") ? text : `${text}\n`));
  const shell = options.exec ? new ShellSession(output) : null;
  let session = host.openSession(null);
  let last: NpcResponse | null = null;
  let autoExplain = false;
  write(c.dim(`Talking to ${name}. ${HELP}`));
  for (;;) {
    const line = await lines.next(c.bold("you> "));
    if (line === null) break;
    const typed = line.trim();
    const message = pickedSuggestion(typed, last) ?? typed;
    if (message === "") continue;
    if (message === "/quit" || message === "/exit") break;
    if (message === "/help") {
      write(HELP);
      continue;
    }
    if (message === "/reset") {
      session = host.openSession(null);
      last = null;
      write(c.dim("(new conversation: context and counts cleared)"));
      continue;
    }
    if (message.startsWith("/explain")) {
      const arg = message.slice("/explain".length).trim();
      if (arg === "on" || arg === "off") {
        autoExplain = arg === "on";
        write(c.dim(`(explain after every answer: ${arg})`));
      } else write(last?.trace ? formatExplanation(last) : c.dim("(nothing to explain yet)"));
      continue;
    }
    if (message.startsWith("/")) {
      write(c.dim(`(unknown command ${message.split(/\s/, 1)[0]}) ${HELP}`));
      continue;
    }
    const answer: ServeAnswer = await host.reply(null, session, message, json ? {} : { explain });
    if (answer.status === "rejected" || answer.intent !== null) last = answer as NpcResponse;
    if (json) output.write(`${JSON.stringify(answer)}\n`);
    else showAnswer(answer, name, write, c);
    if (autoExplain && answer.trace) write(c.dim(formatExplanation(answer as NpcResponse)));
    if (shell) await execute(answer, shell, lines, write, c);
  }
  rl.close();
  shell?.close();
  write(c.dim("bye"));
}

function showAnswer(answer: ServeAnswer, name: string, write: (text: string) => void, c: ReturnType<typeof palette>): void {
  if (answer.response !== "") write(`${c.cyan(`${name}>`)} ${answer.response}`);
  for (const tool of answer.tools) {
    const { name, arguments: args } = toolCallParts(tool);
    write(`  ${c.yellow(`[${name ?? "tool"}]`)} ${commandOf(tool) ?? JSON.stringify(args ?? {})}`);
  }
  answer.related.forEach((related, i) => write(`  ${i + 1}. ${related.example ?? related.intent}`));
  if (answer.related.length > 0) write(c.dim("  (type a number to pick one)"));
  if (answer.notice) write(c.dim(`  (${answer.notice})`));
  const facts = [answer.status, `confidence ${answer.confidence}`];
  if (answer.tools.length > 0) facts.push(`permission ${answer.permission}`);
  if (answer.escalation) facts.push(`asked ${answer.escalation.model}: ${answer.escalation.outcome}`);
  write(c.dim(`  [${facts.join(" · ")}] ${answer.emoji}`));
}

/**
 * Runs the answer's commands in the chat's shell: several are shown once as a numbered plan, one
 * y/N covers them all when the answer asks, and a failing step stops the rest.
 */
async function execute(answer: ServeAnswer, shell: ShellSession, lines: LineReader, write: (text: string) => void, c: ReturnType<typeof palette>): Promise<void> {
  const commands = answer.tools.map(commandOf).filter((command): command is string => command !== null);
  if (commands.length === 0) return;
  if (commands.length > 1) write(`${c.bold("plan:")}\n${commands.map((command, i) => `  ${i + 1}. ${command}`).join("\n")}`);
  if (answer.permission === "ask") {
    // The commands were shown with the answer (or as the plan): the question does not repeat them.
    const what = commands.length > 1 ? `these ${commands.length} steps` : "it";
    const reply = await lines.next(`${c.red("run")} ${what}? [y/N] `, true);
    if (reply === null || !/^y(es)?$/i.test(reply.trim())) return write(c.dim("  (not run)"));
  }
  for (const [i, command] of commands.entries()) {
    const code = await shell.run(command);
    if (code === 0) continue;
    const ran = commands.length > 1 ? `step ${i + 1} of ${commands.length} failed, ${i} ran before it and the rest did not run: ` : "";
    write(c.red(`  (${ran}exit status ${code})`));
    return;
  }
  if (commands.length > 1) write(c.dim(`  (${commands.length} steps ran)`));
}

export const registerChat: RegisterCommand = (program, io) => {
  const command = program
    .command("chat")
    .description("talk to a .npc bundle in the terminal")
    .argument("<bundle>", "a .npc file")
    .option("--seed <n>", "seed of the variant choices (default 0)", parseSeed)
    .option("--user <name>", "value of <||username||> (default: user)")
    .option("--exec", "run run_in_terminal commands in one /bin/sh kept for the whole chat (asks first when the permission is ask)")
    .option("--json", "print each answer as one JSON line, and nothing else (for scripts)")
    .addOption(optionalStoreOption())
    .addOption(noStoreOption());
  addEscalationOptions(command)
    .addHelpText("after", ESCALATION_HELP)
    .action(async (file: string, options: ChatCliOptions) => {
      const escalation = await loadEscalation(options);
      const { npc } = await loadBundleFile(file, io.cwd);
      const store = openOptionalStore(options.store, io.cwd);
      const metadata: Record<string, string> = {};
      if (options.user !== undefined) metadata.username = options.user;
      const host = new NpcHost(npc, store, 4, { seed: options.seed ?? 0, metadata }, escalation?.(npc) ?? null, true);
      const output = process.stdout;
      const colour = Boolean(output.isTTY) && (process.env.NO_COLOR ?? "") === "";
      try {
        await runChat({ host, name: npc.name, exec: options.exec === true, json: options.json === true, colour, input: process.stdin, output });
      } finally {
        store?.close();
      }
    });
};
