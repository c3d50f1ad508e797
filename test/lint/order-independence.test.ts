// Same sources in any file order give identical diagnostics.
import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintSources } from "../../compiler/lint.js";
import { listFilesSorted } from "../../compiler/sources/ndf/files.js";
import { hasTermy, termyDir } from "../compile/termy-corpus.js";
import { tempDir, writeTree } from "../support/cli.js";

const work = tempDir("order");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function diagnosticsOf(dir: string): string[] {
  return lintSources([dir]).diagnostics.map((d) => `${relative(dir, d.loc.file)}:${d.loc.line}:${d.loc.column} ${d.code} ${d.message}`);
}

// Read in beforeAll, not in the suite's body, so the test is declared (and counted as skipped) without the corpus too.
describe.skipIf(!hasTermy)("diagnostics do not depend on file order", () => {
  let files: { relPath: string; text: Buffer }[];
  let baseline: string[];
  beforeAll(() => {
    files = listFilesSorted(termyDir).map((f) => ({ relPath: f.relPath, text: readFileSync(f.path) }));
    baseline = diagnosticsOf(termyDir);
  });

  it("copies of TERMy written in shuffled orders lint identically", () => {
    let run = 0;
    fc.assert(
      fc.property(fc.shuffledSubarray(files, { minLength: files.length, maxLength: files.length }), (shuffled) => {
        const dir = join(work, `copy-${run++}`);
        for (const file of shuffled) writeTree(dir, { [file.relPath]: file.text });
        expect(diagnosticsOf(dir)).toEqual(baseline);
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 8, seed: 20261129 },
    );
  });
});
