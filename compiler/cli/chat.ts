// `ndfc chat <bundle>`: a conversation in the terminal (node:readline: line editing, history).
// Each turn goes through NpcHost (compiler/serve/host.ts), so chat behaves like serve: teach
// messages, taught words, yes/no confirmations, one audit row per message in the store.
//
//   /reset            start a new conversation (context and counts cleared)
//   /explain          show how the last answer was reached; /explain on|off: after every answer
//   /help             these commands
//   /quit or Ctrl-D   leave
//
// With --exec, `run_in_terminal` commands run with /bin/sh -c (their output shown), after a y/N
// confirmation whenever the answer's permission is `ask`. With --escalate, what the NPC rejects
// goes to a local model first (compiler/escalate/), as in serve.
import { spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { explain } from "../../runtime/explain.js";
import type { NpcResponse } from "../../runtime/index.js";
import { NpcHost, type ServeAnswer } from "../serve/host.js";
import { formatExplanation } from "./format-trace.js";
import type { RegisterCommand } from "./program.js";
import { parseSeed } from "./parse-options.js";
import { loadBundleFile } from "./read-bundle.js";
import { noStoreOption, openOptionalStore, optionalStoreOption } from "./store-options.js";
import { addEscalationOptions, ESCALATION_HELP, loadEscalation, type EscalationCliOptions } from "./escalate-options.js";
import { toolCallParts, toolCommand } from "../../runtime/tool-call.js";

interface ChatCliOptions extends EscalationCliOptions {
  seed?: number;
  user?: string;
  exec?: boolean;
  /** A path, or false for --no-store. */
  store?: string | false;
}

interface ChatStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface ChatOptions extends ChatStreams {
  host: NpcHost;
  name: string;
  exec: boolean;
  colour: boolean;
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

  constructor(private readonly rl: Interface) {
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

  next(prompt: string): Promise<string | null> {
    const queued = this.queue.shift();
    if (this.closed && queued === undefined) return Promise.resolve(null);
    // The prompt shows even for a line typed (or piped) ahead: a y/N question is always visible.
    this.rl.setPrompt(prompt);
    this.rl.prompt();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((done) => (this.waiting = done));
  }
}

function commandOf(tool: Record<string, unknown>): string | null {
  return toolCallParts(tool).name === "run_in_terminal" ? toolCommand(tool) : null;
}

/** Runs a command with /bin/sh -c, copying its output; resolves to its exit code. */
function runCommand(command: string, output: NodeJS.WritableStream): Promise<number> {
  return new Promise((done) => {
    const child = spawn("/bin/sh", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => output.write(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.write(chunk));
    child.on("error", () => done(127));
    child.on("close", (code) => done(code ?? 1));
  });
}

async function runChat(options: ChatOptions): Promise<void> {
  const { host, output, name } = options;
  const c = palette(options.colour);
  const rl = createInterface({ input: options.input, output, terminal: Boolean(output.isTTY), historySize: 1000 });
  rl.on("SIGINT", () => rl.close()); // Ctrl-C leaves like Ctrl-D
  const lines = new LineReader(rl);
  const write = (text: string) => void output.write(text.endsWith("\n") ? text : `${text}\n`);
  let session = host.openSession(null);
  let last: NpcResponse | null = null;
  let autoExplain = false;
  write(c.dim(`Talking to ${name}. ${HELP}`));
  for (;;) {
    const line = await lines.next(c.bold("you> "));
    if (line === null) break;
    const message = line.trim();
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
    const answer: ServeAnswer = await host.reply(null, session, message, { explain });
    if (answer.status === "rejected" || answer.intent !== null) last = answer as NpcResponse;
    showAnswer(answer, name, write, c);
    if (autoExplain && answer.trace) write(c.dim(formatExplanation(answer as NpcResponse)));
    if (options.exec) await execute(answer, lines, write, output, c);
  }
  rl.close();
  write(c.dim("bye"));
}

function showAnswer(answer: ServeAnswer, name: string, write: (text: string) => void, c: ReturnType<typeof palette>): void {
  if (answer.response !== "") write(`${c.cyan(`${name}>`)} ${answer.response}`);
  for (const tool of answer.tools) {
    const { name, arguments: args } = toolCallParts(tool);
    write(`  ${c.yellow(`[${name ?? "tool"}]`)} ${commandOf(tool) ?? JSON.stringify(args ?? {})}`);
  }
  for (const related of answer.related) write(`  - ${related.example ?? related.intent}`);
  if (answer.notice) write(c.dim(`  (${answer.notice})`));
  const facts = [answer.status, `confidence ${answer.confidence}`];
  if (answer.tools.length > 0) facts.push(`permission ${answer.permission}`);
  if (answer.escalation) facts.push(`asked ${answer.escalation.model}: ${answer.escalation.outcome}`);
  write(c.dim(`  [${facts.join(" · ")}] ${answer.emoji}`));
}

async function execute(answer: ServeAnswer, lines: LineReader, write: (text: string) => void, output: NodeJS.WritableStream, c: ReturnType<typeof palette>): Promise<void> {
  for (const tool of answer.tools) {
    const command = commandOf(tool);
    if (command === null) continue;
    if (answer.permission === "ask") {
      const reply = await lines.next(`${c.red("run")} ${command} ? [y/N] `);
      if (reply === null || !/^y(es)?$/i.test(reply.trim())) {
        write(c.dim("  (not run)"));
        continue;
      }
    }
    const code = await runCommand(command, output);
    if (code !== 0) write(c.red(`  (exit status ${code})`));
  }
}

export const registerChat: RegisterCommand = (program, io) => {
  const command = program
    .command("chat")
    .description("talk to a .npc bundle in the terminal")
    .argument("<bundle>", "a .npc file")
    .option("--seed <n>", "seed of the variant choices (default 0)", parseSeed)
    .option("--user <name>", "value of <||username||> (default: user)")
    .option("--exec", "run run_in_terminal commands with /bin/sh -c (asks first when the permission is ask)")
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
      const host = new NpcHost(npc, store, 4, { seed: options.seed ?? 0, metadata }, escalation?.(npc) ?? null);
      const output = process.stdout;
      const colour = Boolean(output.isTTY) && (process.env.NO_COLOR ?? "") === "";
      try {
        await runChat({ host, name: npc.name, exec: options.exec === true, colour, input: process.stdin, output });
      } finally {
        store?.close();
      }
    });
};
