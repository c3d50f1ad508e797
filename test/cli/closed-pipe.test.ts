// A reader that stops early (`ndfc … | head -1`) must not get a stack trace from ndfc.
import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "../support/built-cli.js";
import { repoRoot } from "../support/repo-root.js";

/** Runs the built CLI with stdout piped into a reader that closes after the first chunk. */
function runIntoClosingPipe(cli: string, args: string[]): Promise<{ code: number | null; stderr: string; firstChunk: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let firstChunk = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once("data", (chunk: Buffer) => {
      firstChunk = chunk.toString();
      child.stdout.destroy(); // what `head -1` does once it has its line
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr, firstChunk }));
  });
}

describe("a closed stdout pipe", () => {
  let cli = "";
  beforeAll(() => void (cli = builtCli())); // compiling the CLI may take a while on a busy machine
  it("ends a long listing quietly, with no EPIPE stack trace", async () => {
    // `sample` of every template with many sentences each writes far more than a pipe buffer holds.
    const run = await runIntoClosingPipe(cli, ["sample", "datasets/termy", "-n", "200"]);
    expect(run.firstChunk.length).toBeGreaterThan(0);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|at .*\.js:\d+/);
    expect(run.code).toBe(0);
  });
});
