// Arguments that a program runs as code: the script of `sh -c`, `python -c`, `eval`, an awk
// program, a sed script, a remote ssh command. Single quotes keep a value away from the shell,
// but a value placed in one of these becomes code for another interpreter (`sed 's/x/y/e'`,
// awk's system(), a second shell). The arguments after such a script stay data (`sh -c '…' _ "$v"`).
import type { WordToken } from "./shell-lexer.js";
import { isOption, staticText, takesNextWord, type Invocation } from "./commands.js";
import { NATIVE_BINARIES } from "./native-binaries.js";

export interface CodeWord {
  word: WordToken;
  /** What runs it, for messages: "sh -c", "sed's script", … */
  runner: string;
}

/** Interpreters whose code is the value of one option. */
const CODE_OPTION = new Map<string, string>(Object.entries({
  sh: "-c", bash: "-c", zsh: "-c", dash: "-c", ksh: "-c", su: "-c",
  python: "-c", python3: "-c", node: "-e", perl: "-e", ruby: "-e", php: "-r",
}));
const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);

export function codeWords(source: string, invocation: Invocation): CodeWord[] {
  const { program, args } = invocation;
  if (program === undefined) return [];
  const texts = args.map((word) => staticText(source, word));
  const option = CODE_OPTION.get(program);
  if (option) {
    const at = texts.findIndex((text) => text === option || (text !== undefined && /^-[a-z]+$/.test(text) && text.endsWith(option.slice(1))));
    const word = at >= 0 ? args[at + 1] : undefined;
    return word ? [{ word, runner: `${program} ${option}` }] : [];
  }
  if (program === "eval") return args.map((word) => ({ word, runner: "eval" }));
  if (program === "watch") return operands(texts, "ndq").map((i) => ({ word: args[i]!, runner: "watch (it runs its arguments with sh -c)" }));
  if (program === "sed") return scriptWords(args, texts, "efl", "-e", "-f", "sed's script (its e command runs shell commands)");
  if (AWKS.has(program)) return scriptWords(args, texts, "vfFE", "--source", "-f", `${program}'s program (system() runs shell commands)`);
  if (program === "ssh") {
    const [host, ...command] = operands(texts, NATIVE_BINARIES.get("ssh")!);
    return host === undefined ? [] : command.map((i) => ({ word: args[i]!, runner: "ssh (the remote shell runs it)" }));
  }
  return [];
}

/** `-e SCRIPT` values when given, else the first operand (unless a script file is given). */
function scriptWords(args: WordToken[], texts: (string | undefined)[], valueOptions: string, scriptOption: string, fileOption: string, runner: string): CodeWord[] {
  const given = texts.flatMap((text, i) => (text === scriptOption && args[i + 1] ? [args[i + 1]!] : []));
  if (given.length > 0) return given.map((word) => ({ word, runner }));
  if (texts.includes(fileOption)) return [];
  const first = operands(texts, valueOptions)[0];
  return first === undefined ? [] : [{ word: args[first]!, runner }];
}

/** Indexes of the words that are operands, skipping options and their values, up to `--`. */
function operands(texts: (string | undefined)[], valueOptions: string): number[] {
  const out: number[] = [];
  let optionsEnded = false;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    if (!optionsEnded && text === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && text !== undefined && isOption(text)) {
      if (takesNextWord(text, valueOptions)) i++;
      continue;
    }
    out.push(i);
  }
  return out;
}
