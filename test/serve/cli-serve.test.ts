// `ndfc serve` refusals that happen before it listens (exit 2, one line, no stack trace). The
// running command itself is exercised as a child process in durability.test.ts.
import { createServer } from "node:net";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { expect, it } from "vitest";
import { runCaptured, tempDir } from "../support/cli.js";
import { datasetBundle } from "../support/datasets.js";

function bundleFile(): { dir: string; file: string } {
  const dir = tempDir("cli-serve");
  const file = join(dir, "termy.npc");
  writeFileSync(file, datasetBundle("termy"));
  return { dir, file };
}

it("refuses a missing bundle", async () => {
  const { dir } = bundleFile();
  const result = await runCaptured(["serve", "missing.npc", "--no-store"], dir);
  expect(result.code).toBe(2);
  expect(result.err).toMatch(/^ndfc: cannot read bundle missing.npc: ENOENT\n$/);
});

it("refuses two bundles of the same NPC", async () => {
  const { dir, file } = bundleFile();
  const result = await runCaptured(["serve", file, file, "--no-store"], dir);
  expect(result.code).toBe(2);
  expect(result.err).toContain('two bundles are both named "termy"');
});

it("refuses a port already in use, and a bad option value", async () => {
  const { dir, file } = bundleFile();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const result = await runCaptured(["serve", file, "--no-store", "--port", String(port)], dir);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(new RegExp(`cannot listen on 127.0.0.1:${port}: .*EADDRINUSE`));
  } finally {
    blocker.close();
  }
  const bad = await runCaptured(["serve", file, "--no-store", "--max-body", "-5"], dir);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain("--max-body must be an integer");
});

it("refuses a store that cannot be opened", async () => {
  const { dir, file } = bundleFile();
  const result = await runCaptured(["serve", file, "--store", join(file, "inside-a-file.db")], dir);
  expect(result.code).toBe(2);
  expect(result.err).toMatch(/^ndfc: cannot open the store /);
});
