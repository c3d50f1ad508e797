// `ndfc ask` runs on the packaged runtime (compiler/cli/runtime.ts) when one sits beside the built
// CLI: its answers must be the per-file runtime's, its refusals as clear, and its process must
// import nothing of the runtime or the compiler beyond what an ask needs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRuntime, packagedRuntimeIsCurrent } from "../../compiler/cli/runtime.js";
import { builtCli } from "../support/built-cli.js";
import { runCaptured } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

const BUNDLE = join(repoRoot, "dist-npcs/termy.npc");
const MESSAGES = ["list files", "copy notes.txt to backup.txt", "delete old.log", "what is the weather like on mars", "hello"];

function runBuilt(cli: string, args: string[]): { code: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** Every module file a module imports statically, transitively (relative specifiers of compiled output). */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gm)) visit(resolve(dirname(file), spec!));
  };
  visit(entry);
  return [...seen];
}

describe("ndfc ask on the packaged runtime", () => {
  let cli = "";
  let scratch = "";
  beforeAll(() => {
    cli = builtCli(); // compiling the CLI may take a while on a busy machine
    scratch = mkdtempSync(join(tmpdir(), "ndfc-ask-"));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("is the runtime a built ask process takes, and the sources' (the tests') is the per-file one", async () => {
    const runtimeModule = pathToFileURL(join(dirname(cli), "runtime.js")).href;
    const probe = `const m = await import(${JSON.stringify(runtimeModule)}); console.log((await m.preferPackagedRuntime()).kind);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { encoding: "utf8" });
    expect(run.stdout.trim()).toBe("packaged");
    expect(packagedRuntimeIsCurrent()).toBe(false);
    expect((await cliRuntime()).kind).toBe("per-file");
  });

  it.each(MESSAGES)("answers %j as the per-file runtime does, --json and --explain included", async (message) => {
    for (const flags of [["--json"], ["--explain"], ["--seed", "3", "--user", "ada"]]) {
      const args = ["ask", BUNDLE, message, ...flags];
      const built = runBuilt(cli, args);
      const inProcess = await runCaptured(args, repoRoot);
      expect(built.code).toBe(0);
      expect(built.out).toBe(inProcess.out);
      expect(built.out.length).toBeGreaterThan(0);
    }
  });

  it("refuses a corrupt or truncated bundle with the file's name and exit 2, no stack trace", () => {
    const bytes = readFileSync(BUNDLE);
    const flipped = Uint8Array.from(bytes);
    flipped[bytes.length >> 1]! ^= 0x10;
    const cases: [string, Uint8Array, RegExp][] = [
      ["flipped.npc", flipped, /flipped\.npc: invalid \.npc bundle: payload SHA-256 does not match the header/],
      ["short.npc", bytes.subarray(0, 100), /short\.npc: invalid \.npc bundle: header says the payload has \d+ bytes/],
    ];
    for (const [name, content, reason] of cases) {
      const file = join(scratch, name);
      writeFileSync(file, content);
      const run = runBuilt(cli, ["ask", file, "hello"]);
      expect(run.code).toBe(2);
      expect(run.err).toMatch(reason);
      expect(run.err).not.toMatch(/internal error|at .*\.js:\d+/);
    }
  });

  it("imports no compiler module and none of the per-file runtime but the tool-call reader", () => {
    const cliDir = dirname(cli);
    const built = dirname(dirname(cliDir));
    const modules = [join(cliDir, "main.js"), join(cliDir, "ask.js")].flatMap(staticClosure).map((file) => file.slice(built.length + 1));
    const outside = modules.filter((file) => !file.startsWith("compiler/cli/") && file !== "compiler/version.js" && file !== "runtime/render/tool-call.js");
    expect(modules).toContain("compiler/cli/runtime.js");
    expect(outside).toEqual([]);
  });
});
