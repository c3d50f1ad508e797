// The TCS fixes keep a command's meaning: for a value that needs no quoting, bash runs the same
// programs with the same arguments before and after the fixes (`--` aside), and the fixed command
// has nothing left to fix.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkCommand, type TcsFinding } from "../../compiler/tcs/rules.js";
import { lexShell } from "../../compiler/tcs/shell-lexer.js";

const bashAvailable = spawnSync("bash", ["--version"]).status === 0;
if (!bashAvailable) console.warn("bash is not installed: the fix-meaning test is skipped");

const PROGRAMS = ["rm", "cat", "grep -n", "sort", "sudo chown root", "mytool", "echo", "find . -exec grep -Hn"];
const ARGS = ["<||f||>", "'<||f||>'", '"<||f||>"', '"x <||f||> y"', "-r", "--", "/tmp/<||f||>", '"$HOME"', "+<||g||>", "$(cat <||g||>)", "'<||f||>/<||g||>'", "~<||f||>/x", "*<||g||>", "{a,<||f||>}", "x=<||f||>"];
const JOINERS = [" && ", " | ", "; ", "\n"];

const simpleCommand = fc.tuple(fc.constantFrom(...PROGRAMS), fc.array(fc.constantFrom(...ARGS), { maxLength: 4 })).map(([program, args]) =>
  program.startsWith("find") ? `${program} ${args.join(" ")} {} +` : [program, ...args].join(" "),
);
const command = fc.tuple(simpleCommand, fc.array(fc.tuple(fc.constantFrom(...JOINERS), simpleCommand), { maxLength: 2 })).map(([first, rest]) => first + rest.map(([j, c]) => j + c).join(""));

const everyTagIsInput = () => true;

/** Applies fixes one at a time, re-checking after each, as `--fix` rounds do. */
function fixAll(original: string): string {
  let current = original;
  for (let round = 0; round < 30; round++) {
    const finding = checkCommand(current, everyTagIsInput).find((f): f is TcsFinding & { fix: NonNullable<TcsFinding["fix"]> } => f.fix !== undefined);
    if (!finding) return current;
    for (const edit of [...finding.fix].sort((a, b) => b.start - a.start)) current = current.slice(0, edit.start) + edit.text + current.slice(edit.end);
  }
  throw new Error(`fixes do not settle on ${JSON.stringify(original)}`);
}

/** Every program prints its name and arguments NUL-separated, dropping its first `--`. */
const PRELUDE = ["rm", "cat", "grep", "sort", "sudo", "mytool", "echo", "find"]
  .map((name) => `${name}() { local dd=; printf '%s\\0' ${name}; for a in "$@"; do if [ "$a" = -- ] && [ -z "$dd" ]; then dd=1; continue; fi; printf '%s\\0' "$a"; done; }`)
  .join("\n");

function run(commands: string[]): string[] {
  const script = `${PRELUDE}\n${commands.map((c, i) => `{ ${c}\n} </dev/null; printf 'END${i}\\0'`).join("\n")}\n`;
  const result = spawnSync("bash", ["--norc", "--noprofile", "-s"], { input: script, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/home/h", LC_ALL: "C" }, maxBuffer: 64 << 20 });
  return result.stdout.toString("utf8").split(/END\d+\0/).slice(0, commands.length);
}

const plain = (c: string) => c.replaceAll("<||f||>", "root").replaceAll("<||g||>", "cd2");

describe.skipIf(!bashAvailable)("TCS fixes keep the meaning of commands", () => {
  it("same programs and arguments before and after, and nothing left to fix", () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 100, maxLength: 100 }), (commands) => {
        const fixed = commands.map(fixAll);
        for (const [i, after] of fixed.entries()) {
          expect(lexShell(after).error, after).toBeUndefined();
          expect(checkCommand(after, everyTagIsInput).filter((f) => f.fix), commands[i]).toEqual([]);
          expect(fixAll(after)).toBe(after);
        }
        const before = run(commands.map(plain));
        const afterRun = run(fixed.map(plain));
        for (let i = 0; i < commands.length; i++) expect({ command: fixed[i], argv: afterRun[i] }).toEqual({ command: fixed[i], argv: before[i] });
      }),
      { numRuns: 20 },
    );
  });

  it("fixes something in most generated commands (the property is not vacuous)", () => {
    const samples = fc.sample(command, { numRuns: 300, seed: 7 });
    const changed = samples.filter((c) => fixAll(c) !== c).length;
    expect(changed).toBeGreaterThan(100);
  });
});
