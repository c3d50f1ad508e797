// The --escalate options of `serve` and `chat`, and loading the escalation they ask for. The
// escalation's code (compiler/escalate/escalator.ts and its imports) is imported here, and only
// here, with a dynamic import when --escalate is given: without it, starting costs nothing.
import { InvalidArgumentError, Option, type Command } from "commander";
import type { Npc } from "../../runtime/index.js";
import type { Escalation, EscalationApi } from "../escalate/types.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import { fractionParser } from "./parse-options.js";

export interface EscalationCliOptions {
  escalate?: string;
  escalateApi: EscalationApi;
  escalateModel?: string;
  /** Milliseconds. */
  escalateTimeout: number;
  escalateBelow: number;
}

const APIS: readonly EscalationApi[] = ["openai", "ollama"];
const MAX_TIMEOUT_SECONDS = 600;

function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_SECONDS) {
    throw new InvalidArgumentError(`expected seconds, more than 0 and at most ${MAX_TIMEOUT_SECONDS} (e.g. 3 or 0.5)`);
  }
  return Math.round(seconds * 1000);
}

function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError("expected the model server's URL, e.g. http://127.0.0.1:11434");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError(`expected an http:// or https:// URL (got ${url.protocol})`);
  return value;
}

export function addEscalationOptions(command: Command): Command {
  return command
    .option("--escalate <url>", "on a rejection or a low-confidence guess, ask a local model at this URL to pick one of the NPC's actions (off by default)", parseUrl)
    .addOption(new Option("--escalate-api <api>", "the API the model server speaks").choices(APIS).default("openai"))
    .option("--escalate-model <name>", "the model to ask (e.g. llama3.2); required with --escalate")
    .option("--escalate-timeout <seconds>", "give up on the model after this long (both tries)", parseTimeout, 3000)
    .option("--escalate-below <confidence>", "a guess under this confidence is escalated too", fractionParser("expected a number between 0 and 1"), 0.8);
}

export const ESCALATION_HELP = `
Escalation (off by default):
  --escalate URL sends what the NPC rejects, or guesses under --escalate-below, to a local model
  (--escalate-api openai: URL/v1/chat/completions; ollama: URL/api/chat) with a JSON Schema that
  admits only the NPC's actions and their slots, or "none". Its answer is checked (known action,
  slot values typed and taken from the message); an invalid one gets one retry, then "couldn't
  resolve". No answer within --escalate-timeout: "couldn't resolve, and the model is unavailable".
  An answer says status "escalated" and the model; a destructive action always asks. Confirmed
  ("yes", /api/confirm), a slot-less answer is learned as a provisional input of its action,
  trusted once 2 other confirmers agree (3 with the learner), folded by build --taught. ndfc audit --tier escalated lists them.`;

/** The escalation of each NPC, or undefined without --escalate. Loads the escalation code only then. */
export async function loadEscalation(options: EscalationCliOptions): Promise<((npc: Npc) => Escalation) | undefined> {
  if (options.escalate === undefined) return undefined;
  if (options.escalateModel === undefined || options.escalateModel.trim() === "") {
    throw new CliError("--escalate needs --escalate-model NAME: the model the server should run (e.g. llama3.2)", EXIT_USAGE);
  }
  const { createEscalation } = await import("../escalate/escalator.js");
  const settings = { url: options.escalate, api: options.escalateApi, model: options.escalateModel, timeoutMs: options.escalateTimeout, below: options.escalateBelow };
  return (npc) => createEscalation(npc, settings);
}
