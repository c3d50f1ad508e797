// Without the shared corpus the run says so once, naming what runs instead (issue 19: it was
// printed by each corpus test file, six times). Checked by running four corpus-dependent test
// files in a child vitest with NDFC_SHARED_CORPUS pointed at a directory that does not exist.
// With it the run says where it found it, and NDFC_REQUIRE_CORPUS=1 turns its absence into a
// failure (issue 16: CI with ../shared must not skip the corpus tests).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusNote, REQUIRE_CORPUS_ENV, SHARED_CORPUS_ENV, sharedCorpusDir } from "../support/corpus.js";
import { tempDir } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

/** A child vitest over `files`, with these variables: its status and everything it printed. */
function childRun(files: string[], env: Record<string, string>): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--reporter=verbose", ...files], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, [REQUIRE_CORPUS_ENV]: "", ...env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

const missingCorpus = () => join(tempDir("no-corpus"), "missing");
/** A quick file of the suite that needs no corpus. */
const QUICK_FILE = "test/structure/import-graph.test.ts";

describe("a run without the shared corpus", () => {
  it("prints the skip note once, names datasets/termy, skips the corpus tests and runs the fixture", () => {
    const files = ["test/datasets/tool-shapes.test.ts", "test/tcs/termy-corpus.test.ts", "test/compile/corpus-build-cli.test.ts", "test/learn/banking77.test.ts"];
    const { status, output } = childRun(files, { [SHARED_CORPUS_ENV]: missingCorpus() });
    expect(output.match(/NPC-Forge corpus not found/g), output).toHaveLength(1);
    expect(output).toContain("datasets/termy and test/fixtures/two-tool-shapes run instead");
    expect(output).toMatch(/↓ .*the smith NPC of NPC-Forge|the smith NPC of NPC-Forge.*skipped/);
    expect(output).toMatch(/✓ .*answers each tool in the shape it was written/);
    // Banking77 is found through the same variable, so it is skipped too, with its line of the note
    expect(output.match(/Banking77 not found at /g), output).toHaveLength(1);
    expect(output).toMatch(/↓ .*rejects at least 90 % of the off-topic prompts/);
    expect(output).not.toContain("Shared corpus found at");
    expect(status, output).toBe(0);
  });

  it(`fails before any test runs when ${REQUIRE_CORPUS_ENV}=1`, () => {
    const { status, output } = childRun([QUICK_FILE], { [SHARED_CORPUS_ENV]: missingCorpus(), [REQUIRE_CORPUS_ENV]: "1" });
    expect(output).toContain(`${REQUIRE_CORPUS_ENV}=1 and the shared corpus is missing`);
    expect(output).toContain("NPC-Forge corpus not found at");
    expect(output).not.toMatch(/✓ .*has no import cycle/);
    expect(status, output).not.toBe(0);
  });
});

describe.skipIf(corpusNote().missing)("a run with the shared corpus", () => {
  it(`says in one line where it found it, and passes with ${REQUIRE_CORPUS_ENV}=1`, () => {
    const { status, output } = childRun([QUICK_FILE], { [SHARED_CORPUS_ENV]: sharedCorpusDir, [REQUIRE_CORPUS_ENV]: "1" });
    expect(output.match(/Shared corpus found at /g), output).toHaveLength(1);
    expect(output).toContain(`Shared corpus found at ${sharedCorpusDir}:`);
    expect(output).not.toContain("not found at");
    expect(status, output).toBe(0);
  });
});
