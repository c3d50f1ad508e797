import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Tests must not read or write the user's cache (~/.cache/ndfc).
const cacheDir = mkdtempSync(join(tmpdir(), "ndfc-test-cache-"));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { NDFC_CACHE_DIR: cacheDir },
    // Reserves the directory that test/support/built-cli.ts compiles the CLI into, once per run.
    // The second prints, once, what a missing shared corpus leaves untested.
    globalSetup: ["test/support/built-cli-setup.ts", "test/support/corpus-note-setup.ts"],
  },
});
