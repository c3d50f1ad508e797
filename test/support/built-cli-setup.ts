// Vitest globalSetup: reserves one temp directory per run into which builtCli() compiles the CLI
// (lazily, by the first test file that needs it), and removes it after the run, with the run's
// temporary folder (vitest.config.ts) that the tests' temporary files go into.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    builtCliDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "ndfc-built-cli-"));
  project.provide("builtCliDir", dir);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    const runTmp = process.env.NDFC_TEST_TMP;
    if (runTmp) rmSync(runTmp, { recursive: true, force: true });
  };
}
