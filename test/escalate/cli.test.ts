// The --escalate options of the CLI: chat escalating to the stand-in model, and the usage errors.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { builtCli } from "../support/built-cli.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { keeperDir } from "./keeper-npc.js";
import { pick, startStandIn, STAND_IN_MODEL, type StandIn } from "./stand-in.js";

let model: StandIn;
let bundle: string;

beforeAll(async () => {
  model = await startStandIn();
  bundle = join(tempDir("escalate-cli"), "keeper.npc");
  writeFileSync(bundle, compileNpc(lintSources([keeperDir()]).ir).bytes);
});
afterAll(() => model.close());

/** Runs the built CLI with `input` on stdin, asynchronously (the stand-in answers from this process). */
function run(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [builtCli(), ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("exit", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe("ndfc chat --escalate", () => {
  it("answers what the NPC rejects with the model's pick, and says which model answered", async () => {
    model.script(pick("list_files"));
    const result = await run(["chat", bundle, "--no-store", "--escalate", model.url, "--escalate-api", "ollama", "--escalate-model", "llama3.2"], "gimme an overview of my stuff\n/quit\n");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Keeper> Here are your files.");
    expect(result.stdout).toContain(`[escalated · confidence 0 · permission yolo · asked ${STAND_IN_MODEL}: answered]`);
    expect(model.requests.at(-1)).toMatchObject({ path: "/api/chat", body: { model: "llama3.2" } });
  }, 60_000);
});

describe("--escalate usage errors", () => {
  it.each([
    [["--escalate", "http://127.0.0.1:9"], /--escalate needs --escalate-model NAME/],
    [["--escalate", "ftp://127.0.0.1"], /expected an http:\/\/ or https:\/\/ URL/],
    [["--escalate", "not a url"], /expected the model server's URL/],
    [["--escalate", "http://127.0.0.1:9", "--escalate-model", "m", "--escalate-timeout", "0"], /expected seconds, more than 0/],
    [["--escalate", "http://127.0.0.1:9", "--escalate-model", "m", "--escalate-api", "claude"], /Allowed choices are openai, ollama/],
  ])("serve %j is a usage error (exit 2) that says what to give", async (args, message) => {
    const result = await runCaptured(["serve", bundle, "--no-store", "--port", "0", ...args], process.cwd());
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it("serve --help teaches the escalation", async () => {
    const help = await runCaptured(["serve", "--help"], process.cwd());
    expect(help.out).toContain("--escalate <url>");
    expect(help.out).toContain("couldn't resolve, and the model is unavailable");
    expect(help.out).toContain("--escalate-api ollama --escalate-model llama3.2");
  });
});
