// The TCS checks see DSL commands exactly where they are written: findings point into the .rules
// file (line:col inside the string literal), for `command "…"` and for `step …, command: "…"`.
import { describe, expect, test } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import type { NpcIR } from "../../compiler/ir/types.js";
import { checkTcs } from "../../compiler/passes/check-tcs.js";
import { lower } from "./helpers.js";

function tcs(text: string): string[] {
  const { fragment } = lower(text, "/npc/t.rules");
  const ir: NpcIR = {
    config: { name: "t", connectives: [], extra: {} },
    intents: fragment.intents,
    synonyms: fragment.synonyms,
    types: fragment.types,
    wordLists: [],
    lists: [],
    sources: [],
  };
  const bag = new DiagnosticBag();
  checkTcs(ir, bag, { texts: new Map([["/npc/t.rules", text]]) });
  return bag.sorted().map((d) => `${d.loc.file}:${d.loc.line}:${d.loc.column} ${d.code}`);
}

describe("TCS over DSL commands", () => {
  test("an unquoted placeholder and a missing -- are located inside the command string", () => {
    expect(tcs(`rule "delete :t" do\n  command "rm <||t||>"\n  permission :ask\nend`)).toEqual(["/npc/t.rules:2:15 TCS001", "/npc/t.rules:2:15 TCS003"]);
  });

  test("a destructive step command without permission :ask is reported", () => {
    expect(tcs(`chain "purge :d" do\n  step :run_in_terminal, command: "rm -r -- '<||d||>'"\n  permission :yolo\nend`)).toEqual(["/npc/t.rules:2:36 TCS005"]);
  });

  test("a clean command gives nothing", () => {
    expect(tcs(`rule "delete :t" do\n  command "rm -- '<||t||>'"\n  permission :ask\nend`)).toEqual([]);
  });
});
