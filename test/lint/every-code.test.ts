// Every code of the lint catalogue has a source that produces it: a table of code → the smallest
// NPC showing it, each linted here, and a check that the table covers the catalogue, so a code added
// without a test fails this file.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../compiler/codes.js";
import { lintSources } from "../../compiler/lint.js";
import { tempDir, writeTree } from "../support/cli.js";

type Files = Record<string, string | Uint8Array>;

const CONFIG = JSON.stringify({ npc_name: "Probe" });
const GREETING = { input: ["hello there"], output: "Hi.", permission: "yolo" };

/** An NDF NPC: config.json, the entries as dataset/dataset_a.json, and any other files. */
function ndf(entries: unknown[], files: Files = {}): Files {
  return { "config.json": CONFIG, "dataset/dataset_a.json": JSON.stringify(entries), ...files };
}

/** An NDF NPC whose one entry runs `command` with a `file` slot filled by a template. */
function shell(command: string, permission = "ask"): Files {
  const template = {
    intent: "act",
    type: "template",
    structure: [[{ tag: "<||vocab_act||>", type: "vocab", required: true }, { tag: "<||file||>", type: "string", required: true }]],
    output: "Done.",
    tools: [{ name: "run_in_terminal", arguments: { command } }],
    permission,
  };
  return ndf([GREETING], { "dataset/templates_a.json": JSON.stringify([template]), "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_act||>": ["act"] }) });
}

/** An NDF NPC with one type, used by a template. */
function typed(pattern: string): Files {
  const template = { intent: "open", type: "template", structure: [[{ tag: "<||vocab_open||>", type: "vocab", required: true }, { tag: "<||thing||>", type: "thing", required: true }]], output: "Open." };
  return ndf([GREETING], {
    "dataset/templates_a.json": JSON.stringify([template]),
    "dataset/types.json": JSON.stringify({ "<||thing||>": pattern }),
    "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_open||>": ["open"] }),
  });
}

const GO = { tag: "<||vocab_go||>", type: "vocab" };

/** An NDF NPC whose one template's path is `nodes` (ndfc's group nodes), with `expansions`. */
function grouped(nodes: unknown[], expansions: Record<string, unknown[]> = {}): Files {
  return ndf([GREETING], {
    "dataset/templates_a.json": JSON.stringify([{ intent: "go", type: "template", structure: [[GO, ...nodes]], output: "Going." }]),
    "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_go||>": ["go"] }),
    "dataset/vocabulary/expansions.json": JSON.stringify(expansions),
  });
}

/** A rule DSL file. */
function dsl(text: string): Files {
  return { "probe.rules": text };
}

const FIXTURES: Record<string, Files> = {
  NDF001: ndf([GREETING], { "dataset/dataset_b.json": Uint8Array.of(0x5b, 0xff, 0xfe, 0x5d) }),
  NDF002: ndf([GREETING], { "dataset/dataset_b.json": '[\n  {\n    "input": ["hi"],\n    "output": "Hel' }),
  NDF003: { "config.json": JSON.stringify({ npc_name: "Probe", sentence_threshold: "high" }), "dataset/dataset_a.json": JSON.stringify([GREETING]) },
  NDF004: ndf([{ ...GREETING, otuput: "Hi." }]),
  NDF005: { "config.json": CONFIG, "dataset/dataset.json": JSON.stringify([GREETING]) },
  NDF006: ndf([GREETING], { "dataset/notes.json": "{}" }),
  NDF007: { "dataset/dataset_a.json": JSON.stringify([GREETING]) },
  NDF008: ndf([GREETING, { input: [], output: "Nobody asks for this." }]),
  NDF009: ndf([
    { ...GREETING, intent: "greet" },
    { input: ["good morning"], output: "Morning.", intent: "greet" },
  ]),
  NDF010: grouped([{ expansion: "nowhere" }]),
  NDF011: grouped([{ expansion: "loop" }], { loop: [{ tag: "<||vocab_go||>", type: "vocab" }, { expansion: "loop" }] }),
  NDF012: grouped([{ permutation: [[GO], [GO], [GO], [GO], [GO]] }]),
  REF001: ndf([GREETING], {
    "dataset/templates_a.json": JSON.stringify([{ intent: "go", type: "template", structure: [[{ tag: "<||vocab_nowhere||>", type: "vocab", required: true }]], output: "Going." }]),
  }),
  REF002: ndf([GREETING], {
    "dataset/templates_a.json": JSON.stringify([
      { intent: "open", type: "template", structure: [[{ tag: "<||vocab_open||>", type: "vocab", required: true }, { tag: "<||thing||>", type: "widget", required: true }]], output: "Open." },
    ]),
    "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_open||>": ["open"] }),
  }),
  REF003: ndf([{ ...GREETING, output: "Hi <||nobody_fills_this||>." }]),
  REF004: dsl(`rule("go to :place(places)") {}`),
  REF005: dsl([...Array.from({ length: 17 }, (_, i) => `expansion :r${i}, "${i === 0 ? "go now" : `<r${i - 1}> on`}"`), `rule("<r16> :x") {}`].join("\n")),
  CON001: ndf([
    { ...GREETING, intent: "greet" },
    { input: ["hello there"], output: "Hey.", intent: "wave" },
  ]),
  CON002: ndf([{ input: ["clear the screen"], output: "Cleared.", permission: "yolo" }], { "dataset/vocabulary/vocabulary.json": JSON.stringify({ interjection: ["clear"] }) }),
  CON003: ndf([{ ...GREETING, input: ["hello there", "hello there"] }]),
  CON004: dsl(`rule("open :thing") {}\nrule("open :what") {}`),
  CON005: dsl(`list :area, "den" => "study", "den" => "living_room"\nrule("in :area") {}`),
  CON006: dsl(`list :state, "shut" => "closed", "shot"\nrule("the door is :state") {}`),
  RGX001: typed("\\bword\\b"),
  RGX002: typed("(?P<name>[a-z]+)"),
  RGX003: typed("^(a+)+$"),
  RGX004: typed("^\\s*a\\s*\\s*$"),
  RND001: ndf([{ ...GREETING, output: "<||loop||>" }], { "dataset/vocabulary/vocabulary.json": JSON.stringify({ loop: ["again <||loop||>"] }) }),
  DSL001: dsl(`rule "a" do\n  output "x" @\nend\n`),
  DSL002: dsl(`rule "a" do\n  output "x\nend\n`),
  DSL003: dsl(`types path: /abc\n`),
  DSL004: dsl(`connectives ["a" "b"]\n`),
  DSL005: dsl(`RuleSet.define "s" do\n  rule "a" do\n    output "x"\n`),
  DSL006: dsl(`rule("a") { output "x" }\nend\n`),
  DSL007: dsl(`rule "a" do\n  output "hi #{name}"\nend\n`),
  DSL008: dsl(`connectives ${"[".repeat(70)}"a"${"]".repeat(70)}\n`),
  DSL101: dsl(`rule "a" do\n  outptu "x"\nend\n`),
  DSL102: dsl(`rule "delete :target" do\n  action :delete, target: :tagret\nend\n`),
  DSL103: dsl(`step :x\n`),
  DSL104: dsl(`chain "a" do\n  resolve :x\nend\n`),
  DSL105: dsl(`rule "list files"\nrule "List  files"\n`),
  DSL106: dsl(`rule "a" do\n  permission :aks\nend\n`),
  DSL107: dsl(`rule do\nend\n`),
  DSL108: dsl(`rule "[please list files" do\nend\n`),
  DSL109: dsl(`types n: /\\d+/x\n`),
  DSL111: dsl(`rule "a" do\n  category "x"\n  category "y"\nend`),
  DSL112: dsl(`synonym "wipe"\n`),
  DSL113: dsl(`types a: /x/\ntypes a: /y/`),
  DSL114: dsl(`chain "clean up :dir" do\n  step :list_files, path: :dir\n  step :filter, criterion: :empty\nend`),
  TCS001: shell("rm -- <||file||>"),
  TCS002: shell("cp -- '<||file||><||file||>' /tmp"),
  TCS003: shell("cat '<||file||>'"),
  TCS004: shell("echo 'unclosed <||file||>"),
  TCS005: shell("rm -- '<||file||>'", "yolo"),
  TCS006: shell("sh -c '<||file||>'"),
};

const work = tempDir("every-code");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function codesOf(code: string, files: Files): string[] {
  const dir = writeTree(join(work, code), files);
  const inputs = Object.keys(files).every((file) => file.endsWith(".rules")) ? Object.keys(files).map((file) => join(dir, file)) : [dir];
  return lintSources(inputs).diagnostics.map((d) => d.code);
}

describe("every catalogue code", () => {
  it("has a fixture here, and every fixture names a code of the catalogue", () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(CATALOGUE.map((info) => info.code).sort());
  });

  it.each(Object.entries(FIXTURES))("%s is produced by its fixture", (code, files) => {
    expect(codesOf(code, files)).toContain(code);
  });
});
