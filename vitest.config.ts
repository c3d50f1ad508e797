import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Every temporary file of a run (tests, the CLI processes they start, the cache that must not be
// the user's ~/.cache/ndfc) goes under one folder, which test/support/built-cli-setup.ts removes
// after the run. Set on process.env so that the global setup, in this process, finds it; always a
// new one, so that a vitest started by a test (which inherits the variable) removes only its own.
const runTmp = mkdtempSync(join(tmpdir(), "ndfc-test-run-"));
process.env.NDFC_TEST_TMP = runTmp;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { NDFC_CACHE_DIR: join(runTmp, "cache"), TMPDIR: runTmp },
    // Reserves the directory that test/support/built-cli.ts compiles the CLI into, once per run,
    // and removes the run's temporary folder at the end. The second prints, once, what a missing
    // shared corpus leaves untested.
    globalSetup: ["test/support/built-cli-setup.ts", "test/support/corpus-note-setup.ts"],
  },
});
