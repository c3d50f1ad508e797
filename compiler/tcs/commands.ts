// From tokens to simple commands: splits a lexed shell script at its control operators, skips the
// reserved words of compound commands (if/for/case/while…), and sees through wrappers (sudo, env…,
// keeping the ones it passed) and `find -exec`, so that the TCS rules can ask "which program
// receives this word, and where", and the destructive check "under which wrappers".
import {
  firstPlaceholder,
  unquoteStatic,
  type LexedCommand,
  type OperatorToken,
  type Script,
  type Token,
  type WordPart,
  type WordToken,
} from "./shell-lexer.js";

export interface Redirect {
  op: OperatorToken;
  target?: WordToken;
}

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  assignments: WordToken[];
  /** The command name and its arguments, in order (redirections excluded). */
  words: WordToken[];
  redirects: Redirect[];
}

/** A simple command seen through its wrappers: `sudo rm -f x` runs `rm` with `-f x`. */
export interface Invocation {
  /** The program's name as written (without a directory), when it is a static word. */
  program?: string;
  nameWord: WordToken;
  args: WordToken[];
  command: SimpleCommand;
  /** The wrappers the program runs under, outermost first: `nohup sudo rm x` → nohup, sudo. */
  wrappers: Wrapper[];
}

/** A wrapper program passed on the way to the program a command runs. */
export interface Wrapper {
  program: string;
  word: WordToken;
}

const RESERVED_PREFIXES = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "time", "esac"]);
const CONTROL_OPERATORS = new Set([";", "&&", "||", "|", "|&", "&", "\n", "(", ")", ";;", ";&", ";;&"]);
const CASE_ITEM_ENDS = new Set([";;", ";&", ";;&"]);
const ASSIGNMENT = /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/;

/** Every simple command of the script, substitutions and here-document expansions included. */
export function simpleCommands(lexed: LexedCommand): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  collectCommands(lexed.source, lexed.script, out);
  return out;
}

type Mode = "command" | "case-subject" | "case-in" | "case-pattern" | "for-name" | "for-list" | "function-name";

function collectCommands(source: string, script: Script, out: SimpleCommand[]): void {
  let current: SimpleCommand = { assignments: [], words: [], redirects: [] };
  let mode: Mode = "command";
  const finish = (): void => {
    if (current.words.length + current.assignments.length + current.redirects.length > 0) out.push(current);
    current = { assignments: [], words: [], redirects: [] };
  };
  const tokens = script.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    visitNested(source, token, out);
    if (token.type === "heredoc") continue;
    if (token.type === "operator") {
      if (mode === "case-pattern") {
        if (token.op === ")") mode = "command";
        continue;
      }
      if (CONTROL_OPERATORS.has(token.op)) {
        finish();
        if (CASE_ITEM_ENDS.has(token.op)) mode = "case-pattern";
        else if (mode === "for-list" || mode === "for-name") mode = "command";
        continue;
      }
      const next = tokens[i + 1];
      const redirect: Redirect = { op: token };
      if (next?.type === "word") {
        redirect.target = next;
        visitNested(source, next, out);
        i++;
      }
      current.redirects.push(redirect);
      continue;
    }
    const text = staticText(source, token);
    switch (mode) {
      case "case-subject":
        mode = "case-in";
        continue;
      case "case-in":
        mode = text === "in" ? "case-pattern" : "command";
        continue;
      case "case-pattern":
        if (text === "esac") mode = "command";
        continue;
      case "for-name":
        mode = text === "in" ? "for-list" : "for-name";
        continue;
      case "for-list":
        if (text === "do") mode = "command";
        continue;
      case "function-name":
        mode = "command";
        continue;
      case "command":
        break;
    }
    if (current.words.length === 0) {
      if (text !== undefined && RESERVED_PREFIXES.has(text) && current.assignments.length === 0) continue;
      if (text === "case") {
        mode = "case-subject";
        continue;
      }
      if (text === "for" || text === "select") {
        mode = "for-name";
        continue;
      }
      if (text === "function") {
        mode = "function-name";
        continue;
      }
      if (isAssignment(source, token)) {
        current.assignments.push(token);
        continue;
      }
    }
    current.words.push(token);
  }
  finish();
}

/**
 * Words where quoting a value only stops splitting and globbing of it: the arguments, assignments
 * and redirection targets of simple commands. Not the operands of `[[ … ]]`, case patterns or `for`
 * lists, where quoting turns a pattern into a literal or a list into one item.
 */
export function argumentWords(source: string, commands: readonly SimpleCommand[]): Set<WordToken> {
  const words = new Set<WordToken>();
  for (const command of commands) {
    if (command.words[0] && staticText(source, command.words[0]) === "[[") continue;
    [...command.words, ...command.assignments].forEach((word) => words.add(word));
    command.redirects.forEach((redirect) => redirect.target && words.add(redirect.target));
  }
  return words;
}

/** Commands inside a token's substitutions: `$( … )`, backticks, `<( … )`, also inside double quotes. */
function visitNested(source: string, token: Token, out: SimpleCommand[]): void {
  if (token.type === "operator") return;
  visitParts(source, token.parts, out);
}

function visitParts(source: string, parts: readonly WordPart[], out: SimpleCommand[]): void {
  for (const part of parts) {
    if (part.kind === "command" || part.kind === "process") collectCommands(source, part.script, out);
    else if (part.kind === "double") visitParts(source, part.parts, out);
  }
}

function isAssignment(source: string, word: WordToken): boolean {
  const first = word.parts[0];
  return first?.kind === "literal" && ASSIGNMENT.test(source.slice(first.start, word.end));
}

/** The text a word stands for when it holds no expansion and no placeholder; undefined otherwise. */
export function staticText(source: string, word: WordToken): string | undefined {
  const known = staticTexts.get(word);
  if (known !== undefined) return known ?? undefined;
  // A `<||tag||>` anywhere in the word, quoted or not: its value is only known at run time.
  const text = !isStaticParts(word.parts) || firstPlaceholder(source.slice(word.start, word.end)) !== undefined ? null : unquoteStatic(source, word.parts);
  staticTexts.set(word, text);
  return text ?? undefined;
}

/** The rules ask for the same words' text many times; a word's text never changes. */
const staticTexts = new WeakMap<WordToken, string | null>();

function isStaticParts(parts: readonly WordPart[]): boolean {
  return parts.every((part) =>
    part.kind === "literal" || part.kind === "escape" || part.kind === "single" || (part.kind === "double" && isStaticParts(part.parts)),
  );
}

/** How a wrapper program's own words end and the command it runs begins. */
interface WrapperSyntax {
  /** Short options whose value is the next word (`-u root`; `-uroot` carries its own). */
  valueOptions: string;
  /** Long options whose value is the next word unless written `--name=value`. */
  longValueOptions?: readonly string[];
  /** Its first operand is its own (timeout's duration), not the command. */
  skipsFirstOperand?: boolean;
  /** Options that make it look the command up instead of running it (`command -v x`). */
  lookupOptions?: readonly string[];
}

/** Wrapper programs that run their argument as a command. */
const WRAPPERS = new Map<string, WrapperSyntax>(Object.entries({
  sudo: { valueOptions: "acghpCDrRtTuU", longValueOptions: ["--auth-type", "--login-class", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--chroot", "--type", "--command-timeout", "--user", "--other-user"] },
  doas: { valueOptions: "uC" },
  env: { valueOptions: "uSC", longValueOptions: ["--unset", "--split-string", "--chdir"] },
  nohup: { valueOptions: "" },
  nice: { valueOptions: "n", longValueOptions: ["--adjustment"] },
  time: { valueOptions: "fo", longValueOptions: ["--format", "--output"] },
  command: { valueOptions: "", lookupOptions: ["-v", "-V"] },
  exec: { valueOptions: "a" },
  builtin: { valueOptions: "" },
  stdbuf: { valueOptions: "ioe", longValueOptions: ["--input", "--output", "--error"] },
  timeout: { valueOptions: "sk", longValueOptions: ["--signal", "--kill-after"], skipsFirstOperand: true },
  xargs: { valueOptions: "adEILnPs", longValueOptions: ["--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"] },
}));

/** The programs a simple command runs: itself seen through wrappers, plus `find … -exec cmd … ;`. */
export function invocationsOf(source: string, command: SimpleCommand): Invocation[] {
  const invocation = unwrap(source, command, command.words);
  if (!invocation) return [];
  const out = [invocation];
  if (invocation.program === "find") out.push(...findExecInvocations(source, command, invocation.args));
  return out;
}

export function isOption(text: string): boolean {
  return text.length > 1 && text.startsWith("-");
}

/** `-n` (or a cluster ending in it, `-An`) whose value is the next word; `-n5` carries its own. */
export function takesNextWord(option: string, valueOptions: string): boolean {
  if (option.startsWith("--")) return false;
  for (let i = 1; i < option.length; i++) {
    if (valueOptions.includes(option[i]!)) return i === option.length - 1;
  }
  return false;
}

function unwrap(source: string, command: SimpleCommand, words: WordToken[]): Invocation | undefined {
  const wrappers: Wrapper[] = [];
  let lastWrapperAt = -1;
  let index = 0;
  for (;;) {
    const nameWord = words[index];
    if (!nameWord) {
      // A wrapper given nothing to run is the program itself: `sudo -i` opens a root shell.
      const last = wrappers.pop();
      return last && { program: last.program, nameWord: last.word, args: words.slice(lastWrapperAt + 1), command, wrappers };
    }
    const name = staticText(source, nameWord);
    const program = name === undefined ? undefined : name.slice(name.lastIndexOf("/") + 1);
    const wrapper = program === undefined ? undefined : WRAPPERS.get(program);
    const lookup = wrapper?.lookupOptions?.includes(staticText(source, words[index + 1] ?? nameWord) ?? "");
    if (program === undefined || !wrapper || lookup) return { ...(program !== undefined ? { program } : {}), nameWord, args: words.slice(index + 1), command, wrappers };
    wrappers.push({ program, word: nameWord });
    lastWrapperAt = index;
    index = commandStart(source, words, index + 1, program, wrapper);
  }
}

/** The index of the first word after a wrapper's options, assignments (env) and own operand. */
function commandStart(source: string, words: readonly WordToken[], index: number, program: string, wrapper: WrapperSyntax): number {
  let operandSkipped = !wrapper.skipsFirstOperand;
  while (index < words.length) {
    const text = staticText(source, words[index]!);
    if (text === "--") return index + 1;
    if (text !== undefined && (isOption(text) || (program === "env" && text === "-"))) {
      index += takesNextWord(text, wrapper.valueOptions) || wrapper.longValueOptions?.includes(text) ? 2 : 1;
      continue;
    }
    if (program === "env" && text !== undefined && ASSIGNMENT.test(text)) {
      index++;
      continue;
    }
    if (!operandSkipped) {
      operandSkipped = true;
      index++;
      continue;
    }
    break;
  }
  return index;
}

const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function findExecInvocations(source: string, command: SimpleCommand, args: WordToken[]): Invocation[] {
  const out: Invocation[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(staticText(source, args[i]!) ?? "")) continue;
    let end = i + 1;
    while (end < args.length && !isExecTerminator(staticText(source, args[end]!))) end++;
    const inner = unwrap(source, command, args.slice(i + 1, end));
    if (inner) out.push(inner);
    i = end;
  }
  return out;
}

function isExecTerminator(text: string | undefined): boolean {
  return text === ";" || text === "+";
}
