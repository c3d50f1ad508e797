// Issue 13 item 2: word-list expansion was bounded in depth only. `"amp": ["x<||amp||>" × 300]`
// with `unknown: ["<||amp||>"]` made every rejected message expand 300³ tags (27 million
// characters, seconds). Work is measured as word-list lookups, and output as characters.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import type { Segments } from "../../runtime/bundle/bundle-types.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import type { NpcModel } from "../../runtime/bundle/model.js";
import { WordLists } from "../../runtime/bundle/word-lists.js";
import { wordListsOf } from "../../runtime/bundle/encode.js";
import { RENDER_LIMITS, RenderBudget, renderVariant, type RenderContext } from "../../runtime/render/render.js";
import { mulberry32 } from "../../runtime/render/rng.js";
import { tempDir, writeTree } from "../support/cli.js";

const AMPLIFIER = "x<||amp||>".repeat(300);

let npc: Npc;
beforeAll(async () => {
  const dir = writeTree(tempDir("render-bounds"), {
    "config.json": JSON.stringify({ name: "Amp" }),
    "dataset/vocabulary/vocabulary.json": JSON.stringify({ amp: [AMPLIFIER] }),
    "dataset/personality.json": JSON.stringify([{ unknown: ["<||amp||>"] }]),
    "dataset/dataset_amp.json": JSON.stringify([
      { intent: "greet", input: ["hello"], output: ["Hi."], permission: "yolo" },
      { intent: "echo", input: ["echo it"], output: ["Echoing."], tools: [{ name: "run_in_terminal", arguments: { command: "echo <||amp||>" } }], permission: "yolo" },
    ]),
  });
  npc = await loadNpc(compileNpc(lintSources([dir]).ir).bytes);
});

/** Word lists that count their lookups (one per word-list tag rendered). */
class CountingLists extends WordLists {
  lookups = 0;
  override get(name: string): Segments[] | undefined {
    this.lookups++;
    return super.get(name);
  }
}

/** Renders `variants` with only word lists to draw from (rendering reads nothing else of the model). */
function renderWith(lists: CountingLists, variants: Segments[], seed: number): string {
  const model = { wordLists: lists } as Pick<NpcModel, "wordLists"> as NpcModel;
  const ctx: RenderContext = { model, intent: null, slots: {}, system: {}, random: mulberry32(seed), budget: new RenderBudget() };
  return renderVariant(variants, ctx);
}

describe("word-list rendering is bounded in output and work, not only depth", () => {
  it("a rejected message renders the self-amplifying unknown list within the limits, the same for the same seed", () => {
    const answer = npc.session({ seed: 3 }).process("zzz qqq");
    expect(answer.status).toBe("rejected");
    expect(answer.response.length).toBeGreaterThan(0);
    expect(answer.response.length).toBeLessThanOrEqual(RENDER_LIMITS.chars);
    expect(npc.session({ seed: 3 }).process("zzz qqq").response).toBe(answer.response);
  });

  it("looks up at most RENDER_LIMITS.pieces word lists for one answer", () => {
    const lists = new CountingLists(npc.payload.wordLists);
    const text = renderWith(lists, [["", "amp", ""]], 1);
    expect(text.length).toBeLessThanOrEqual(RENDER_LIMITS.chars);
    expect(lists.lookups).toBeLessThanOrEqual(RENDER_LIMITS.pieces);
  });

  it("never runs a command whose rendering was cut: the answer is refused and says why", () => {
    const answer = npc.session().process("echo it");
    expect(answer.status).toBe("rejected");
    expect(answer.tools).toEqual([]);
    expect(answer.notice).toMatch(/render limit.*RND001.*nothing will run/);
  });

  it("holds for any graph of word lists referring to each other (property)", () => {
    const names = ["a", "b", "c", "d"];
    const variant = fc
      .array(fc.tuple(fc.string({ maxLength: 40 }), fc.constantFrom(...names)), { minLength: 1, maxLength: 60 })
      .map((pairs): Segments => [...pairs.flatMap(([text, tag]) => [text, tag]), "end"]);
    const graph = fc.tuple(...names.map(() => fc.array(variant, { minLength: 1, maxLength: 3 })));
    fc.assert(
      fc.property(graph, fc.integer(), (variantsByList, seed) => {
        const entries = names.map((name, i): [string, Segments[]] => [name, variantsByList[i]!]);
        const lists = new CountingLists(wordListsOf(entries));
        const text = renderWith(lists, [["", "a", ""]], seed);
        expect(text.length).toBeLessThanOrEqual(RENDER_LIMITS.chars);
        expect(lists.lookups).toBeLessThanOrEqual(RENDER_LIMITS.pieces);
        expect(renderWith(new CountingLists(wordListsOf(entries)), [["", "a", ""]], seed)).toBe(text);
      }),
      { numRuns: 100, seed: 13 },
    );
  });
});
