import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Every temporary file of a run (tests, the CLI processes they start, the cache that must not be
// the user's ~/.cache/ndfc) goes under one folder, which test/support/built-cli-setup.ts removes
// after the run. Set on process.env so that the global setup, in this process, finds it.
process.env.NDFC_TEST_TMP ??= mkdtempSync(join(tmpdir(), "ndfc-test-run-"));
const runTmp = process.env.NDFC_TEST_TMP;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { NDFC_CACHE_DIR: join(runTmp, "cache"), TMPDIR: runTmp },
    // Reserves the directory that test/support/built-cli.ts compiles the CLI into, once per run,
    // and removes the run's temporary folder at the end.
    globalSetup: ["test/support/built-cli-setup.ts"],
  },
});
