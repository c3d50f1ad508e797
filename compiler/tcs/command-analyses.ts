// The TCS analyses of each distinct command string, done once per lint: a rule file repeats the
// same few commands across thousands of rules (16k rules of a generated file share six), and
// lexing and judging one is far more work than looking it up. Findings depend on the command and
// on which of its placeholders carry user input, so they are kept per that answer.
import { findDestructive, type DestructiveUse } from "./destructive.js";
import { checkLexedCommand, type CarriesUserInput, type TcsFinding } from "./rules.js";
import { lexShell, type LexedCommand } from "./shell-lexer.js";

interface CommandAnalysis {
  lexed: LexedCommand;
  /** Findings by which placeholders carry user input ("10" for the first of two). */
  findings: Map<string, readonly TcsFinding[]>;
  destructive?: readonly DestructiveUse[];
}

/** Analyses shared by every tool running the same command; nothing returned may be mutated. */
export class CommandAnalyses {
  private readonly byCommand = new Map<string, CommandAnalysis>();

  private analysis(command: string): CommandAnalysis {
    let analysis = this.byCommand.get(command);
    if (analysis === undefined) this.byCommand.set(command, (analysis = { lexed: lexShell(command), findings: new Map() }));
    return analysis;
  }

  lexed(command: string): LexedCommand {
    return this.analysis(command).lexed;
  }

  /** checkLexedCommand's findings: it asks `carriesUserInput` only about the command's placeholders. */
  findings(command: string, carriesUserInput: CarriesUserInput): readonly TcsFinding[] {
    const analysis = this.analysis(command);
    let signature = "";
    for (const site of analysis.lexed.placeholders) signature += carriesUserInput(site.tag) ? "1" : "0";
    let findings = analysis.findings.get(signature);
    if (findings === undefined) analysis.findings.set(signature, (findings = checkLexedCommand(analysis.lexed, carriesUserInput)));
    return findings;
  }

  destructive(command: string): readonly DestructiveUse[] {
    const analysis = this.analysis(command);
    return (analysis.destructive ??= findDestructive(analysis.lexed));
  }
}
