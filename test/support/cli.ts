// Running the CLI in-process and writing throwaway NPC directories, for tests.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../compiler/cli/program.js";
import type { CliIO } from "../../compiler/cli/io.js";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCaptured(argv: string[], cwd: string): Promise<CliRun> {
  let out = "";
  let err = "";
  const io: CliIO = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd, isTTY: false };
  const code = await runCli(argv, io);
  return { code, out, err };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `ndfc-${prefix}-`));
}

/** Writes `files` (relative path → contents) under `dir` and returns `dir`. */
export function writeTree(dir: string, files: Record<string, string | Uint8Array>): string {
  for (const [file, contents] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), contents);
  }
  return dir;
}
