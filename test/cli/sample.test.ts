// `ndfc sample`: the sentences a template accepts, in a fixed order, each reaching its own intent
// in the built NPC, or flagged with the intent that wins it.
import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

const work = tempDir("sample");
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Group {
  intent: string;
  at: string;
  sentences: { text: string; placeholders: { slot: string; reason: string }[]; answered?: { intent: string | null; status: string } }[];
}

async function sampleJson(args: string[]): Promise<Group[]> {
  const run = await runCaptured(["sample", ...args, "--json"], repoRoot);
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out) as Group[];
}

const node = (tag: string, type: string, required = true) => ({ tag: `<||${tag}||>`, type, required });
const template = (intent: string, paths: object[][]) => ({ intent, type: "template", structure: paths, output: intent, permission: "yolo" });

describe("ndfc sample", () => {
  it("gives every template of the project's datasets sentences its own intent answers", async () => {
    for (const dataset of ["example", "home", "home-ndf", "termy"]) {
      const groups = await sampleJson([`datasets/${dataset}`, "-n", "4"]);
      expect(groups.length, dataset).toBeGreaterThan(0);
      for (const group of groups) {
        expect(group.sentences.length, group.intent).toBeGreaterThan(0);
        for (const sentence of group.sentences) {
          expect(sentence.placeholders, `${dataset}: ${sentence.text}`).toEqual([]);
          expect(sentence.answered?.intent, `${dataset}: ${sentence.text}`).toBe(group.intent);
        }
      }
    }
  });

  it("is deterministic and enumerates vocab synonyms, optional nodes and typed slots in order", async () => {
    const dir = writeTree(join(work, "order"), {
      "config.json": JSON.stringify({ npc_name: "Order" }),
      "dataset/types.json": JSON.stringify({ "<||file||>": "^[\\w./-]+\\.\\w+$" }),
      "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_delete||>": ["delete", "erase"], "<||vocab_file||>": ["file"] }),
      "dataset/templates_files.json": JSON.stringify([template("files_delete", [[node("vocab_delete", "vocab"), node("vocab_file", "vocab", false), node("file", "file")]])]),
    });
    const first = await runCaptured(["sample", dir], work);
    const second = await runCaptured(["sample", dir], work);
    expect(first).toEqual(second);
    const groups = JSON.parse((await runCaptured(["sample", dir, "--json"], work)).out) as Group[];
    expect(groups.map((g) => g.sentences.map((s) => s.text))).toEqual([["delete file notes.txt", "delete notes.txt", "erase file notes.txt", "erase notes.txt"]]);
    const two = JSON.parse((await runCaptured(["sample", dir, "-n", "2", "--json"], work)).out) as Group[];
    expect(two[0]!.sentences.map((s) => s.text)).toEqual(["delete file notes.txt", "delete notes.txt"]);
  });

  it("flags a sentence another template wins, and --check exits 1 on it", async () => {
    const dir = writeTree(join(work, "shadow"), {
      "config.json": JSON.stringify({ npc_name: "Shadow" }),
      "dataset/types.json": JSON.stringify({ "<||path||>": "^[\\w./-]+$" }),
      "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_show||>": ["show", "print"], "<||vocab_view||>": ["show"] }),
      "dataset/templates_a.json": JSON.stringify([template("a_wide", [[node("vocab_show", "vocab"), node("path", "path")]])]),
      "dataset/templates_b.json": JSON.stringify([template("b_narrow", [[node("vocab_view", "vocab"), node("path", "path")]])]),
    });
    const text = await runCaptured(["sample", dir, "--intent", "b_narrow"], work);
    expect(text.code).toBe(0);
    expect(text.out).toContain("show notes.txt  ← answered by a_wide (template match): shadowed");
    expect(text.err).toContain("1 sampled sentence(s) answered by another intent");
    const checked = await runCaptured(["sample", dir, "--check"], work);
    expect(checked.code).toBe(1);
  });

  it("names an undefined slot type instead of inventing a value, and does not judge that sentence", async () => {
    const dir = writeTree(join(work, "undefined-type"), {
      "config.json": JSON.stringify({ npc_name: "Loose" }),
      "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_open||>": ["open"] }),
      "dataset/templates_a.json": JSON.stringify([template("open_it", [[node("vocab_open", "vocab"), node("thing", "gadget")]])]),
    });
    const run = await runCaptured(["sample", dir, "--check"], work);
    expect(run.out).toContain('open <thing>  ← <thing>: type "gadget" is not defined');
    expect(run.code).toBe(0);
  });

  it("refuses an unknown intent with a suggestion, a bad -n and a missing NPC (exit 2)", async () => {
    const unknown = await runCaptured(["sample", "datasets/termy", "--intent", "files_delet"], repoRoot);
    expect(unknown).toMatchObject({ code: 2, err: 'ndfc: no intent "files_delet" in this NPC; did you mean files_delete?\n' });
    expect((await runCaptured(["sample", "datasets/termy", "-n", "0"], repoRoot)).code).toBe(2);
    const missing = await runCaptured(["sample", "nowhere"], work);
    expect(missing.code).toBe(2);
    expect(missing.err).not.toContain("    at ");
    const help = await runCaptured(["sample", "--help"], work);
    expect(help.out).toContain("Examples:");
  });

  it("property: in an NPC of one arbitrary template, every sampled sentence is answered by it", async () => {
    const word = fc.constantFrom("open", "close", "lamp", "door", "window", "paint", "red", "blue", "garden", "kettle", "switch", "timer");
    const vocabNode = fc.record({ words: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }), required: fc.boolean() });
    const shape = fc.record({ nodes: fc.array(vocabNode, { minLength: 1, maxLength: 3 }), typed: fc.boolean() });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(shape, async ({ nodes, typed }) => {
        // At least one required node: a template of optional nodes only would accept the empty message.
        const required = nodes.map((n, i) => n.required || i === 0);
        const vocab = Object.fromEntries(nodes.map((n, i) => [`<||vocab_n${i}||>`, n.words]));
        const path = nodes.map((_, i) => node(`vocab_n${i}`, "vocab", required[i]));
        if (typed) path.push(node("file", "file"));
        const dir = writeTree(join(work, `prop${run++}`), {
          "config.json": JSON.stringify({ npc_name: "Prop" }),
          "dataset/types.json": JSON.stringify({ "<||file||>": "^[\\w.-]+\\.\\w+$" }),
          "dataset/vocabulary/templates.json": JSON.stringify(vocab),
          "dataset/templates_p.json": JSON.stringify([template("only", [path])]),
        });
        const out = await runCaptured(["sample", dir, "-n", "50", "--json"], work);
        const [group] = JSON.parse(out.out) as Group[];
        for (const sentence of group!.sentences) expect(sentence.answered, sentence.text).toEqual({ intent: "only", status: "template match" });
      }),
      { numRuns: 15 },
    );
  });
});
