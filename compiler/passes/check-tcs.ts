// Check pass: Terminal Commands Security over every tool's `arguments.command` (rules in
// compiler/tcs/rules.ts), each finding located at its exact file:line:col inside the string
// literal, with a source-level fix when the rule has a mechanical one.
//
// Which `<||tag||>` carries user input, per intent:
//   - a slot of the intent's template paths (a node tag whose type is not `vocab`): the user typed it;
//   - any tag nothing known fills (conservatively: whatever fills it at run time is not ours to trust);
//   - NOT: system values (username, npc_name, …), word lists, synonym tags, vocab node tags, config
//     keys, and the intent's own keys (`<||category||>`): the dataset or the machine wrote those.
// A slot wins over a known name: a slot called `username` is user input.
import type { Diagnostic, DiagnosticBag, FixEdit } from "../diagnostics.js";
import type { Intent, NpcIR, SourceLocation, ToolCall } from "../ir/types.js";
import { allIntents, slotNames } from "../ir/walk.js";
import { CommandAnalyses } from "../tcs/command-analyses.js";
import { TCS_CODES, tcsSeverity } from "../tcs/codes.js";
import type { CarriesUserInput, CommandEdit, TcsFinding } from "../tcs/rules.js";
import { positionAt } from "../sources/location.js";
import { mapStringLiteral, type StringLiteralMap } from "../tcs/string-literal.js";
import { globallyFillableTags, ownKeys } from "./check-references.js";
import type { CheckContext } from "./check-pass.js";
import { templateNodes } from "../ir/template-parts.js";

export function checkTcs(ir: NpcIR, bag: DiagnosticBag, ctx: CheckContext): void {
  const known = tagsFilledByDataset(ir);
  const analyses = new CommandAnalyses();
  for (const intent of allIntents(ir)) {
    const carriesUserInput = userInputOf(intent, known);
    for (const tool of intent.tools) {
      const command = tool.arguments.command;
      if (typeof command !== "string") continue;
      const locator = new CommandLocator(tool, command, ctx.texts);
      for (const finding of analyses.findings(command, carriesUserInput)) bag.report(locator.diagnostic(finding));
      if (analyses.lexed(command).error || intent.permission === "ask") continue;
      const uses = analyses.destructive(command);
      if (uses.length === 0) continue;
      const reasons = [...new Set(uses.map((u) => u.reason))].join("; ");
      const permissionLoc = intent.keyLocs["permission"];
      bag.report({
        ...locator.diagnostic({
          code: TCS_CODES.destructiveWithoutAsk,
          message: `destructive command (${reasons}) runs without asking: its permission is "${intent.permission}"; make it "ask"`,
          start: uses[0]!.start,
          end: uses[0]!.end,
        }),
        ...(permissionLoc ? { related: [{ message: "permission set here", loc: permissionLoc }] } : {}),
      });
    }
  }
}

/** Names the dataset, the config or the machine fill, for every intent (synonym tags too). */
function tagsFilledByDataset(ir: NpcIR): Set<string> {
  const tags = globallyFillableTags(ir);
  ir.synonyms.forEach((set) => tags.add(set.tag));
  return tags;
}

/** Built on the first question: most commands have no placeholder, and then nobody asks. */
function userInputOf(intent: Intent, known: ReadonlySet<string>): CarriesUserInput {
  let slots: Set<string> | undefined;
  let own: Set<string> | undefined;
  return (tag) => {
    if (slots === undefined || own === undefined) {
      slots = slotNames(intent);
      own = new Set(ownKeys(intent));
      for (const path of intent.paths) for (const node of templateNodes(path.nodes)) if (node.type === "vocab") node.tags.forEach((tag) => own!.add(tag));
    }
    return slots.has(tag) || !(known.has(tag) || own.has(tag));
  };
}

/** Turns offsets in a command string into file locations and source edits. */
class CommandLocator {
  private mapped: { literal: StringLiteralMap | undefined } | undefined;
  private readonly text: string | undefined;
  private readonly anchor: SourceLocation;

  constructor(
    private readonly tool: ToolCall,
    private readonly command: string,
    texts: Map<string, string>,
  ) {
    this.anchor = tool.commandLoc ?? tool.loc;
    this.text = tool.commandLoc ? texts.get(tool.commandLoc.file) : undefined;
  }

  /** The literal's character map, made on the first finding (most commands have none). */
  private get literal(): StringLiteralMap | undefined {
    if (this.mapped === undefined) {
      const loc = this.tool.commandLoc;
      const literal = loc && this.text !== undefined ? mapStringLiteral(this.text, loc.offset, loc.file.endsWith(".json") ? "json" : "ruby") : undefined;
      // A literal that does not decode to the command (a concatenation, a heredoc) is not mapped.
      this.mapped = { literal: literal?.length === this.command.length ? literal : undefined };
    }
    return this.mapped.literal;
  }

  diagnostic(finding: TcsFinding): Diagnostic {
    const severity = tcsSeverity(finding.code);
    const fix = finding.fix ? this.fixEdits(finding.fix) : undefined;
    return { code: finding.code, severity, message: finding.message, loc: this.locate(finding.start, finding.end), ...(fix ? { fix } : {}) };
  }

  private locate(start: number, end: number): SourceLocation {
    if (!this.literal || this.text === undefined) return this.anchor;
    const offset = this.literal.sourceOffset(start);
    return { file: this.anchor.file, ...positionAt(this.text, offset), offset, endOffset: this.literal.sourceOffset(end) };
  }

  private fixEdits(edits: CommandEdit[]): FixEdit[] | undefined {
    const literal = this.literal;
    if (!literal) return undefined;
    return edits.map((edit) => ({
      file: this.anchor.file,
      offset: literal.sourceOffset(edit.start),
      endOffset: literal.sourceOffset(edit.end),
      text: literal.encode(edit.text),
    }));
  }
}
