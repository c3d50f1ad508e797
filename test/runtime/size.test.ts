// The runtime core, minified, with its msgpack decoder, within CORE_BUDGET_BYTES. Bytes are deterministic, so
// this is asserted (speed never is). The runtime sources are bundled and minified with rolldown,
// as bench/run.ts does with the build output.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CORE_BUDGET_BYTES, runtimeBundleSize, type RuntimeBundleSize } from "../../bench/runtime-size.js";

const runtimeDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../runtime");
let size: RuntimeBundleSize | null;

beforeAll(async () => {
  size = await runtimeBundleSize(runtimeDir, "ts");
});

describe("runtime size", () => {
  it("rolldown is available (it ships with vite)", () => {
    expect(size).not.toBeNull();
  });

  it(`the core entry, minified, is at most ${CORE_BUDGET_BYTES} bytes`, () => {
    expect(size!.core).toBeGreaterThan(10_000); // a real bundle, not an empty one
    expect(size!.core).toBeLessThanOrEqual(CORE_BUDGET_BYTES);
  });

  it("keeps the optional modules, the fallback SHA-256, the learned stage and the optional stages (the probabilistic one too) out of the core", () => {
    expect(size!.coreModules).toContain("session.ts");
    // The decoder is ours (format 4.0): no msgpack library rides along.
    expect(size!.coreModules).toContain("plain-msgpack.ts");
    expect(size!.coreModules.filter((name) => !name.endsWith(".ts"))).toEqual([]);
    for (const optional of ["explain.ts", "lexer.ts", "sha256.ts", "encode.ts", "match-learned.ts", "learned-features.ts", "learned-readings.ts", "learned-spelling.ts", "remembered.ts", "match-template.ts", "regex-vm.ts", "automaton-store.ts", "template-store.ts", "context.ts", "sanitize.ts", "sentiment.ts", "guards.ts", "shell-render.ts", "match-probabilistic.ts", "probabilistic-scratch.ts", "match-index.ts"]) expect(size!.coreModules).not.toContain(optional);
    expect(size!.lazy.map((chunk) => chunk.modules)).toEqual(expect.arrayContaining([["sha256.ts"], ["learned-features.ts", "learned-readings.ts", "learned-spelling.ts", "match-learned.ts", "remembered.ts"], ["automaton-frames.ts", "automaton-store.ts", "match-template.ts", "regex-vm.ts", "template-scratch.ts", "template-starts.ts", "template-store.ts", "template-tables.ts", "type-matchers.ts", "wrong-shape.ts"], ["context.ts"], ["sanitize.ts", "sanitizer-stage.ts", "sentiment.ts"], ["guards.ts", "shell-render.ts", "shell-stage.ts"], ["match-index.ts", "match-probabilistic.ts", "probabilistic-scratch.ts", "probabilistic-stage.ts"]]));
    for (const chunk of size!.lazy) expect(chunk.bytes).toBeGreaterThan(0);
    expect(size!.optional.explain).toBeGreaterThan(0);
  });

  it("reports what a TERMy host loads: the core and the chunks of the stages its bundle uses", () => {
    expect(size!.termy.stages).toEqual(["probabilistic", "templates", "context", "sanitizer", "shell"]);
    const template = size!.lazy.find((chunk) => chunk.modules.includes("match-template.ts"))!;
    expect(size!.termy.bytes).toBeGreaterThanOrEqual(size!.core + template.bytes);
    expect(size!.optional.lexer).toBeGreaterThan(0);
  });
});
