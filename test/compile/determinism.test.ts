import { mkdtempSync, readdirSync, readFileSync, mkdirSync, writeFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FORMAT_MAJOR, FORMAT_MINOR } from "../../runtime/bundle/format.js";
import fc from "fast-check";
import { compileNpc } from "../../compiler/compile.js";
import { inspectPayload } from "../../compiler/cli/inspect.js";
import { lintSources } from "../../compiler/lint.js";
import type { NpcIR } from "../../compiler/ir/types.js";
import { loadNpc } from "../../runtime/index.js";
import { shellNpc } from "../runtime/ir-fixture.js";
import { hasTermy, termyDir } from "./termy-corpus.js";

function shuffled<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)]! * 1000 + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.item);
}

describe("reproducible bundles", () => {
  const reference = compileNpc(shellNpc()).bytes;

  it("do not depend on the order of intents, synonyms, types, word lists or sources in the IR", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 20 }), (keys) => {
        const ir = shellNpc();
        const reordered: NpcIR = {
          ...ir,
          intents: shuffled(ir.intents, keys),
          synonyms: shuffled(ir.synonyms, keys.slice().reverse()),
          types: shuffled(ir.types, keys),
          wordLists: shuffled(ir.wordLists, keys),
          sources: shuffled(ir.sources, keys),
        };
        expect(compileNpc(reordered).bytes).toEqual(reference);
      }),
      { numRuns: 30 },
    );
  });

  it("round-trip: the loaded bundle reports what was built", async () => {
    const built = compileNpc(shellNpc());
    const npc = await loadNpc(built.bytes);
    const report = inspectPayload(npc.payload, built.bytes);
    expect(report).toMatchObject({
      name: built.summary.name,
      format: `${FORMAT_MAJOR}.${FORMAT_MINOR}`,
      sourceHash: built.summary.sourceHash,
      bytes: built.summary.bytes,
      counts: built.payload.counts,
    });
    expect(report.counts.intents).toBe(built.summary.intents);
  });

  describe.skipIf(!hasTermy)("TERMy copied with different file creation orders", () => {
    const temps: string[] = [];
    afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

    function copyInOrder(reverse: boolean): string {
      const target = mkdtempSync(join(tmpdir(), "ndfc-order-"));
      temps.push(target);
      const files = (readdirSync(termyDir, { recursive: true }) as string[])
        .map(String)
        .filter((f) => statSync(join(termyDir, f)).isFile())
        .sort();
      for (const file of reverse ? files.reverse() : files) {
        mkdirSync(join(target, file, ".."), { recursive: true });
        writeFileSync(join(target, file), readFileSync(join(termyDir, file)));
      }
      return target;
    }

    // Three TERMy compiles, each training the learned stage: seconds on a quiet machine, over a
    // minute on a busy shared one, so the default 60 s would fail it for the machine, not the code.
    it("give byte-identical bundles", { timeout: 300_000 }, () => {
      const a = compileNpc(lintSources([copyInOrder(false)]).ir).bytes;
      const b = compileNpc(lintSources([copyInOrder(true)]).ir).bytes;
      const original = compileNpc(lintSources([termyDir]).ir).bytes;
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      expect(Buffer.from(a).equals(Buffer.from(original))).toBe(true);
    });
  });
});


