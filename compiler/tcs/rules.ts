// The Terminal Commands Security rules over one shell command, in the command string's own
// coordinates (offsets into the command). The lint pass maps them into the source file.
//
// Which placeholders carry user input is the caller's answer (see `userInputOf` in
// compiler/passes/check-tcs.ts); a placeholder that carries none (a word list, a system value) is never judged.
import { lexShell, type LexedCommand, type PlaceholderSite, type QuoteContext, type WordPart, type WordToken } from "./shell-lexer.js";
import { codeWords } from "./code-arguments.js";
import { argumentWords, invocationsOf, isOption, simpleCommands, staticText, takesNextWord, type Invocation } from "./commands.js";
import { TCS_CODES } from "./codes.js";
import { NATIVE_BINARIES } from "./native-binaries.js";

/** Replace [start, end) of the command with `text`. */
export interface CommandEdit {
  start: number;
  end: number;
  text: string;
}

export interface TcsFinding {
  code: string;
  message: string;
  start: number;
  end: number;
  /** A mechanical fix that keeps the command's meaning; absent when none is safe. */
  fix?: CommandEdit[];
}

export type CarriesUserInput = (tag: string) => boolean;

/** Lexes and judges a command (rules 1–3 and parse errors; destructiveness is judged elsewhere). */
export function checkCommand(command: string, carriesUserInput: CarriesUserInput): TcsFinding[] {
  return checkLexedCommand(lexShell(command), carriesUserInput);
}

export function checkLexedCommand(lexed: LexedCommand, carriesUserInput: CarriesUserInput): TcsFinding[] {
  if (lexed.error) {
    return [{ code: TCS_CODES.unparsable, message: `the shell cannot parse this command: ${lexed.error.message}`, start: lexed.error.offset, end: lexed.error.offset + 1 }];
  }
  const userSites = lexed.placeholders.filter((site) => carriesUserInput(site.tag));
  const commands = simpleCommands(lexed);
  const invocations = commands.flatMap((command) => invocationsOf(lexed.source, command));
  const fixable = argumentWords(lexed.source, commands);
  return [
    ...userSites.flatMap((site) => unquotedInput(lexed, site, carriesUserInput, fixable)),
    ...joinedInputs(userSites),
    ...missingDoubleDash(lexed.source, invocations, userSites),
    ...inputAsCode(lexed.source, invocations, userSites),
  ];
}

// Rule 1 ------------------------------------------------------------------------------------

const CONTEXT_RISKS: Record<Exclude<QuoteContext, "single">, string> = {
  unquoted: "is not quoted: the shell splits it into words, expands globs, and reads ; | & $( ) in it as shell syntax",
  double: 'sits inside double quotes, where $( ), backticks, ${ } and \\ in the value are still run',
  "ansi-c": "sits inside $'…', where backslash escapes in the value are interpreted",
  param: "sits inside ${ … }, where the value is expanded again",
  arith: "sits inside $(( … )), where the value is evaluated (array subscripts run commands)",
  heredoc: "sits in a here-document body, where $( ) and backticks in the value run and a line equal to the delimiter ends it",
  "heredoc-literal": "sits in a here-document body, where a line of the value equal to the delimiter ends it and the rest runs as commands",
  comment: "sits in a comment, which a newline in the value ends, running the rest",
  dollar: "follows a bare $, so the value becomes an expansion: $(…) or ${…} in it would run",
};

function unquotedInput(lexed: LexedCommand, site: PlaceholderSite, carriesUserInput: CarriesUserInput, fixable: ReadonlySet<WordToken>): TcsFinding[] {
  const placeholder = `<||${site.tag}||>`;
  if (site.context === "single" && !site.inBackticks) return [];
  const risk = site.context === "single"
    ? "sits inside backticks, whose body the shell unescapes before running it (quotes do not protect it there)"
    : CONTEXT_RISKS[site.context];
  const advice = site.inBackticks ? `use $( … ) instead of backticks and write '${placeholder}'` : `write it inside single quotes: '${placeholder}'`;
  const fix = site.inBackticks ? undefined : quotingFix(lexed, site, carriesUserInput, fixable);
  return [{
    code: TCS_CODES.unquotedInput,
    message: `${placeholder} carries user input and ${risk}; ${advice}`,
    start: site.start,
    end: site.end,
    ...(fix ? { fix } : {}),
  }];
}

/** `<||x||>` → `'<||x||>'`, or `"a <||x||> b"` → `"a "'<||x||>'" b"`, when that keeps the meaning. */
function quotingFix(lexed: LexedCommand, site: PlaceholderSite, carriesUserInput: CarriesUserInput, fixable: ReadonlySet<WordToken>): CommandEdit[] | undefined {
  const { word } = site;
  if (!word) return undefined;
  if (site.context === "unquoted") {
    if (!fixable.has(word)) return undefined;
    // A word already partly quoted, or a `$name` / `\` right before the placeholder, is left alone:
    // quoting could change what the author meant there.
    if (word.parts.some((part) => part.kind === "single" || part.kind === "double" || part.kind === "ansi-c")) return undefined;
    const index = word.parts.findIndex((part) => part.start === site.start);
    const before = word.parts[index - 1];
    if (index < 0 || before?.kind === "param" || before?.kind === "escape") return undefined;
    // In a tilde prefix (`~<||user||>/x`) quoting would stop the tilde expansion.
    if (/^(?:[A-Za-z_]\w*=)?~[^/]*$/.test(lexed.source.slice(word.start, site.start))) return undefined;
    return [{ start: site.start, end: site.start, text: "'" }, { start: site.end, end: site.end, text: "'" }];
  }
  if (site.context === "double") {
    const double = word.parts.find((part) => part.kind === "double" && part.start < site.start && site.end < part.end);
    if (double?.kind !== "double" || lexed.source[double.start] !== '"') return undefined;
    if (!double.parts.every((part) => part.kind === "literal" || part.kind === "placeholder")) return undefined;
    return [{ start: double.start, end: double.end, text: requoteDouble(lexed.source, double.parts, carriesUserInput) }];
  }
  return undefined;
}

/** Rebuilds a double-quoted string of literals and placeholders with each user-input placeholder in single quotes. */
function requoteDouble(source: string, parts: readonly WordPart[], carriesUserInput: CarriesUserInput): string {
  let out = "";
  let run = "";
  for (const part of parts) {
    const text = source.slice(part.start, part.end);
    if (part.kind === "placeholder" && carriesUserInput(part.tag)) {
      if (run) out += `"${run}"`;
      run = "";
      out += `'${text}'`;
    } else run += text;
  }
  return run ? `${out}"${run}"` : out;
}

// Rule 2 ------------------------------------------------------------------------------------

function joinedInputs(userSites: readonly PlaceholderSite[]): TcsFinding[] {
  const byWord = new Map<WordToken, PlaceholderSite[]>();
  for (const site of userSites) {
    if (!site.word) continue;
    const list = byWord.get(site.word) ?? [];
    list.push(site);
    byWord.set(site.word, list);
  }
  const findings: TcsFinding[] = [];
  for (const [word, sites] of byWord) {
    if (sites.length < 2) continue;
    const names = sites.map((s) => `<||${s.tag}||>`);
    const format = sites.map(() => "%s").join(" ");
    findings.push({
      code: TCS_CODES.joinedInputs,
      message: `one argument joins ${names.join(", ")}; build it with printf so each value stays one quoted argument: "$(printf '${format}' ${names.map((n) => `'${n}'`).join(" ")})"`,
      start: word.start,
      end: word.end,
    });
  }
  return findings;
}

// User input as code ------------------------------------------------------------------------

function inputAsCode(source: string, invocations: readonly Invocation[], userSites: readonly PlaceholderSite[]): TcsFinding[] {
  const findings: TcsFinding[] = [];
  const report = (site: PlaceholderSite, what: string) =>
    findings.push({ code: TCS_CODES.inputAsCode, message: `<||${site.tag}||> carries user input and ${what}: quoting cannot make that safe; pass the value as data instead`, start: site.start, end: site.end });
  for (const invocation of invocations) {
    for (const site of userSites) {
      if (site.word === invocation.nameWord) report(site, "chooses the program that runs");
    }
    for (const { word, runner } of codeWords(source, invocation)) {
      for (const site of userSites) if (site.word === word) report(site, `is run as code by ${runner}`);
    }
  }
  return findings;
}

// Rule 3 ------------------------------------------------------------------------------------

function missingDoubleDash(source: string, invocations: readonly Invocation[], userSites: readonly PlaceholderSite[]): TcsFinding[] {
  return invocations.flatMap((invocation) => checkInvocation(source, invocation, userSites) ?? []);
}

function checkInvocation(source: string, invocation: Invocation, userSites: readonly PlaceholderSite[]): TcsFinding | undefined {
  const valueOptions = invocation.program === undefined ? undefined : NATIVE_BINARIES.get(invocation.program);
  if (valueOptions === undefined) return undefined;
  const { args } = invocation;
  let firstOperand = -1;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const text = staticText(source, word);
    if (text === "--") return undefined;
    if (text !== undefined && isOption(text)) {
      if (takesNextWord(text, valueOptions)) i++;
      continue;
    }
    if (firstOperand < 0) firstOperand = i;
    const site = userSiteAtWordStart(word, userSites);
    if (!site) continue;
    const insertAt = args[firstOperand]!;
    const optionAfter = args.slice(firstOperand).some((w) => isOption(staticText(source, w) ?? ""));
    return {
      code: TCS_CODES.missingDoubleDash,
      message: `${invocation.program} receives <||${site.tag}||> where a value starting with "-" is read as an option; put -- before its operands: ${invocation.program} … -- '<||${site.tag}||>'`,
      start: site.start,
      end: site.end,
      ...(optionAfter ? {} : { fix: [{ start: insertAt.start, end: insertAt.start, text: "-- " }] }),
    };
  }
  return undefined;
}

/** The user-input placeholder the word's value starts with, if it does (quotes do not matter here). */
function userSiteAtWordStart(word: WordToken, userSites: readonly PlaceholderSite[]): PlaceholderSite | undefined {
  const start = contentStart(word.parts);
  return start === undefined ? undefined : userSites.find((site) => site.start === start && site.word === word);

  function contentStart(parts: readonly WordPart[]): number | undefined {
    const first = parts[0];
    if (!first) return undefined;
    if (first.kind === "placeholder") return first.start;
    if (first.kind === "single") return first.start + 1;
    if (first.kind === "double") return contentStart(first.parts);
    return undefined;
  }
}
