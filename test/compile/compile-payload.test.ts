import { describe, expect, it } from "vitest";
import { compileNpc, DEFAULT_THRESHOLDS } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { tempDir, writeTree } from "../support/cli.js";
import { npcIr, shellNpc } from "../runtime/ir-fixture.js";

describe("compileNpc", () => {
  it("takes thresholds from the config, NDF's `threshold` as the sentence threshold, else documented defaults", () => {
    const defaults = compileNpc(npcIr({ intents: [{ id: "a", inputs: ["hi"] }] })).payload.config;
    expect(defaults).toMatchObject({
      sentenceThreshold: DEFAULT_THRESHOLDS.sentenceThreshold,
      margin: DEFAULT_THRESHOLDS.margin,
      synonymContribution: DEFAULT_THRESHOLDS.synonymContribution,
      suggestions: DEFAULT_THRESHOLDS.suggestions,
    });
    const fromConfig = (config: object) => {
      const dir = writeTree(tempDir("thresholds"), { "config.json": JSON.stringify({ npc_name: "T", ...config }), "dataset/dataset_a.json": "[]" });
      return compileNpc(lintSources([dir]).ir).payload.config;
    };
    expect(fromConfig({ threshold: 0.7, margin: 0.1, suggestions: 10 })).toMatchObject({ sentenceThreshold: 0.7, margin: 0.1, suggestions: 10 });
    expect(fromConfig({ threshold: 0.7, sentence_threshold: 0.8 }).sentenceThreshold).toBe(0.8);
    expect(fromConfig({ sentence_threshold: 0.8, threshold: 0.7 }).sentenceThreshold).toBe(0.8);
  });

  it("carries clause connectives, normalized, for composite prompts", () => {
    const config = compileNpc(npcIr({ intents: [], config: { connectives: [["And", "Then"], ["after", "that"], ["?"]] } })).payload.config;
    expect(config.connectives).toEqual([["and", "then"], ["after", "that"]]);
  });

  it("reports implicit vocab tags, unusable types and paths that can never match", () => {
    const { summary } = compileNpc(npcIr({
        types: { lookbehind: "(?<=x)y", number: "^\\d+$" },
        intents: [
          { id: "t", paths: ["vocab_go far:lookbehind", "vocab_go n:number", "vocab_go ?x:lookbehind", "vocab_go z:nowhere"] },
        ],
      }));
    expect(summary.implicitTags).toEqual(["vocab_go"]);
    expect(summary.unusableTypes).toEqual([{ name: "lookbehind", reason: expect.stringMatching(/lookaround/) }]);
    expect(summary.unmatchablePaths.map((p) => p.path)).toEqual([0, 3]);
    expect(summary.templatePaths).toBe(2);
  });

  it("stores no absolute path and no name of this machine", () => {
    const text = new TextDecoder().decode(compileNpc(shellNpc()).bytes);
    expect(text).not.toMatch(/\/work\/|\/home\/|\/tmp\//);
  });
});
