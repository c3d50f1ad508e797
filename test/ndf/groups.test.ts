// ndfc's group nodes in NDF structure paths (choice, permutation, expansion; sources/ndf/structure.ts):
// NPCs using them build and answer every phrasing they stand for with the right slot, broken ones
// are refused at the file, line and column where they are written, and a property over random
// nested groups checks that every phrasing they enumerate is matched.
import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

type NodeJson = Record<string, unknown>;

const WORDS = ["red", "green", "blue", "lamp", "fan", "door", "now"];

const word = (w: string): NodeJson => ({ tag: `<||vocab_${w}||>`, type: "vocab" });
const NUMBER: NodeJson = { tag: "<||number||>", type: "number" };

/** An NDF NPC with one template `go <path…> <number>`, the given expansions and a vocab tag per word. */
function npcFiles(path: NodeJson[], expansions: Record<string, unknown> = {}, words: string[] = WORDS): Record<string, string> {
  return {
    "config.json": JSON.stringify({ npc_name: "Groups", matcher: "lexical" }),
    "dataset/dataset_a.json": JSON.stringify([{ input: ["hello there"], output: "Hi.", permission: "yolo" }]),
    "dataset/templates_a.json": JSON.stringify([{ intent: "go", type: "template", structure: [[word("go"), ...path, NUMBER]], output: "Going." }], null, 2),
    "dataset/types.json": JSON.stringify({ "<||number||>": "^\\d+$" }),
    "dataset/vocabulary/templates.json": JSON.stringify(Object.fromEntries(["go", ...words].map((w) => [`<||vocab_${w}||>`, [w]]))),
    "dataset/vocabulary/expansions.json": JSON.stringify(expansions, null, 2),
  };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function lintOf(files: Record<string, string>) {
  const dir = writeTree(tempDir("ndf-groups"), files);
  dirs.push(dir);
  return { dir, lint: lintSources([dir]) };
}

async function build(files: Record<string, string>): Promise<Npc> {
  const { lint } = lintOf(files);
  expect(lint.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return loadNpc(compileNpc(lint.ir).bytes);
}

/** `code file:line:col` of every error, the file relative to the NPC directory. */
function errorsOf(files: Record<string, string>): string[] {
  const { dir, lint } = lintOf(files);
  return lint.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.loc.file.slice(join(dir, "/").length)}:${d.loc.line}:${d.loc.column}`);
}

function expectMatches(npc: Npc, phrasing: string): void {
  const response = npc.session({ seed: 1 }).process(`go ${phrasing} 42`.replace(/\s+/g, " "));
  expect({ phrasing, status: response.status, intent: response.intent, number: response.slots["number"] }).toEqual({ phrasing, status: "template match", intent: "go", number: "42" });
}

describe("NDF group nodes", () => {
  it("a choice with nested choices and an optional one matches each of its phrasings", async () => {
    const npc = await build(npcFiles([{ choice: [[word("red"), { choice: [[word("lamp")], [word("fan")]] }], [word("door")]] }, { choice: [[word("now")]], required: false }]));
    for (const phrasing of ["red lamp", "red fan", "door", "red lamp now", "door now"]) expectMatches(npc, phrasing);
    expect(npc.session({ seed: 1 }).process("go red 42").status).not.toBe("template match");
  });

  it("a choice with an empty alternative is optional", async () => {
    const npc = await build(npcFiles([{ choice: [[], [word("red"), word("lamp")]] }, word("door")]));
    for (const phrasing of ["door", "red lamp door"]) expectMatches(npc, phrasing);
  });

  it("a permutation matches its parts in every order", async () => {
    const npc = await build(npcFiles([{ permutation: [[word("red"), word("lamp")], [word("door")], [word("now")]] }]));
    for (const phrasing of ["red lamp door now", "red lamp now door", "door red lamp now", "door now red lamp", "now red lamp door", "now door red lamp"]) expectMatches(npc, phrasing);
    expect(npc.session({ seed: 1 }).process("go lamp red door now 42").status).not.toBe("template match");
  });

  it("an expansion stands for its nodes, may use other expansions, and `required: false` makes it optional", async () => {
    const expansions = { colour: [{ choice: [[word("red")], [word("green")]] }], thing: [{ expansion: "colour" }, word("lamp")] };
    const npc = await build(npcFiles([{ expansion: "thing" }, { expansion: "colour", required: false }], expansions));
    for (const phrasing of ["red lamp", "green lamp", "red lamp green", "green lamp red"]) expectMatches(npc, phrasing);
  });

  it("keeps one template per structure path", () => {
    const { lint } = lintOf(npcFiles([{ permutation: [[word("red")], [word("door")]] }, { choice: [[word("lamp")], [word("fan")]] }]));
    expect(compileNpc(lint.ir).payload.counts.templatePaths).toBe(1);
  });
});

describe("NDF group nodes refused", () => {
  it("an undefined expansion, at its name", () => {
    expect(errorsOf(npcFiles([{ expansion: "nowhere" }]))).toEqual([expect.stringMatching(/^NDF010 dataset\/templates_a\.json:\d+:\d+$/)]);
    const [error] = lintOf(npcFiles([{ expansion: "nowhere" }])).lint.diagnostics.filter((d) => d.code === "NDF010");
    expect(error?.message).toContain("dataset/vocabulary/expansions.json");
  });

  it("a recursive expansion, at the reference that closes the cycle", () => {
    const expansions = { a: [word("red"), { expansion: "b" }], b: [{ expansion: "a" }] };
    const files = npcFiles([{ expansion: "a" }], expansions);
    const text = files["dataset/vocabulary/expansions.json"]!;
    const closing = text.split("\n").findIndex((line) => line.includes('"expansion": "a"')) + 1;
    expect(errorsOf(files)).toEqual([expect.stringMatching(new RegExp(`^NDF011 dataset/vocabulary/expansions\\.json:${closing}:\\d+$`))]);
  });

  it("a path of more than 4,096 nodes once its expansions are in, and a permutation of 5 parts", () => {
    // each expansion is the previous one twice: e12 holds 2^13 = 8,192 nodes
    const expansions: Record<string, unknown> = { e0: [word("red"), word("lamp")] };
    for (let i = 1; i <= 12; i++) expansions[`e${i}`] = [{ expansion: `e${i - 1}` }, { expansion: `e${i - 1}` }];
    const [oversized] = lintOf(npcFiles([{ expansion: "e12" }], expansions)).lint.diagnostics.filter((d) => d.code === "NDF012");
    expect(oversized?.message).toMatch(/holds 8192 words and slots .* at most 4096/);
    expect(errorsOf(npcFiles([{ permutation: [[word("red")], [word("green")], [word("blue")], [word("lamp")], [word("fan")]] }]))).toEqual([
      expect.stringMatching(/^NDF012 dataset\/templates_a\.json:\d+:\d+$/),
    ]);
  });

  it("malformed group nodes get the schema diagnostic at the offending value", () => {
    const files = npcFiles([{ choice: [word("red")] }, { permutation: [[word("red")]], extra: true }, { expansion: 3 }]);
    const text = files["dataset/templates_a.json"]!;
    const lineOf = (needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;
    const errors = errorsOf(files);
    expect(errors.every((e) => e.startsWith("NDF003 dataset/templates_a.json:"))).toBe(true);
    const lines = errors.map((e) => Number(e.split(":")[1]));
    expect(lines).toEqual(expect.arrayContaining([lineOf('"expansion": 3')]));
    expect(errors.length).toBeGreaterThanOrEqual(3);
  });
});

/** The shape of a random group tree; each leaf gets its own word when realized. */
type Shape = { kind: "leaf" } | { kind: "choice"; alternatives: Shape[][]; optional: boolean } | { kind: "permutation"; parts: Shape[][] };

/** A realized tree: its NDF node, with the phrasings it stands for computed independently of ndfc. */
interface Tree {
  json: NodeJson;
  phrasings: string[][];
}

/** Phrasings multiply with nesting: each list keeps its first ones, still phrasings of the tree. */
const KEPT_PHRASINGS = 40;
const product = (sequences: string[][][]): string[][] =>
  sequences.reduce<string[][]>((acc, options) => acc.flatMap((prefix) => options.map((o) => [...prefix, ...o])).slice(0, KEPT_PHRASINGS), [[]]);
const everyOrder = <T>(items: T[]): T[][] => (items.length <= 1 ? [items] : items.flatMap((item, i) => everyOrder([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest])));

const shape: fc.Arbitrary<Shape> = fc.letrec<{ shape: Shape }>((tie) => {
  const sequences = fc.array(fc.array(tie("shape"), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 });
  return {
    shape: fc.oneof(
      { maxDepth: 3, withCrossShrink: true },
      fc.constant({ kind: "leaf" as const }),
      fc.record({ kind: fc.constant("choice" as const), alternatives: sequences, optional: fc.boolean() }),
      fc.record({ kind: fc.constant("permutation" as const), parts: sequences }),
    ),
  };
}).shape;

/**
 * Distinct words for the leaves (`w0`, `w1`…): a message then has one reading, so the property
 * checks the groups' lowering rather than how the matcher ranks readings of repeated words.
 */
function realize(shapes: Shape[]): { nodes: NodeJson[]; phrasings: string[][]; words: string[] } {
  const words: string[] = [];
  const tree = (s: Shape): Tree => {
    if (s.kind === "leaf") {
      const w = `w${words.length}`;
      words.push(w);
      return { json: word(w), phrasings: [[w]] };
    }
    const lists = (s.kind === "choice" ? s.alternatives : s.parts).map(sequence);
    if (s.kind === "choice") {
      const json = { choice: lists.map((l) => l.nodes), ...(s.optional ? { required: false } : {}) };
      return { json, phrasings: [...(s.optional ? [[]] : []), ...lists.flatMap((l) => l.phrasings)].slice(0, KEPT_PHRASINGS) };
    }
    return { json: { permutation: lists.map((l) => l.nodes) }, phrasings: everyOrder(lists).flatMap((order) => product(order.map((l) => l.phrasings)).slice(0, 4)).slice(0, KEPT_PHRASINGS) };
  };
  const sequence = (list: Shape[]) => {
    const trees = list.map(tree);
    return { nodes: trees.map((t) => t.json), phrasings: product(trees.map((t) => t.phrasings)) };
  };
  return { ...sequence(shapes), words };
}

describe("NDF group nodes, property", () => {
  it("every phrasing a random nest of choices and permutations stands for is matched, with the slot", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(shape, { minLength: 1, maxLength: 3 }), async (shapes) => {
        const { nodes, phrasings, words } = realize(shapes);
        // far below the 4,096-node bound once the permutations are in (refusals are tested above)
        fc.pre(words.length <= 24);
        const npc = await build(npcFiles(nodes, {}, words));
        for (const phrasing of phrasings) expectMatches(npc, phrasing.join(" "));
      }),
      { numRuns: 30 },
    );
  });
});
