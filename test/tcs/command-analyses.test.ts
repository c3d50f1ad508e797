import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CommandAnalyses } from "../../compiler/tcs/command-analyses.js";
import { findDestructive } from "../../compiler/tcs/destructive.js";
import { checkLexedCommand } from "../../compiler/tcs/rules.js";
import { lexShell } from "../../compiler/tcs/shell-lexer.js";

// Commands whose findings depend on which placeholders carry user input (quoting fixes, joined
// inputs, --, input as code), plus a destructive one and one the shell cannot parse.
const COMMANDS = [
  "ls -la <||path||>",
  'echo "from <||a||> to <||b||>" > <||out||>',
  "rm -f <||a||><||b||>",
  "sh -c <||script||>; grep <||pattern||> <||file||>",
  "cat '<||path||>' | sort",
  "echo 'unclosed <||a||>",
];
const TAGS = ["path", "a", "b", "out", "script", "pattern", "file"];

describe("command analyses shared by the tools of one lint", () => {
  it("give each user-input answer the findings of its own analysis, in any order of questions", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...COMMANDS), fc.subarray(TAGS)), { minLength: 1, maxLength: 30 }), (asks) => {
        const analyses = new CommandAnalyses();
        for (const [command, userTags] of asks) {
          const carriesUserInput = (tag: string) => userTags.includes(tag);
          const lexed = lexShell(command);
          expect(analyses.findings(command, carriesUserInput)).toEqual(checkLexedCommand(lexed, carriesUserInput));
          expect(analyses.lexed(command).error).toEqual(lexed.error);
          if (!lexed.error) expect(analyses.destructive(command)).toEqual(findDestructive(lexed));
        }
      }),
      { seed: 13, numRuns: 200 },
    );
  });

  it("lex each distinct command once", () => {
    const analyses = new CommandAnalyses();
    const first = analyses.lexed(COMMANDS[0]!);
    analyses.findings(COMMANDS[0]!, () => true);
    analyses.findings(COMMANDS[0]!, () => false);
    expect(analyses.lexed(COMMANDS[0]!)).toBe(first);
    expect(analyses.findings(COMMANDS[0]!, () => true)).toBe(analyses.findings(COMMANDS[0]!, (tag) => tag === "path"));
  });
});
