// Lowering, one construct at a time: what each DSL form becomes in the IR.
import { describe, expect, test } from "vitest";
import type { Intent } from "../../compiler/ir/types.js";
import { lower, positions, textAt, withoutLocations } from "./helpers.js";
import { templateNodes } from "../../compiler/ir/template-parts.js";

function clean(text: string) {
  const result = lower(text);
  expect(result.diagnostics.map((d) => `${d.loc.line}:${d.loc.column} ${d.code} ${d.message}`)).toEqual([]);
  return result.fragment;
}

function onlyIntent(text: string): Intent {
  const { intents } = clean(text);
  expect(intents).toHaveLength(1);
  return intents[0]!;
}

describe("rule sets", () => {
  test("RuleSet.define names the fragment and holds its rules", () => {
    const fragment = clean(`RuleSet.define "shell" do\n  rule "list files"\nend`);
    expect(fragment.name).toBe("shell");
    expect(fragment.intents.map((i) => i.id)).toEqual(["test.rules#0"]);
  });

  test("Ruleset.create(\"name\") is the same", () => {
    expect(withoutLocations(clean(`Ruleset.create("shell") do\n  rule "list files"\nend`))).toEqual(
      withoutLocations(clean(`RuleSet.define "shell" do\n  rule "list files"\nend`)),
    );
  });

  test("an unknown RuleSet method is reported", () => {
    expect(positions(lower(`RuleSet.build "x" do\nend`).diagnostics)).toEqual(["1:1 DSL101"]);
  });
});

describe("rules", () => {
  test("a rule without slots is an exact entry with every phrasing", () => {
    const intent = onlyIntent(`rule("[please] (show|display) disk space") { action :disk_usage }`);
    expect(intent.kind).toBe("entry");
    expect(intent.paths).toEqual([]);
    expect(intent.inputs.map((i) => i.value)).toEqual(["show disk space", "display disk space", "please show disk space", "please display disk space"]);
  });

  test("a rule with a slot is a template whose words are vocab nodes and whose slot is a string", () => {
    const intent = onlyIntent(`rule "delete :target" do\nend`);
    expect(intent.kind).toBe("template");
    expect(withoutLocations(intent.paths)).toEqual([
      {
        nodes: [
          { tags: ["word_delete"], type: "vocab", required: true },
          { tags: ["target"], type: "string", required: true },
        ],
      },
    ]);
  });

  test("rule(pattern) { … } and rule pattern do … end lower identically", () => {
    const a = clean(`rule("open :file") { action :open, file: :file }`);
    const b = clean(`rule "open :file" do\n  action :open, file: :file\nend`);
    expect(withoutLocations(a)).toEqual(withoutLocations(b));
  });

  test("several patterns make one intent", () => {
    const intent = onlyIntent(`rule "list files", "show files" do\nend`);
    expect(intent.inputs.map((i) => i.value)).toEqual(["list files", "show files"]);
  });

  test("nodes are located at their word inside the pattern string", () => {
    const text = `rule "copy :src to :dst"`;
    const [path] = onlyIntent(text).paths;
    expect(path!.nodes.map((node) => textAt(text, node.loc))).toEqual(["copy", ":src", "to", ":dst"]);
    expect(path!.loc).toMatchObject({ line: 1, column: 6 });
  });

  test("node locations stay exact after escapes in the pattern string", () => {
    const text = `rule "say \\"hi\\" \\u00e9 to :x"`;
    const nodes = onlyIntent(text).paths[0]!.nodes;
    expect(nodes.map((node) => textAt(text, node.loc))).toEqual(["say", '\\"hi\\', "\\", "to", ":x"]);
  });

  test("a slot-free pattern with more phrasings than the exact table takes is one template, no warning", () => {
    const { fragment, diagnostics } = lower(`rule "(a|b|c|d) (e|f|g|h) (i|j|k|l) (m|n)", "just this"`);
    const intent = fragment.intents[0]!;
    expect(intent.inputs.map((input) => input.value)).toEqual(["just this"]);
    expect(intent.paths).toHaveLength(1);
    expect(templateNodes(intent.paths[0]!.nodes).map((node) => node.tags.length)).toEqual([4, 4, 4, 2]);
    expect(diagnostics).toEqual([]);
  });
});

describe("types and slots", () => {
  test("types become TypeDefs with Ruby flags translated; a slot named like a type is typed", () => {
    const fragment = clean(`types path: %r{(?:/[^\\s/]+)+}m, number: /\\d+/i, word: "[a-z]+"\nrule "open :path :other"`);
    expect(withoutLocations(fragment.types)).toEqual([
      { name: "path", pattern: "(?:/[^\\s/]+)+", flags: "s" },
      { name: "number", pattern: "\\d+", flags: "i" },
      { name: "word", pattern: "[a-z]+", flags: "" },
    ]);
    const nodes = templateNodes(fragment.intents[0]!.paths[0]!.nodes);
    expect(nodes.map((n) => `${n.tags[0]}:${n.type}`)).toEqual(["word_open:vocab", "path:path", "other:string"]);
  });

  test("types may come after the rules that use them", () => {
    const fragment = clean(`rule "go :n"\ntypes n: /\\d+/`);
    expect(templateNodes(fragment.intents[0]!.paths[0]!.nodes)[1]!.type).toBe("n");
  });

  test("a duplicate type is reported", () => {
    expect(positions(lower(`types a: /x/\ntypes a: /y/`).diagnostics)).toEqual(["2:7 DSL113"]);
  });
});

describe("synonyms", () => {
  test("each pattern word gets a word_<w> set; synonyms join the set of the word they mean", () => {
    const fragment = clean(`synonym "wipe", means: "delete"\nsynonym "Erase", "remove", means: "delete"\nrule "delete :x"`);
    expect(withoutLocations(fragment.synonyms)).toEqual([{ tag: "word_delete", words: ["delete", "wipe", "erase", "remove"] }]);
  });

  test("a synonym may be a phrase (the runtime matches synonym phrases); what it means must be one word", () => {
    expect(clean(`synonym "get  rid of", means: "delete"`).synonyms.map((set) => set.words)).toEqual([["delete", "get rid of"]]);
    expect(positions(lower(`synonym "x", means: "take out"`).diagnostics)).toEqual(["1:21 DSL112"]);
  });
});

describe("connectives", () => {
  test("arrays of words, and strings split on spaces", () => {
    expect(clean(`connectives ["after", "that"], ["then"], "and then"`).connectives).toEqual([["after", "that"], ["then"], ["and", "then"]]);
  });
});

describe("tools", () => {
  test("action :x, k: :slot is a tool call with the slot's placeholder", () => {
    const intent = onlyIntent(`rule "list files in :path" do\n  action :list_files, path: :path, all: true, depth: 2, tags: ["a"], opts: {mode: "fast"}\nend`);
    expect(withoutLocations(intent.tools)).toEqual([
      {
        name: "list_files",
        arguments: { path: "<||path||>", all: true, depth: 2, tags: ["a"], opts: { mode: "fast" } },
        raw: { name: "list_files", arguments: { path: "<||path||>", all: true, depth: 2, tags: ["a"], opts: { mode: "fast" } } },
      },
    ]);
  });

  test("command fills arguments.command of a run_in_terminal tool, located at its string", () => {
    const text = `rule "delete :target" do\n  command "rm -- '<||target||>'", explanation: "Deletes <||target||>"\nend`;
    const [tool] = onlyIntent(text).tools;
    expect(tool).toMatchObject({ name: "run_in_terminal", arguments: { command: "rm -- '<||target||>'", explanation: "Deletes <||target||>" } });
    expect(textAt(text, tool!.commandLoc!)).toBe(`"rm -- '<||target||>'"`);
  });

  test("a placeholder with spaces inside names its slot, as the runtime reads it (<|| target ||> is :target)", () => {
    const intent = onlyIntent(`rule "delete :target" do\n  output "Deleting <|| target ||>."\n  command "rm -- '<|| target ||>'"\nend`);
    expect(intent.tools[0]!.arguments.command).toBe("rm -- '<|| target ||>'");
  });

  test("a chain keeps its steps in order; :prev_result refers to the previous step's result by tool index", () => {
    const intent = onlyIntent(`chain("clean up :dir") do\n  step :list_files, path: :dir\n  step :filter, criterion: "empty"\n  step :delete, target: :prev_result\nend`);
    expect(intent.tools.map((t) => [t.name, t.arguments])).toEqual([
      ["list_files", { path: "<||dir||>" }],
      ["filter", { criterion: "empty" }],
      ["delete", { target: { $result_of: 1 } }],
    ]);
  });

  test(":prev_result in a first step has nothing to refer to", () => {
    expect(positions(lower(`chain "c :d" do\n  step :x, v: :prev_result\nend`).diagnostics)).toEqual(["2:15 DSL102"]);
  });

  test("query + resolve", () => {
    const intent = onlyIntent(`query("where is :thing") { resolve :get_path, target: :thing }`);
    expect(intent.tools.map((t) => [t.name, t.arguments])).toEqual([["get_path", { target: "<||thing||>" }]]);
  });

  test("a symbol that names no slot is a constant, with a warning (criterion: :empty in a chain step)", () => {
    const { diagnostics, fragment } = lower(`chain "clean up :dir" do\n  step :list_files, path: :dir\n  step :filter, criterion: :empty\nend`);
    expect(diagnostics.map((d) => `${d.loc.line}:${d.loc.column} ${d.code} ${d.severity}`)).toEqual(["3:28 DSL114 warning"]);
    expect(fragment.intents[0]!.tools[1]!.arguments).toEqual({ criterion: "empty" });
  });

  test("a slot only some patterns capture is unbound", () => {
    expect(positions(lower(`rule "open :file", "open it" do\n  action :open, file: :file\nend`).diagnostics)).toEqual(["2:23 DSL102"]);
  });
});

describe("entry keys", () => {
  test("output, thinking, permission, category, description, intent mirror NDF keys", () => {
    const intent = onlyIntent(
      [
        `rule "delete :target" do`,
        `  output "Deleting <||target||>.", "Removing <||target||>."`,
        `  output ["Gone."]`,
        `  thinking "A delete. Check twice."`,
        `  permission :ask`,
        `  category "files"`,
        `  description "Deletes a file"`,
        `  intent :delete_file`,
        `end`,
      ].join("\n"),
    );
    expect(intent.outputs.map((o) => o.value)).toEqual(["Deleting <||target||>.", "Removing <||target||>.", "Gone."]);
    expect(intent.thinking.map((o) => o.value)).toEqual(["A delete. Check twice."]);
    expect([intent.permission, intent.permissionExplicit, intent.category, intent.description?.value, intent.id]).toEqual([
      "ask",
      true,
      "files",
      "Deletes a file",
      "delete_file",
    ]);
    expect(Object.keys(intent.keyLocs).sort()).toEqual(["description", "intent", "output", "permission", "structure", "thinking", "category"].sort());
  });

  test("permission defaults to ask, not explicit; yolo and auto are accepted as symbols or strings", () => {
    expect(onlyIntent(`rule "a"`)).toMatchObject({ permission: "ask", permissionExplicit: false });
    expect(onlyIntent(`rule("a") { permission :yolo }`)).toMatchObject({ permission: "yolo", permissionExplicit: true });
    expect(onlyIntent(`rule("a") { permission "auto" }`)).toMatchObject({ permission: "auto", permissionExplicit: true });
  });

  test("a setting given twice is a warning and the first one stays", () => {
    const { fragment, diagnostics } = lower(`rule "a" do\n  category "x"\n  category "y"\nend`);
    expect(fragment.intents[0]!.category).toBe("x");
    expect(positions(diagnostics)).toEqual(["3:3 DSL111"]);
  });
});

describe("context", () => {
  test("nested rules become context follow-ups with derived ids", () => {
    const intent = onlyIntent(
      [`rule "delete :target" do`, `  intent :delete`, `  context do`, `    rule("yes") { output "Done." }`, `    rule("cancel :what") { output "Kept." }`, `  end`, `end`].join("\n"),
    );
    expect(intent.context?.map((c) => [c.id, c.kind])).toEqual([
      ["delete/context#0", "entry"],
      ["delete/context#1", "template"],
    ]);
  });

  test("an empty context block clears the context", () => {
    expect(onlyIntent(`rule "stop" do\n  context do\n  end\nend`).context).toEqual([]);
  });

  test("no context statement keeps the context", () => {
    expect(onlyIntent(`rule "stop"`).context).toBeUndefined();
  });

  test("a non-rule inside context, and a rule nested without context, are reported", () => {
    expect(positions(lower(`rule "a" do\n  context do\n    output "x"\n  end\n  rule "b"\nend`).diagnostics)).toEqual(["3:5 DSL101", "5:3 DSL101"]);
  });

  test("the same pattern in a context and at the top level is not a duplicate", () => {
    clean(`rule "yes"\nrule "a" do\n  context do\n    rule "yes"\n  end\nend`);
  });
});

describe("line endings", () => {
  test("CRLF files lower like LF files, with the same line numbers", () => {
    const lf = `rule "delete :x" do\n  command "rm -- '<||x||>'"\n  permission :maybe\nend\n`;
    const crlf = lf.replaceAll("\n", "\r\n");
    expect(withoutLocations(lower(crlf).fragment)).toEqual(withoutLocations(lower(lf).fragment));
    expect(positions(lower(crlf).diagnostics)).toEqual(["3:14 DSL106"]);
  });
});

describe("determinism", () => {
  test("lowering the same text twice gives the same fragment", () => {
    const text = `synonym "wipe", means: "delete"\nrule "delete :x" do\n  command "rm -- '<||x||>'"\nend\nrule "(show|list) files"`;
    expect(lower(text)).toEqual(lower(text));
  });
});
