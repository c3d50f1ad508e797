// Destructive commands: what deletes, overwrites, kills, reboots or escalates, judged on the lexed
// command (so `echo "rm -rf /"` is not destructive and `$(rm x)` is). The compiler stores the flag
// per intent in the bundle; the runtime never runs such a tool without asking after a guess.
import { lexShell, type LexedCommand, type WordToken } from "./shell-lexer.js";
import { invocationsOf, simpleCommands, staticText, type Invocation, type SimpleCommand } from "./commands.js";
import type { ToolCall } from "../ir/types.js";

export interface DestructiveUse {
  /** What makes it destructive, e.g. "rm deletes files". */
  reason: string;
  start: number;
  end: number;
}

const ALWAYS = new Map<string, string>(Object.entries({
  rm: "rm deletes files",
  shred: "shred destroys file contents",
  unlink: "unlink deletes a file",
  truncate: "truncate cuts files",
  dd: "dd overwrites files and devices",
  fdisk: "fdisk rewrites partition tables",
  parted: "parted rewrites partition tables",
  wipefs: "wipefs erases filesystem signatures",
  mkswap: "mkswap formats a device",
  kill: "kill stops processes",
  pkill: "pkill stops processes",
  killall: "killall stops processes",
  reboot: "reboot restarts the machine",
  shutdown: "shutdown stops the machine",
  poweroff: "poweroff stops the machine",
  halt: "halt stops the machine",
  su: "su switches user",
}));

/** Wrappers that run their command with root rights, wherever they sit in the chain. */
const ESCALATING = new Map<string, string>(Object.entries({
  sudo: "sudo runs with root rights",
  doas: "doas runs with root rights",
}));

const NO_CLOBBER = new Set(["-n", "--no-clobber", "-i", "--interactive", "-b", "--backup", "--update=none"]);
const OVERWRITING_REDIRECTS = new Set([">", ">|", "&>", "<>"]);

export function isDestructiveCommand(command: string): boolean {
  const lexed = lexShell(command);
  // What cannot be parsed cannot be shown harmless.
  return lexed.error !== undefined || findDestructive(lexed).length > 0;
}

/** Whether an intent's tools run a destructive command (compute-intents.ts marks it in the bundle; teachings never reach it unasked). */
export function hasDestructiveTool(tools: readonly ToolCall[]): boolean {
  return tools.some((tool) => {
    const command = tool.arguments.command;
    return typeof command === "string" && isDestructiveCommand(command);
  });
}

/** Every destructive use in the command, in source order. */
export function findDestructive(lexed: LexedCommand): DestructiveUse[] {
  const { source } = lexed;
  const uses: DestructiveUse[] = [];
  for (const command of simpleCommands(lexed)) {
    for (const invocation of invocationsOf(source, command)) {
      // `nohup env FOO=1 timeout 5 sudo ls`: whatever runs under sudo or doas runs as root.
      for (const wrapper of invocation.wrappers) {
        const reason = ESCALATING.get(wrapper.program);
        if (reason) uses.push(use(reason, wrapper.word));
      }
      const reason = destructiveReason(source, invocation);
      if (reason) uses.push(use(reason, invocation.nameWord));
    }
    uses.push(...overwritingRedirects(source, command));
  }
  return uses.sort((a, b) => a.start - b.start);
}

/** Whether the arguments hold one of some flags, or a short-flag cluster (-rf) with a letter. */
function flagTests(args: readonly (string | undefined)[]) {
  return {
    has: (...flags: string[]) => args.some((arg) => arg !== undefined && flags.includes(arg)),
    hasShortFlag: (letter: string) => args.some((arg) => arg !== undefined && /^-[A-Za-z]+$/.test(arg) && arg.includes(letter)),
  };
}

function use(reason: string, word: WordToken): DestructiveUse {
  return { reason, start: word.start, end: word.end };
}

function destructiveReason(source: string, invocation: Invocation): string | undefined {
  const program = invocation.program;
  if (program === undefined) return undefined;
  const args = invocation.args.map((word) => staticText(source, word));
  const { has, hasShortFlag } = flagTests(args);
  const always = ALWAYS.get(program) ?? ESCALATING.get(program);
  if (always) return always;
  if (program.startsWith("mkfs")) return `${program} formats a device`;
  switch (program) {
    case "mv":
      return args.some((arg) => arg !== undefined && NO_CLOBBER.has(arg)) ? undefined : "mv replaces an existing target";
    case "chmod":
    case "chown":
    case "chgrp":
      return hasShortFlag("R") || has("--recursive") ? `${program} -R changes a whole tree` : undefined;
    case "find":
      // `find -exec rm …` is its own invocation (invocationsOf), judged as rm.
      return has("-delete") ? "find -delete removes what it matches" : undefined;
    case "crontab":
      return hasShortFlag("r") ? "crontab -r deletes the crontab" : undefined;
    case "git":
      return gitReason(args);
    case "docker":
    case "podman":
      return containerReason(program, args);
    case "systemctl":
      return has("reboot", "poweroff", "halt", "kexec") ? `systemctl ${args[0] ?? ""} stops the machine` : undefined;
    case "apt":
    case "apt-get":
    case "dnf":
    case "yum":
      return has("remove", "purge", "autoremove") ? `${program} removes packages` : undefined;
    default:
      return undefined;
  }
}

function gitReason(args: (string | undefined)[]): string | undefined {
  const sub = args.find((arg) => arg !== undefined && !arg.startsWith("-"));
  if (sub === undefined) return undefined;
  const rest = args.slice(args.indexOf(sub) + 1);
  const { has, hasShortFlag: shortFlag } = flagTests(rest);
  if (sub === "push" && (shortFlag("f") || has("--force", "--force-with-lease", "--mirror", "--delete") || rest.some((arg) => arg?.startsWith("+")))) return "git push --force rewrites the remote's history";
  if (sub === "reset" && has("--hard")) return "git reset --hard discards changes";
  if (sub === "clean" && (shortFlag("f") || has("--force"))) return "git clean -f deletes untracked files";
  if (sub === "branch" && (has("-D") || (shortFlag("d") && shortFlag("f")))) return "git branch -D deletes a branch";
  if (sub === "checkout" && has("--", ".")) return "git checkout discards changes";
  return undefined;
}

function containerReason(program: string, args: (string | undefined)[]): string | undefined {
  const [first, second] = args.filter((arg) => arg !== undefined && !arg.startsWith("-"));
  if (first === "rm" || first === "rmi" || first === "kill") return `${program} ${first} removes containers or images`;
  if (first === "prune" || second === "prune") return `${program} prune deletes unused objects`;
  if ((first === "container" || first === "image" || first === "volume" || first === "network") && (second === "rm" || second === "prune")) return `${program} ${first} ${second} deletes them`;
  return undefined;
}

/** `> target` over a path that comes from outside the command (a placeholder or an expansion). */
function overwritingRedirects(source: string, command: SimpleCommand): DestructiveUse[] {
  return command.redirects
    .filter((r) => OVERWRITING_REDIRECTS.has(r.op.op) && r.target && staticText(source, r.target) === undefined)
    .map((r) => ({ reason: "> overwrites a file whose path is chosen at run time", start: r.op.start, end: r.target!.end }));
}
