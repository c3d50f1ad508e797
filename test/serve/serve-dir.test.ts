// `ndfc serve DIR`: every bundle of a directory is a model (/v1/models, the / page, /chat/<model>);
// a bad bundle there is named on stderr and skipped. Runs the CLI compiled from the sources as a child.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { builtCli } from "../support/built-cli.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { datasetBundle } from "../support/datasets.js";

const work = tempDir("serve-dir");
const dist = join(work, "dist-npcs");
let child: ChildProcess | undefined;

beforeAll(() => {
  mkdirSync(dist);
  writeFileSync(join(dist, "termy.npc"), datasetBundle("termy"));
  writeFileSync(join(dist, "example.npc"), datasetBundle("example"));
  writeFileSync(join(dist, "broken.npc"), "NPC? not really");
});

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

function serveDirectory(mainJs: string): Promise<{ url: string; err: () => string }> {
  child = spawn(process.execPath, [mainJs, "serve", dist, "--port", "0", "--no-store"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child!.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)\/v1/.exec(out);
      if (match) resolve({ url: match[1]!, err: () => err });
    });
    child!.once("exit", (code) => reject(new Error(`serve exited (${code}) before listening: ${out}${err}`)));
  });
}

it("serves every bundle of the directory by name and skips the bad one, saying which", async () => {
  const { url, err } = await serveDirectory(builtCli());
  const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string }[] };
  expect(models.data.map((m) => m.id).sort()).toEqual(["example", "termy"]);
  const index = await (await fetch(`${url}/`)).text();
  for (const id of ["example", "termy"]) {
    expect(index).toContain(`/chat/${id}`);
    expect((await fetch(`${url}/chat/${id}`)).status).toBe(200);
  }
  const answer = await fetch(`${url}/api/chat/example`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "hello" }) });
  expect(answer.status).toBe(200);
  expect(err()).toMatch(/ndfc serve: skipping .*broken\.npc: .+\n/);
});

it("refuses a directory without any loadable bundle (exit 2, one line)", async () => {
  const empty = join(work, "empty");
  mkdirSync(empty);
  writeFileSync(join(empty, "broken.npc"), "junk");
  const run = await runCaptured(["serve", empty, "--no-store", "--port", "0"], work);
  expect(run.code).toBe(2);
  expect(run.err).toMatch(/skipping .*broken\.npc/);
  expect(run.err).toContain(`ndfc: no loadable .npc bundle in ${empty}`);
});
