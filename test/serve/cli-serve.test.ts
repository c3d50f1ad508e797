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
  expect(result.err).toMatch(/^ndfc: no bundle at missing.npc: build it first: ndfc build DIR \(it writes dist-npcs\/NAME.npc\)\n$/);
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

it("refuses to listen beyond loopback without an API key, and an unreadable or empty key file", async () => {
  const { dir, file } = bundleFile();
  const open = await runCaptured(["serve", file, "--no-store", "--port", "0", "--host", "0.0.0.0"], dir);
  expect(open.code).toBe(2);
  expect(open.err).toBe(
    "ndfc: 0.0.0.0 is reachable from other machines: give an API key (--api-key KEY or --api-key-file PATH) so only your clients can talk to the NPC, or listen on 127.0.0.1\n",
  );
  const missing = await runCaptured(["serve", file, "--no-store", "--port", "0", "--api-key-file", "keys.txt"], dir);
  expect(missing).toMatchObject({ code: 2, err: "ndfc: cannot read --api-key-file keys.txt: ENOENT\n" });
  writeFileSync(join(dir, "empty.txt"), "# no keys yet\n\n");
  const empty = await runCaptured(["serve", file, "--no-store", "--port", "0", "--api-key-file", "empty.txt"], dir);
  expect(empty).toMatchObject({ code: 2, err: "ndfc: --api-key-file empty.txt holds no key (one key per line)\n" });
});

it("--help explains keys, origins, sessions, pages and logs", async () => {
  const { dir } = bundleFile();
  const help = await runCaptured(["serve", "--help"], dir);
  for (const part of ["--api-key <key>", "--api-key-file <path>", "--cors <origin>", "--log-messages", "/chat/NPC", "/health", "Security model:", "X-Session-Id", "session_not_found", "Authorization: Bearer"]) {
    expect(help.out).toContain(part);
  }
});
