// `node build/scripts/rules-to-ndf.js <rules-npc-dir> <out-dir> <npc name>`: writes the NPC of a
// rule-DSL directory as NDF JSON with ndfc's extension keys (list and range nodes, choice nodes,
// `slots`, vocabulary/lists.json), one structure path per DSL pattern. datasets/home-ndf is datasets/home written this way; the equivalence
// test (test/datasets/home-ndf.test.ts) checks both give the same answers on home's eval set.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Intent, NpcIR, TemplateNode, TemplatePart } from "../compiler/ir/types.js";
import { isChoice } from "../compiler/ir/template-parts.js";
import { lintSources } from "../compiler/lint.js";
import { writeFileAtomic } from "../compiler/write-atomic.js";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const tag = (name: string) => `<||${name}||>`;

/** A group as a choice node; its empty alternative (an optional group) is written in place, as `[]`. */
function partJson(part: TemplatePart): Json {
  return isChoice(part) ? { choice: part.alternatives.map((alternative) => alternative.map(partJson)) } : nodeJson(part);
}

function nodeJson(node: TemplateNode): Json {
  const out: Record<string, Json> = { tag: node.tags.length === 1 ? tag(node.tags[0]!) : node.tags.map(tag), type: node.type, required: node.required };
  if (node.list !== undefined) out["list"] = node.list;
  if (node.range) out["range"] = { ...node.range };
  return out;
}

function entryJson(intent: Intent): Json {
  const out: Record<string, Json> = { intent: intent.id };
  if (intent.inputs.length > 0) out["input"] = intent.inputs.map((input) => input.value);
  if (intent.paths.length > 0) {
    out["type"] = "template";
    out["structure"] = intent.paths.map((path) => path.nodes.map(partJson));
  }
  if (intent.outputs.length > 0) out["output"] = intent.outputs.map((output) => output.value);
  if (intent.tools.length > 0) out["tools"] = intent.tools.map((tool) => tool.raw as Json);
  if (intent.permissionExplicit) out["permission"] = intent.permission;
  if (intent.category !== undefined) out["category"] = intent.category;
  if (intent.fixedSlots) out["slots"] = { ...intent.fixedSlots };
  if (intent.context) throw new Error(`${intent.id}: context blocks are not converted`);
  return out;
}

function ndfFiles(ir: NpcIR, name: string): Record<string, Json> {
  const words = new Map<string, string[]>();
  for (const list of ir.wordLists) words.set(list.name, [...(words.get(list.name) ?? []), ...list.words]);
  return {
    "config.json": { npc_name: name },
    "dataset/templates_home.json": ir.intents.map(entryJson),
    "dataset/vocabulary/templates.json": Object.fromEntries(ir.synonyms.map((set) => [tag(set.tag), set.words])),
    "dataset/vocabulary/lists.json": Object.fromEntries(ir.lists.map((list) => [list.name, Object.fromEntries(list.values.map((v) => [v.spoken, v.value]))])),
    "dataset/vocabulary/vocabulary.json": Object.fromEntries(words),
  };
}

function main(argv: string[]): void {
  const [source, out, name] = argv;
  if (source === undefined || out === undefined || name === undefined) {
    process.stderr.write("usage: node build/scripts/rules-to-ndf.js <rules-npc-dir> <out-dir> <npc name>\n");
    process.exitCode = 2;
    return;
  }
  const lint = lintSources([resolve(source)]);
  if (lint.diagnostics.some((d) => d.severity === "error")) {
    process.stderr.write(`${source} has errors: run ndfc lint ${source}\n`);
    process.exitCode = 1;
    return;
  }
  for (const [file, json] of Object.entries(ndfFiles(lint.ir, name))) {
    const path = join(resolve(out), file);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileAtomic(path, JSON.stringify(json, null, 2) + "\n");
  }
}

main(process.argv.slice(2));
