// The template language of issue 18: value lists, number ranges, expansion rules, fixed slots,
// optional groups holding slots, glued suffixes, permutations and skip words — lowered, linted,
// compiled into the automaton and answered, with slots as { value, text, start, end }.
import fc from "fast-check";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources, type LintResult } from "../../compiler/lint.js";
import { parsePattern } from "../../compiler/sources/dsl/pattern.js";
import { explain } from "../../runtime/explain.js";
import { loadNpc, type NpcSession } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";
import { patternShapes } from "../support/pattern-shapes.js";
import { lower } from "./helpers.js";

const RULES = `RuleSet.define "t" do
  list :area, "kitchen", "living room" => "living_room", "bedroom"
  list :state, open: ["open", "opened"], closed: ["shut", "closed"]
  list :level, "half" => "50"
  expansion :turn_on, "(turn|switch) on"
  expansion :light, "light[s]"
  skip_words "please", "the"
  rule("<turn_on> <light> [in :area]") do
    intent :light_on
    slots domain: "light"
    action :turn_on, area: :area, domain: :domain
  end
  rule("set brightness [in :area] to :brightness(0..100)%", "set brightness [in :area] to :brightness(level)") { intent :brightness }
  rule("(is the garage :state; right now)") { intent :garage }
  rule("set timer for :minutes(1..120) minute[s]") { intent :timer }
end
`;

/** Lints and compiles rule files written into a fresh NPC directory. */
function build(files: Record<string, string>): { lint: LintResult; bytes: Uint8Array; paths: number; states: number } {
  const dir = writeTree(tempDir("tl"), files);
  const lint = lintSources([dir]);
  const { bytes, payload } = compileNpc(lint.ir);
  return { lint, bytes, paths: payload.counts.templatePaths, states: payload.counts.automatonStates };
}

function diagnosticsOf(text: string): string[] {
  const { lint } = build({ "t.rules": text });
  return lint.diagnostics.map((d) => `${d.code} ${d.message}`);
}

describe("patterns", () => {
  const shapes = (text: string) => patternShapes(text, (name) => (name === "x" ? parsePattern("(a|b) c").items : undefined));

  test("a glued suffix is a choice of the word with and without it", () => {
    expect(shapes("light[s] on")).toEqual(["light|lights on"]);
  });

  test("list and range slots keep their restriction; a unit glues to the range", () => {
    expect(shapes(":a(area) at :n(-5..40)°")).toEqual([":a(area) at :n(-5..40)°"]);
  });

  test("an optional group holding a slot is all or nothing; one of words only keeps optional nodes", () => {
    expect(shapes("go [to :place]")).toEqual(["go", "go to :place"]);
    expect(shapes("go [right now]")).toEqual(["go right? now?"]);
  });

  test("a permutation is every order of its parts", () => {
    expect(shapes("(a; b c; :d)").sort()).toEqual(["a :d b c", "a b c :d", ":d a b c", ":d b c a", "b c :d a", "b c a :d"].sort());
  });

  test("an expansion is replaced by its pattern", () => {
    expect(shapes("<x> d")).toEqual(["a|b c d"]);
  });

  test("mistakes are reported: undefined expansion, inverted range, too many permutation parts, mixed separators", () => {
    const problems = (text: string) => parsePattern(text).problems.map((p) => p.message);
    expect(problems("<nope> x")).toEqual(["<nope> is not defined: add expansion :nope, \"…\" to the rule set"]);
    expect(problems("set :n(10..1)")).toEqual(["the range 10..1 is inverted: write the smaller number first"]);
    expect(problems("(a; b; c; d; e)")[0]).toMatch(/5 parts, at most 4/);
    expect(problems("(a; b | c)")[0]).toMatch(/mixes '\|' and ';'/);
  });
});

describe("lowering", () => {
  test("lists lower with spoken forms normalized and canonical values kept", () => {
    const { fragment, diagnostics } = lower(`list :area, "Kitchen", "living room" => "living_room", closed: ["shut", "Closed"]\nrule("x :area") {}`);
    expect(diagnostics).toEqual([]);
    expect(fragment.lists[0]!.values.map((v) => [v.spoken, v.value])).toEqual([
      ["kitchen", "Kitchen"],
      ["living room", "living_room"],
      ["shut", "closed"],
      ["closed", "closed"],
    ]);
    expect(fragment.intents[0]!.paths[0]!.nodes[1]).toMatchObject({ type: "list", list: "area", tags: ["area"] });
  });

  test("fixed slots are bound for tool arguments and kept on the intent", () => {
    const { fragment, diagnostics } = lower(`rule("lights on") do\n  slots domain: "light", level: 3\n  action :on, domain: :domain\nend`);
    expect(diagnostics).toEqual([]);
    expect(fragment.intents[0]!.fixedSlots).toEqual({ domain: "light", level: "3" });
    expect(fragment.intents[0]!.tools[0]!.arguments).toEqual({ domain: "<||domain||>" });
  });

  test("a cyclic expansion and a malformed list are errors", () => {
    const codes = (text: string) => lower(text).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(codes(`expansion :a, "x <b>"\nexpansion :b, "<a>"\nrule("<a> :s") {}`).join("\n")).toMatch(/uses itself/);
    expect(codes(`list :a\nrule("x :a") {}`).join("\n")).toMatch(/list :a has no values/);
    expect(codes(`list "two words", "x"`).join("\n")).toMatch(/list needs a name first/);
    expect(codes(`skip_words "two words"`).join("\n")).toMatch(/a skip word is one word/);
  });
});

describe("lint", () => {
  test("an undefined list is an error (REF004) and the path is not compiled", () => {
    expect(diagnosticsOf(`rule("go to :place(places)") {}`)).toEqual([expect.stringMatching(/^REF004 list "places" is not defined/)]);
  });

  test("a spoken form listed twice in one list, across files too, is reported (CON005)", () => {
    const { lint } = build({ "a.rules": `list :area, "den" => "study"\nrule("in :area") {}`, "b.rules": `list :area, "den" => "living_room", "hall"` });
    expect(lint.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      expect.stringMatching(/^CON005 "den" is in list :area with the value "study" already, so "living_room" is never captured/),
    ]);
  });

  test("a permutation that makes two rules overlap is a shadowing warning (CON004)", () => {
    const codes = diagnosticsOf(`rule("(open; the :door)") { intent :a }\nrule("the :door open") { intent :b }`).map((d) => d.slice(0, 6));
    expect(codes).toEqual(["CON004"]);
  });
});

describe("matching", () => {
  let session: NpcSession;
  beforeAll(async () => {
    session = (await loadNpc(build({ "t.rules": RULES }).bytes)).session({ seed: 1 });
  });
  const ask = (message: string, withTrace = false) => session.process(message, withTrace ? { explain } : {});

  test("a multi-word list value captures its canonical value, the words as typed and their span", () => {
    const message = "Please switch on the Lights in the Living Room";
    const r = ask(message);
    expect(r.intent).toBe("light_on");
    expect(r.slots).toEqual({ domain: "light", area: "living_room" });
    expect(r.captures).toEqual({ area: { value: "living_room", text: "Living Room", start: 35, end: 46 } });
    expect(message.slice(35, 46)).toBe("Living Room");
    expect(r.tools).toEqual([{ name: "turn_on", arguments: { area: "living_room", domain: "light" } }]);
    expect(r.witness.at(-1)!.items).toContainEqual({ word: "Living Room", kind: "slot", matched: "area", value: "living_room", start: 35, end: 46 });
  });

  test("an optional group holding a slot: absent, the slot is not captured; the fixed slot still is", () => {
    expect(ask("turn on light")).toMatchObject({ intent: "light_on", slots: { domain: "light" }, captures: {} });
    expect(ask("turn on the light in").status).not.toBe("template match");
  });

  test("numbers: digits with or without the unit, number words, a list alternative; out of range never matches", () => {
    expect(ask("set brightness to 50%").slots).toEqual({ brightness: "50" });
    expect(ask("set brightness in the kitchen to 7").slots).toEqual({ area: "kitchen", brightness: "7" });
    expect(ask("set brightness to twenty five").captures).toEqual({ brightness: { value: "25", text: "twenty five", start: 18, end: 29 } });
    expect(ask("set brightness to one hundred").slots).toEqual({ brightness: "100" });
    expect(ask("set brightness to twenty-five").slots).toEqual({ brightness: "25" });
    expect(ask("set brightness to twenty-").status).not.toBe("template match");
    expect(ask("set brightness to half").slots).toEqual({ brightness: "50" });
    expect(ask("set brightness to 101").status).not.toBe("template match");
    expect(ask("set brightness to 50°").status).not.toBe("template match");
    expect(ask("set timer for a minute").slots).toEqual({ minutes: "1" });
  });

  test("--explain shows list and number nodes and replays paths through them", () => {
    const lines = (message: string) => ask(message, true).trace!.filter((step) => step.stage === "template").flatMap((step) => step.lines);
    expect(lines("set brightness in the kitchen to 150")).toContainEqual(expect.stringMatching(/<\|\|area\|\|>:list area .*<\|\|brightness\|\|>:0\.\.100%\]: fails at node \d+ <\|\|brightness\|\|>:0\.\.100%: "150" does not fit$/));
    expect(lines("set brightness in the kitchen to 15")).toContainEqual(expect.stringMatching(/:0\.\.100%\]: matches$/));
  });

  test("a permutation matches its parts in either order, with the spoken → canonical mapping", () => {
    expect(ask("is the garage shut right now")).toMatchObject({ intent: "garage", slots: { state: "closed" } });
    expect(ask("right now is the garage opened")).toMatchObject({ intent: "garage", slots: { state: "open" } });
  });

  test("any spoken form of a list is captured as its value, wherever it sits in the list (property)", async () => {
    const values = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const spoken = values.map((v, i) => `${["red", "blue", "big"][i % 3]} thing ${v}`);
    const list = spoken.map((s, i) => `"${s}" => "${values[i]}"`).join(", ");
    const npc = await loadNpc(build({ "p.rules": `list :item, ${list}\nrule("fetch [the] :item now") { intent :fetch }` }).bytes);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: values.length - 1 }), fc.boolean(), (i, withThe) => {
        const r = npc.session().process(`fetch ${withThe ? "the " : ""}${spoken[i]} now`);
        expect(r.slots).toEqual({ item: values[i] });
        expect(r.captures!["item"]!.text).toBe(spoken[i]);
      }),
      { numRuns: 60 },
    );
  });
});

describe("list typos and decimal numbers", () => {
  const TYPOS = `list :area, "kitchen", "living room" => "living_room", "garage", "garden", "hall"
list :state, closed: ["shut"], shot: ["shot"]
rule("lights on in the :area") { intent :on }
rule("is it :state") { intent :state }
rule("set heat to :t(5..35)° [degrees]") { intent :heat }`;
  let session: NpcSession;
  beforeAll(async () => {
    session = (await loadNpc(build({ "t.rules": TYPOS }).bytes)).session();
  });

  test("a list word gets the strict typo budget of a vocab word: one edit up to 7 letters, none up to 3", () => {
    expect(session.process("lights on in the kitchn")).toMatchObject({ slots: { area: "kitchen" }, captures: { area: { text: "kitchn" } } });
    expect(session.process("lights on in the livng room").slots).toEqual({ area: "living_room" });
    expect(session.process("lights on in the kitchenxx").status).not.toBe("template match");
    expect(session.process("lights on in the hal").status).not.toBe("template match");
  });

  test("where more than 64 words could come next in a list, a word is read exactly (a bounded scan)", async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `"kitchen${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}"`).join(", ");
    const answer = async (n: number) => (await loadNpc(build({ "w.rules": `list :area, "pantry", ${words(n)}\nrule("lights on in the :area") {}` }).bytes)).session().process("lights on in the pantri").slots;
    expect(await answer(63)).toEqual({ area: "pantry" });
    expect(await answer(64)).toEqual({});
  });

  test("a typo equally close to two values reads as neither; a word the NPC knows is never corrected", () => {
    // "shat" is one edit from "shut" and from "shot"
    expect(session.process("is it shut").slots).toEqual({ state: "closed" });
    expect(session.process("is it shat").status).not.toBe("template match");
    expect(session.process("lights on in the lights").status).not.toBe("template match");
  });

  test("ranges read decimals, in digits and as 'point' words; out of range still never matches", () => {
    expect(session.process("set heat to 21.5").slots).toEqual({ t: "21.5" });
    expect(session.process("set heat to 21.5° degrees").slots).toEqual({ t: "21.5" });
    expect(session.process("set heat to twenty two point five")).toMatchObject({ slots: { t: "22.5" }, captures: { t: { text: "twenty two point five" } } });
    expect(session.process("set heat to nineteen point zero five").slots).toEqual({ t: "19.05" });
    expect(session.process("set heat to 35.5").status).not.toBe("template match");
    expect(session.process("set heat to twenty point").status).not.toBe("template match");
  });

  test("lint notes two values of one list a typo apart (CON006), not one value's spellings, not digits", () => {
    // garage / garden are two edits apart, beyond a 6-letter word's one
    expect(diagnosticsOf(TYPOS)).toEqual([
      expect.stringMatching(/^CON006 "shot" \(value "shot"\) and "shut" \(value "closed"\) in list :state are a typo apart/),
    ]);
    expect(diagnosticsOf(`list :cover, blinds: ["blind", "blinds"], "item 1000", "item 1001"\nrule("open :cover") {}`)).toEqual([]);
  });

  test("list reading never throws and gives the same answer twice for any message (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("lights", "on", "in", "the", "kitchn", "shat", "living", "rom", "21.5", "point", "five", "x"), { maxLength: 8 }), (words) => {
        const message = words.join(" ");
        expect(session.process(message)).toEqual(session.process(message));
      }),
      { numRuns: 80 },
    );
  });
});

describe("a suffix glued to a list slot, :name['s]", () => {
  const GLUED = `list :area, "kitchen", "living room" => "living_room"\nrule("turn on the :area['s] lights") { intent :on }`;

  test("the last word of any value may carry the suffix; the value is the list's, the text as typed", async () => {
    const session = (await loadNpc(build({ "g.rules": GLUED }).bytes)).session();
    expect(session.process("turn on the Living Room's lights")).toMatchObject({ intent: "on", slots: { area: "living_room" }, captures: { area: { text: "Living Room's" } } });
    expect(session.process("turn on the kitchen's lights").slots).toEqual({ area: "kitchen" });
    expect(session.process("turn on the kitchen lights").slots).toEqual({ area: "kitchen" });
    expect(session.process("turn on the kitchens lights").status).not.toBe("template match");
  });

  test("NDF names the glued list the same way and gets the same answers", async () => {
    const node = (tag: string, extra: object) => ({ tag, required: true, ...extra });
    const template = [{ intent: "on", type: "template", structure: [[node("<||on||>", { type: "vocab" }), node("<||area||>", { type: "list", list: "area['s]" }), node("<||lights||>", { type: "vocab" })]] }];
    const { lint, bytes } = build({
      "config.json": JSON.stringify({ npc_name: "g" }),
      "dataset/templates_g.json": JSON.stringify(template),
      "dataset/vocabulary/templates.json": JSON.stringify({ "<||on||>": ["on"], "<||lights||>": ["lights"] }),
      "dataset/vocabulary/lists.json": JSON.stringify({ area: { kitchen: "kitchen", "living room": "living_room" } }),
    });
    expect(lint.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const session = (await loadNpc(bytes)).session();
    expect(session.process("on living room's lights").slots).toEqual({ area: "living_room" });
    expect(session.process("on kitchen lights").slots).toEqual({ area: "kitchen" });
  });

  test("lint: a suffix on a number or typed slot is an error; a glued form another value speaks is CON005", () => {
    expect(diagnosticsOf(`rule("dim to :n(0..10)['s]") {}`)).toEqual([expect.stringMatching(/^DSL108 a number slot takes its unit glued after the range/)]);
    expect(diagnosticsOf(`types n: /\\d+/\nrule("dim to :n[s]") {}`)).toEqual([expect.stringMatching(/^DSL108 :n\[s\] glues a suffix to a typed slot; only a list slot can take one/)]);
    expect(diagnosticsOf(`list :pet, "cat", "cats" => "many"\nrule("feed the :pet[s]") {}`)).toEqual([expect.stringMatching(/^CON005 "cats" is in list :pet\[s\] with the value "many" already, so "cat" is never captured/)]);
    expect(diagnosticsOf(`rule("feed the :pet['s]") {}`)).toEqual([expect.stringMatching(/^REF004 list "pet" is not defined/)]);
    expect(diagnosticsOf(GLUED)).toEqual([]);
  });
});

describe("size of the automaton", () => {
  test("a 5,000-value list adds no template path and no state over a 2-value one", () => {
    const withValues = (n: number) => {
      const list = Array.from({ length: n }, (_, i) => `"item ${i}" => "i${i}"`).join(", ");
      return build({ "s.rules": `list :thing, ${list}\nrule("buy [the] :thing") {}\nrule("sell :thing [now]") {}` });
    };
    const small = withValues(2);
    const large = withValues(5_000);
    expect(large.paths).toBe(small.paths);
    expect(large.states).toBe(small.states);
    expect(large.lint.diagnostics).toEqual([]);
  });

  test("expansions and ranges reuse nodes: a rule using three expansions is still one path per spelling", () => {
    const { paths } = build({ "e.rules": `expansion :on, "(turn|switch) on"\nexpansion :l, "light[s]"\nrule("<on> <l> to :n(0..100)") {}` });
    expect(paths).toBe(1);
  });
});

describe("datasets/home", () => {
  test("builds with a bounded number of paths", () => {
    const lint = lintSources([join(import.meta.dirname, "../../datasets/home")]);
    expect(lint.diagnostics).toEqual([]);
    expect(compileNpc(lint.ir).summary.templatePaths).toBeLessThan(400);
  });
});
