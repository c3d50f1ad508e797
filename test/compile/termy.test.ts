import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc, type CompileResult } from "../../compiler/compile.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import { CODES } from "../../compiler/codes.js";
import type { Intent } from "../../compiler/ir/types.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { swapMiddleOfLongestWord } from "../../bench/matching-inputs.js";
import { repoRoot } from "../support/repo-root.js";
import { hasTermy, termyDir } from "./termy-corpus.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";

// Built in beforeAll, not in the suite's body, so the tests are declared (and counted as skipped)
// without the corpus too; TERMy with the learned stage takes over a minute to build under load.
describe.skipIf(!hasTermy)("TERMy (NPC-Forge corpus)", () => {
  let lint: LintResult;
  let built: CompileResult;
  let npc: Npc;
  beforeAll(async () => {
    lint = lintSources([termyDir]);
    built = compileNpc(lint.ir);
    npc = await loadNpc(built.bytes);
  }, 300_000);
  const ask = (message: string) => npc.session({ seed: 1 }).process(message);

  it("compiles with warnings only (its shell-safety findings are warnings the runtime renders safely)", () => {
    expect(lint.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(lint.diagnostics.some((d) => d.code.startsWith("TCS") && d.severity === "warning")).toBe(true);
    expect(built.summary.intents).toBeGreaterThan(300);
    expect(built.summary.templatePaths).toBeGreaterThan(100);
    expect(built.summary.unusableTypes).toEqual([]);
  });

  it("answers a plain phrase by exact match", () => {
    const answer = ask("list files");
    expect(answer.status).toBe("exact match");
    expect(answer.tools.length).toBeGreaterThan(0);
  });

  it("answers a copy with the source file and destination slots the templates name", () => {
    // templates_files.json: copy_file = vocab_copy … <||file||>:filename … <||path||>:filename
    const answer = ask("copy notes.txt to backup.txt");
    expect(answer).toMatchObject({ status: "template match", intent: "copy_file", slots: { file: "notes.txt", path: "backup.txt" } });
    const command = (answer.tools[0]!.arguments as { command: string }).command;
    expect(command).toContain("'notes.txt'");
    expect(command).toContain("'backup.txt'");
  });

  it("answers a delete with the file slot", () => {
    const answer = ask("delete file notes.txt");
    expect(answer).toMatchObject({ status: "template match", intent: "file_deletion", slots: { file: "notes.txt" } });
    expect(answer.permission).toBe("ask");
  });

  it("answers a typo'd disk usage request probabilistically with the disk usage entry", () => {
    const answer = ask("shwo disk usgae");
    expect(answer.status).toBe("probabilistic match");
    const owner = lint.ir.intents.find((i) => i.id === answer.intent)!;
    expect(owner.inputs.map((i) => normalizeKey(i.value))).toContain("show disk usage");
  });

  it("answers inputs written with capitals, which the original engine never matched exactly", () => {
    const capitalised = lint.ir.intents.flatMap((i) => i.inputs.filter((input) => /[A-Z]/.test(input.value)).map((input) => ({ i, input })));
    expect(capitalised.length).toBeGreaterThan(10);
    const own = capitalised.filter(({ i, input }) => ask(input.value).intent === i.id);
    expect(own.length / capitalised.length).toBeGreaterThan(0.95);
  });

  it("replays every training input to its own entry (≥ 99.5% outside reported conflicts)", () => {
    // Excluded: inputs the lint reports as conflicting (one input in two intents, inputs that
    // sanitizing changes), and inputs that normalize to the same key in two intents.
    const conflictCodes = new Set<string>([CODES.duplicateInput, CODES.sanitizedInput]);
    const excluded = new Set<string>();
    const at = (loc: { file: string; offset: number }) => `${loc.file}@${loc.offset}`;
    for (const d of lint.diagnostics.filter((d) => conflictCodes.has(d.code))) {
      excluded.add(at(d.loc));
      for (const r of d.related ?? []) excluded.add(at(r.loc));
    }
    const owners = new Map<string, Set<string>>();
    const visit = (intents: Intent[], scope: string) => {
      for (const intent of intents) {
        for (const input of intent.inputs) {
          const key = `${scope}\u0000${normalizeKey(input.value)}`;
          owners.set(key, (owners.get(key) ?? new Set()).add(intent.id));
        }
        if (intent.context) visit(intent.context, intent.id);
      }
    };
    visit(lint.ir.intents, "");

    let total = 0;
    let own = 0;
    let skipped = 0;
    const wrong: string[] = [];
    const replay = (intents: Intent[], parent: Intent | null) => {
      for (const intent of intents) {
        for (const input of intent.inputs) {
          const collides = owners.get(`${parent?.id ?? ""}\u0000${normalizeKey(input.value)}`)!.size > 1;
          if (excluded.has(at(input.loc)) || collides) {
            skipped++;
            continue;
          }
          const session = npc.session();
          if (parent) session.process(parent.inputs[0]!.value);
          const answer = session.process(input.value);
          total++;
          if (answer.intent === intent.id) own++;
          else wrong.push(`${JSON.stringify(input.value)} → ${answer.status} ${answer.intent} (expected ${intent.id})`);
        }
        if (intent.context) replay(intent.context, intent);
      }
    };
    replay(lint.ir.intents, null);
    const rate = own / total;
    console.log(`TERMy replay: ${own}/${total} inputs answered by their own entry (${(rate * 100).toFixed(2)}%), ${skipped} excluded as conflicts`);
    if (wrong.length > 0) console.log(`not their own:\n  ${wrong.join("\n  ")}`);
    expect(total).toBeGreaterThan(1500);
    expect(rate).toBeGreaterThanOrEqual(0.995);
  });

  it("answers training inputs with a typo (two letters swapped in the longest word) with their own entry", () => {
    let total = 0;
    let own = 0;
    for (const intent of lint.ir.intents) {
      for (const input of intent.inputs) {
        const typo = swapMiddleOfLongestWord(input.value);
        if (typo === null) continue;
        total++;
        if (npc.session().process(typo).intent === intent.id) own++;
      }
    }
    console.log(`TERMy typo robustness: ${own}/${total} (${((own / total) * 100).toFixed(2)}%) answered by their own entry`);
    expect(total).toBeGreaterThan(1000);
    expect(own / total).toBeGreaterThan(0.9);
  });

  it("never throws on word salad made of its own vocabulary, literals and noise", () => {
    const words = stringsOf(built.payload.lexicon.words).filter((_, i) => i % 7 === 0);
    const literals = ["notes.txt", "/etc/hosts", "-rf", "$HOME", "'it''s'", '"a b"', "42", "x".repeat(300), "<||username||>", "'"];
    const session = npc.session({ seed: 9 });
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...words), fc.constantFrom(...literals), fc.string({ maxLength: 6 })), { maxLength: 40 }), (parts) => {
        const answer = session.process(parts.join(" "));
        expect(answer.witness.some((w) => w.note?.startsWith("internal error"))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("reaches context follow-ups only after their parent", () => {
    const parent = lint.ir.intents.find((i) => (i.context?.length ?? 0) > 0 && i.inputs.length > 0)!;
    const child = parent.context![0]!;
    const session = npc.session();
    session.process(parent.inputs[0]!.value);
    expect(session.process(child.inputs[0]!.value)).toMatchObject({ status: "context match", intent: child.id });
  });

  it("renders user and host names only from the session", () => {
    const session = npc.session({ seed: 1, metadata: { username: "zed-test-user", computer_name: "zed-host" } });
    const texts: string[] = [];
    for (let i = 0; i < 30; i++) texts.push(session.process("hello").response);
    expect(texts.some((t) => t.includes("zed-test-user"))).toBe(true);
    const bundleText = new TextDecoder().decode(built.bytes);
    expect(bundleText).not.toContain(termyDir);
    expect(bundleText).not.toContain(repoRoot);
  });
});
