// Issue 18: bundles whose automaton calls expansion rules (format 9.0: calls [rule start, return
// state] and rule ends [rule start], runtime/bundle/automaton-frames.ts). A valid SHA-256 over a
// hostile shape is refused at load with InvalidBundleError naming the edge; what loads answers.
import { describe, expect, it } from "vitest";
import { hostileBundle } from "../../bench/hostile-payloads.js";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { MAX_CALL_DEPTH } from "../../runtime/bundle/automaton-frames.js";
import type { BundlePayload, BundleState } from "../../runtime/bundle/bundle-types.js";
import { explain } from "../../runtime/explain.js";
import { loadNpc } from "../../runtime/index.js";
import { clonePayload } from "../support/clone-payload.js";
import { tempDir, writeTree } from "../support/cli.js";
import { refusalOf } from "../support/refusal.js";

const RULES = `RuleSet.define "calls" do
  list :area, "kitchen", "living room" => "living_room"
  expansion :turn_on, "(turn|switch) on [the]"
  expansion :in_area, "[in [the] :area]"
  rule("<turn_on> light[s] <in_area>", "<turn_on> fan <in_area>") { intent :on }
  rule("dim light[s] <in_area> now") { intent :dim }
end
`;

const base = compileNpc(lintSources([writeTree(tempDir("rule-calls"), { "r.rules": RULES })]).ir).payload;
const empty = (): BundleState => ({ vocab: [], typed: [], strings: [], lists: [], ranges: [], skip: [], accept: [], calls: [], returns: [] });

function edited(edit: (payload: BundlePayload) => void): Uint8Array {
  const payload = clonePayload(base);
  edit(payload);
  return hostileBundle(payload);
}

/** The rule starts of the base (the states a rule end names), and a state holding a call. */
const ruleStarts = [...new Set(base.automaton.flatMap((s) => s.returns))];
const caller = base.automaton.findIndex((s) => s.calls.length > 0);

/** Appends `rules` rules, each calling the next (the last one empty), and calls the first from state 0. */
function chainOfCalls(payload: BundlePayload, rules: number): void {
  const states = payload.automaton;
  const first = states.length;
  for (let i = 0; i < rules; i++) {
    const start = empty();
    const end = empty();
    end.returns.push(first + 2 * i);
    if (i + 1 < rules) start.calls.push([first + 2 * (i + 1), first + 2 * i + 1]);
    else start.skip.push(first + 2 * i + 1);
    states.push(start, end);
  }
  const back = empty();
  states.push(back);
  states[0]!.calls.push([first, states.length - 1]);
}

describe("bundles with rule calls", () => {
  it("the base calls each distinct rule from several uses, and answers through them", async () => {
    expect(ruleStarts).toHaveLength(2);
    expect(base.automaton.flatMap((s) => s.calls).length).toBeGreaterThan(2);
    const npc = await loadNpc(hostileBundle(base));
    expect(npc.session().process("switch on the lights in the living room")).toMatchObject({ intent: "on", slots: { area: "living_room" } });
    expect(npc.session().process("dim lights in kitchen now")).toMatchObject({ intent: "dim", slots: { area: "kitchen" } });
    // the trace shows the path through the rules, their nodes where the template calls them
    const trace = npc.session().process("dim lights in kitchen now", { explain }).trace!;
    expect(trace.find((step) => step.stage === "template")!.lines.join("\n")).toMatch(/<\|\|word_dim\|\|> <\|\|word_light\|\|>\|<\|\|word_lights\|\|> <\|\|word_in\|\|> <\|\|word_the\|\|>\? <\|\|area\|\|>:list area <\|\|word_now\|\|>\]: matches/);
  });

  it("refuses a call to a state that is not a rule start, naming the edge", async () => {
    const last = base.automaton.length - 1;
    expect(ruleStarts).not.toContain(last);
    const bytes = edited((p) => void (p.automaton[caller]!.calls[0]![0] = last));
    expect(await refusalOf(bytes)).toMatch(new RegExp(`automaton\\[${caller}\\]\\.calls\\[0\\]: calls state ${last}, which is not a rule start`));
  });

  it("refuses a call cycle, naming the edge", async () => {
    const start = ruleStarts[0]!;
    // the rule's start calls the rule itself, returning to a state after it in the rule
    const bytes = edited((p) => void p.automaton[start]!.calls.push([start, p.automaton[start]!.vocab[0]?.[1] ?? p.automaton[start]!.skip[0]!]));
    expect(await refusalOf(bytes)).toMatch(new RegExp(`automaton\\[${start}\\]\\.calls\\[\\d\\]: calls rule ${start} while inside it: a call cycle`));
  });

  it(`loads calls nested ${MAX_CALL_DEPTH} deep and refuses one deeper, naming the edge`, async () => {
    const deepest = await loadNpc(edited((p) => chainOfCalls(p, MAX_CALL_DEPTH)));
    expect(deepest.session().process("dim lights in kitchen now")).toMatchObject({ intent: "dim" });
    expect(await refusalOf(edited((p) => chainOfCalls(p, MAX_CALL_DEPTH + 1)))).toMatch(/automaton\[\d+\]\.calls\[0\]: calls nest more than 16 deep/);
  });

  it("refuses a rule end with nothing to return to, and one outside its rule", async () => {
    expect(await refusalOf(edited((p) => void p.automaton[caller]!.returns.push(ruleStarts[0]!)))).toMatch(
      new RegExp(`automaton\\[${caller}\\]\\.returns\\[0\\]: a rule end outside every rule: nothing to return to`),
    );
    const [a, b] = ruleStarts as [number, number];
    const inA = base.automaton.findIndex((s, id) => id > a && s.returns.includes(a));
    expect(await refusalOf(edited((p) => void p.automaton[inA]!.returns.push(b)))).toMatch(new RegExp(`automaton\\[${inA}\\]\\.returns\\[1\\]: ends rule ${b}, but the state is not in it`));
    expect(await refusalOf(edited((p) => void p.automaton[caller]!.returns.push(0)))).toMatch(/returns\[0\]: 0 is not a state a rule may start at/);
  });

  it("refuses an edge that walks into a rule instead of calling it", async () => {
    const start = ruleStarts[0]!;
    const inside = base.automaton[start]!.vocab[0]![1];
    const bytes = edited((p) => void p.automaton[caller]!.skip.push(inside));
    // the second way into the state is named: here the rule's own edge, read after the caller's skip
    expect(await refusalOf(bytes)).toMatch(new RegExp(`automaton\\[${start}\\]\\.vocab\\[0\\]: leads into state ${inside}, which another rule or the top level holds`));
  });
});
