// Without the shared corpus the run says so once, naming what runs instead (issue 19: it was
// printed by each corpus test file, six times). Checked by running four corpus-dependent test
// files in a child vitest with NDFC_SHARED_CORPUS pointed at a directory that does not exist.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SHARED_CORPUS_ENV } from "../support/corpus.js";
import { tempDir } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

describe("a run without the shared corpus", () => {
  it("prints the skip note once, names datasets/termy, skips the corpus tests and runs the fixture", () => {
    const files = ["test/datasets/tool-shapes.test.ts", "test/tcs/termy-corpus.test.ts", "test/compile/corpus-build-cli.test.ts", "test/learn/banking77.test.ts"];
    const run = spawnSync(process.execPath, [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--reporter=verbose", ...files], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, [SHARED_CORPUS_ENV]: join(tempDir("no-corpus"), "missing"), NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    const output = run.stdout + run.stderr;
    expect(output.match(/NPC-Forge corpus not found/g), output).toHaveLength(1);
    expect(output).toContain("datasets/termy and test/fixtures/two-tool-shapes run instead");
    expect(output).toMatch(/↓ .*the smith NPC of NPC-Forge|the smith NPC of NPC-Forge.*skipped/);
    expect(output).toMatch(/✓ .*answers each tool in the shape it was written/);
    // Banking77 is found through the same variable, so it is skipped too, with its line of the note
    expect(output.match(/Banking77 not found at /g), output).toHaveLength(1);
    expect(output).toMatch(/↓ .*rejects at least 90 % of the off-topic prompts/);
    expect(run.status, output).toBe(0);
  });
});
