// RGX: type regexes are judged by the runtime's own VM compiler, not by JavaScript's RegExp.
import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { lintSources } from "../../compiler/lint.js";
import { compileTypeRegex } from "../../compiler/passes/compute-type-programs.js";
import { CATALOGUE } from "../../compiler/codes.js";
import { TypeMatcher } from "../../runtime/text/regex-vm.js";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

const work = tempDir("regex-engine");
const previousCache = process.env["NDFC_CACHE_DIR"];
process.env["NDFC_CACHE_DIR"] = join(work, "cache");
afterAll(() => {
  if (previousCache === undefined) delete process.env["NDFC_CACHE_DIR"];
  else process.env["NDFC_CACHE_DIR"] = previousCache;
  rmSync(work, { recursive: true, force: true });
});

let count = 0;
/** An NPC whose one template needs a slot of type `t` with `pattern`. */
function npcWithType(pattern: string): string {
  const dir = join(work, `npc${count++}`);
  return writeTree(dir, {
    "config.json": JSON.stringify({ npc_name: "Regexes" }),
    "dataset/types.json": `{\n  "<||t||>": ${JSON.stringify(pattern)}\n}\n`,
    "dataset/vocabulary/templates.json": JSON.stringify({ "<||vocab_show||>": ["show"] }),
    "dataset/templates_show.json": JSON.stringify([
      {
        intent: "show_t",
        type: "template",
        structure: [[{ tag: "<||vocab_show||>", type: "vocab", required: true }, { tag: "<||t||>", type: "t", required: true }]],
        output: "showing <||t||>",
        permission: "yolo",
      },
    ]),
  });
}

const rgx = (dir: string) => lintSources([dir]).diagnostics.filter((d) => d.code.startsWith("RGX"));

describe("type regexes judged by the runtime's engine", () => {
  it("accepts Python's (?P<name>…), which the VM compiles, noting only that JavaScript would not", () => {
    const found = rgx(npcWithType("^(?P<n>\\d+)$"));
    expect(found.filter((d) => d.severity === "error")).toEqual([]);
    expect(found.map((d) => [d.code, d.severity])).toEqual([["RGX002", "info"]]);
  });

  it("makes \\b an error at the type's key, naming the construct and what to write instead", () => {
    const dir = npcWithType("\\bword\\b");
    const [error] = rgx(dir);
    expect(error).toMatchObject({ code: "RGX001", severity: "error" });
    expect(error!.loc).toMatchObject({ file: join(dir, "dataset/types.json"), line: 2, column: 3 });
    expect(error!.message).toContain("\\b is not supported");
    expect(error!.message).toContain("at character 2 of the pattern");
    expect(error!.message).toContain("^ and $");
  });

  it("reports lookbehind and backreferences as errors the build refuses (exit 1)", async () => {
    for (const pattern of ["(?<!a)b", "(a)\\1"]) {
      const dir = npcWithType(pattern);
      expect(rgx(dir).map((d) => d.code)).toEqual(["RGX001"]);
      const build = await runCaptured(["build", dir, "-o", join(dir, "out.npc")], work);
      expect(build.code).toBe(1);
      expect(build.err).toContain("RGX001");
    }
  });

  it("keeps backtracking risk as a note for other engines, since the VM runs (a+)+ in linear time", () => {
    const dir = npcWithType("^(a+)+$");
    const found = rgx(dir);
    expect(found.map((d) => [d.code, d.severity])).toEqual([["RGX003", "info"]]);
    expect(found[0]!.message).toContain("linear time");
    expect(new TypeMatcher(compileTypeRegex("t", "^(a+)+$", "")).test(`${"a".repeat(200)}!`)).toBe(false);
  });

  it("catalogues RGX002–RGX004 as notes and RGX001 as the only error", () => {
    const severity = (code: string) => CATALOGUE.find((c) => c.code === code)!.severity;
    expect(["RGX001", "RGX002", "RGX003", "RGX004"].map(severity)).toEqual(["error", "info", "info", "info"]);
  });

  it("reports RGX001 exactly when the runtime cannot use the type, for arbitrary patterns", () => {
    const piece = fc.constantFrom("a", "\\d", "\\b", "(?P<x>", "(?:", "(?=", "(", ")", "[a-z]", "[", "]", "+", "*", "?", "{2}", "|", "^", "$", "\\1", "(?i:");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }).map((parts) => parts.join("")), (pattern) => {
        const runtimeUsable = new TypeMatcher(compileTypeRegex("t", pattern, "")).usable;
        const { diagnostics } = lintSources([npcWithType(pattern)]);
        const errors = diagnostics.filter((d) => d.code === "RGX001");
        expect(errors.length, pattern).toBe(runtimeUsable ? 0 : 1);
      }),
      { numRuns: 40 },
    );
  });
});
