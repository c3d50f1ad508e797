// The template automaton against a reference that tries every path of every template separately
// (the loop the automaton exists to avoid): same winner, same priority, on random small NPCs.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { NpcModel } from "../../runtime/bundle/model.js";
import { matchTemplate, mayStart, walkTemplate } from "../../runtime/match/match-template.js";
import { tokenize, type Token } from "../../runtime/text/normalize.js";
import { WordResolver } from "../../runtime/text/word-resolver.js";
import { TypeMatcher } from "../../runtime/text/regex-vm.js";
import { compileTypeRegex } from "../../compiler/passes/compute-type-programs.js";
import { npcIr } from "./ir-fixture.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadNpc } from "../../runtime/index.js";
import { repoRoot } from "../support/repo-root.js";

const SYNONYMS: Record<string, string[]> = {
  vocab_a: ["red", "blue"],
  vocab_b: ["run"],
  vocab_c: ["green", "big file"],
  vocab_d: ["the"],
};
const STOP_WORDS = new Set(["the", "please"]);
const number = new TypeMatcher(compileTypeRegex("number", "^\\d+$", ""));

interface NodeSpec {
  kind: "vocab" | "number" | "string";
  tags: string[];
  required: boolean;
}

const nodeSpec: fc.Arbitrary<NodeSpec> = fc.record({
  kind: fc.constantFrom<NodeSpec["kind"]>("vocab", "vocab", "vocab", "number", "string"),
  tags: fc.uniqueArray(fc.constantFrom(...Object.keys(SYNONYMS)), { minLength: 1, maxLength: 2 }),
  required: fc.boolean(),
});

const pathSpec = fc.array(nodeSpec, { minLength: 1, maxLength: 4 });
const npcSpec = fc.array(fc.array(pathSpec, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 4 });
const message = fc
  .array(fc.constantFrom("red", "blue", "run", "green", "big", "file", "the", "please", "42", "7", "x", "'a b'"), { minLength: 1, maxLength: 6 })
  .map((words) => words.join(" "));

function notation(node: NodeSpec, index: number): string {
  const body = node.kind === "vocab" ? node.tags.join("|") : node.kind === "number" ? `n${index}:number` : `s${index}:string`;
  return `${node.required ? "" : "?"}${body}`;
}

interface RefMatch {
  intent: number;
  path: number;
  literals: number;
  strings: number;
}

/** Every way one path consumes all tokens; returns the best (literals desc, strings asc) or null. */
function bestForPath(nodes: NodeSpec[], tokens: Token[]): { literals: number; strings: number } | null {
  let best: { literals: number; strings: number } | null = null;
  const consider = (literals: number, strings: number) => {
    if (!best || literals > best.literals || (literals === best.literals && strings < best.strings)) best = { literals, strings };
  };
  const vocabLengths = (tags: string[], at: number): number[] => {
    const lengths: number[] = [];
    const token = tokens[at]!;
    if (token.kind === "quoted") return lengths;
    for (const tag of tags) {
      for (const synonym of SYNONYMS[tag]!) {
        const words = synonym.split(" ");
        if (words.every((w, k) => tokens[at + k] !== undefined && tokens[at + k]!.kind !== "quoted" && tokens[at + k]!.norm === w)) {
          lengths.push(words.length);
        }
      }
    }
    return lengths;
  };
  const walk = (i: number, j: number, literals: number, strings: number): void => {
    if (i === nodes.length && j === tokens.length) consider(literals, strings);
    if (j < tokens.length && tokens[j]!.kind !== "quoted" && STOP_WORDS.has(tokens[j]!.norm)) walk(i, j + 1, literals, strings);
    if (i === nodes.length) return;
    const node = nodes[i]!;
    if (!node.required) walk(i + 1, j, literals, strings);
    if (j === tokens.length) return;
    if (node.kind === "vocab") for (const length of vocabLengths(node.tags, j)) walk(i + 1, j + length, literals + 1, strings);
    else if (node.kind === "number") {
      if (number.test(tokens[j]!.text)) walk(i + 1, j + 1, literals, strings);
    } else for (let end = j + 1; end <= tokens.length; end++) walk(i + 1, end, literals, strings + 1);
  };
  walk(0, 0, 0, 0);
  return best;
}

function reference(spec: NodeSpec[][][], tokens: Token[]): RefMatch | null {
  let best: RefMatch | null = null;
  spec.forEach((paths, intent) =>
    paths.forEach((nodes, path) => {
      const found = bestForPath(nodes, tokens);
      if (!found) return;
      const better = !best || found.literals > best.literals || (found.literals === best.literals && found.strings < best.strings);
      if (better) best = { intent, path, ...found };
    }),
  );
  return best;
}

/** The model of an NPC with one intent per entry of `spec`, each path written in the template notation. */
function modelOf(spec: NodeSpec[][][]): NpcModel {
  const ir = npcIr({
    synonyms: SYNONYMS,
    types: { number: "^\\d+$" },
    lists: { stop_words: [...STOP_WORDS] },
    intents: spec.map((paths, i) => ({ id: `i${i}`, paths: paths.map((nodes) => nodes.map(notation).join(" ")) })),
  });
  return new NpcModel(compileNpc(ir).payload);
}

describe("template automaton", () => {
  it("picks the same intent and path as trying every template in turn", () => {
    let matched = 0;
    fc.assert(
      fc.property(npcSpec, fc.array(message, { minLength: 1, maxLength: 8 }), (spec, messages) => {
        const model = modelOf(spec);
        for (const text of messages) {
          const { tokens, clean } = tokenize(text);
          const hit = matchTemplate(model, tokens, clean, new WordResolver(model));
          const expected = reference(spec, tokens);
          expect(hit === null ? null : { intent: hit.intent, path: hit.path }, text).toEqual(
            expected === null ? null : { intent: expected.intent, path: expected.path },
          );
          if (hit && expected) expect(hit.literals).toBe(expected.literals);
          if (hit) matched++;
        }
      }),
      { numRuns: 300 },
    );
    expect(matched).toBeGreaterThan(100); // the comparison is not only about rejections
  });

  it("answers a message the same whatever the calls before it, and from inside another call (the matcher's scratch is reused)", () => {
    fc.assert(
      fc.property(npcSpec, fc.array(message, { minLength: 2, maxLength: 8 }), (spec, messages) => {
        const model = modelOf(spec);
        const match = (text: string, atEnd?: Parameters<typeof matchTemplate>[5]) => {
          const { tokens, clean } = tokenize(text);
          return matchTemplate(model, tokens, clean, new WordResolver(model), null, atEnd);
        };
        // Each message on a model no call has used; then on one model, in turn, twice; then from inside a call on another message.
        const fresh = messages.map((text) => {
          const own = modelOf(spec);
          const { tokens, clean } = tokenize(text);
          return matchTemplate(own, tokens, clean, new WordResolver(own));
        });
        expect(messages.map((text) => match(text))).toEqual(fresh);
        expect(messages.map((text) => match(text))).toEqual(fresh);
        const nested = messages.map((text, k) => {
          let inner: ReturnType<typeof match> | undefined;
          const outer = match(messages[(k + 1) % messages.length]!, () => {
            inner ??= match(text);
          });
          return { outer, inner };
        });
        nested.forEach(({ outer, inner }, k) => {
          expect(outer).toEqual(fresh[(k + 1) % messages.length]);
          if (inner !== undefined) expect(inner).toEqual(fresh[k]);
        });
      }),
      { numRuns: 100 },
    );
  });

  it("turns a message away before the walk (mayStart) only when the walk finds nothing and reaches no end", async () => {
    /** mayStart's verdict on one message, checked against the walk; whether it turned the message away. */
    const check = (model: NpcModel, text: string): boolean => {
      const { tokens, clean } = tokenize(text);
      const words = new WordResolver(model);
      let ends = 0;
      const walked = walkTemplate(model, tokens, clean, words, null, () => ends++);
      expect(matchTemplate(model, tokens, clean, words), text).toEqual(walked);
      if (mayStart(model, tokens, words)) return false;
      expect({ walked, ends }, text).toEqual({ walked: null, ends: 0 });
      return true;
    };
    let away = 0;
    fc.assert(
      fc.property(npcSpec, fc.array(message, { minLength: 1, maxLength: 8 }), (spec, messages) => {
        const model = modelOf(spec);
        for (const text of messages) if (check(model, text)) away++;
      }),
      { numRuns: 300 },
    );
    // The NPCs of the repository, on their own phrasings and each of those without its first word.
    for (const name of ["termy", "home", "shell"]) {
      const npc = await loadNpc(readFileSync(join(repoRoot, `dist-npcs/${name}.npc`)));
      const model = new NpcModel(npc.payload);
      const phrasings = npc.payload.intents.map((intent) => intent.example).filter((example): example is string => example !== null);
      for (const text of phrasings) for (const variant of [text, text.split(" ").slice(1).join(" "), `zorbly ${text}`]) if (check(model, variant)) away++;
    }
    expect(away).toBeGreaterThan(100); // the check is not only about messages let in
  });
});
