// Compute pass: marks tool commands that destroy or change things beyond undo (rm, dd, kill, …).
// The runtime never lets such an intent run without asking when it was reached by a guess
// (probabilistic match). This is a word-level screen for that safety net; the precise judgement
// of commands (quoting, placeholders) is the TCS lint's job.

import type { ToolCall } from "../ir/types.js";

const DESTRUCTIVE_PROGRAMS = new Set([
  "rm", "rmdir", "shred", "dd", "mkfs", "fdisk", "parted", "wipefs", "truncate", "kill", "killall", "pkill",
  "reboot", "shutdown", "halt", "poweroff", "sudo", "doas", "mv", "unlink", "crontab",
]);

function isDestructiveCommand(command: string): boolean {
  const words = command.split(/[\s;&|()`"'$]+/).filter((w) => w.length > 0);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const program = word.slice(word.lastIndexOf("/") + 1);
    if (DESTRUCTIVE_PROGRAMS.has(program) || program.startsWith("mkfs.")) return true;
    if ((program === "chmod" || program === "chown") && words.slice(i + 1).some((w) => /^-[a-zA-Z]*R/.test(w))) return true;
    if (program === "push" && words[i - 1] === "git" && words.slice(i + 1).some((w) => w === "--force" || w === "-f")) return true;
  }
  // Output redirected over a file, other than the usual /dev/null and descriptor duplications.
  return /(^|[^>&0-9])>(?!>|&|\s*\/dev\/null)/.test(command);
}

export function hasDestructiveTool(tools: readonly ToolCall[]): boolean {
  return tools.some((tool) => {
    const command = tool.arguments.command;
    return typeof command === "string" && isDestructiveCommand(command);
  });
}
