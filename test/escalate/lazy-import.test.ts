// With escalation off, none of its code is loaded: `ndfc serve` started without --escalate, in
// its own process with a module resolve hook that reports every module, answers a rejected
// message without resolving any file of compiler/escalate/; with --escalate it loads them (the
// hook sees what it should). And no static import chain from the CLI reaches those files: only
// escalate-options.ts's dynamic import does.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { builtCli } from "../support/built-cli.js";
import { tempDir, writeTree } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";
import { keeperDir } from "./keeper-npc.js";
import { refusingUrl } from "./stand-in.js";

const HOOKS = `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  process.stderr.write("resolved " + result.url + "\\n");
  return result;
}
`;

/** Starts serve with the hook, sends one rejected message, stops it; returns the module URLs it resolved. */
async function modulesOfServe(extra: string[]): Promise<string[]> {
  const dir = writeTree(tempDir("lazy-import"), { "hooks.mjs": HOOKS, "register.mjs": `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n` });
  const bundle = join(dir, "keeper.npc");
  writeFileSync(bundle, compileNpc(lintSources([keeperDir()]).ir).bytes);
  const child = spawn(process.execPath, ["--import", join(dir, "register.mjs"), builtCli(), "serve", bundle, "--port", "0", "--no-store", ...extra], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((done, fail) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)\/v1/.exec(stdout);
      if (match) done(match[1]!);
    });
    child.on("exit", (code) => fail(new Error(`serve exited (${code}): ${stderr}`)));
  });
  const response = await fetch(`${url}/api/chat/keeper`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "blorp quux zonk" }) });
  expect(((await response.json()) as { status: string }).status).toBe("rejected");
  const exited = new Promise((done) => child.on("exit", done));
  child.kill("SIGTERM");
  await exited;
  return [...new Set([...stderr.matchAll(/^resolved (\S+)$/gm)].map((m) => m[1]!))];
}

describe("escalation off costs nothing", () => {
  it("serve without --escalate never loads a module of compiler/escalate/ (with it, it does)", async () => {
    const off = await modulesOfServe([]);
    expect(off.some((url) => url.endsWith("/compiler/serve/server.js"))).toBe(true);
    expect(off.filter((url) => url.includes("/compiler/escalate/"))).toEqual([]);
    const on = await modulesOfServe(["--escalate", await refusingUrl(), "--escalate-model", "m"]);
    expect(on.filter((url) => url.includes("/compiler/escalate/")).map((url) => url.replace(/.*\/compiler\/escalate\//, "")).sort()).toEqual(
      ["answer.js", "catalogue.js", "client.js", "escalator.js", "prompt.js"],
    );
  }, 60_000);

  it("no static import chain from the CLI reaches compiler/escalate/ (type imports are erased)", () => {
    // main.ts imports each command's module dynamically (cli/program.ts): serve.ts is what `ndfc serve` loads with it.
    const reached = new Set([...staticClosure(join(repoRoot, "compiler/cli/main.ts")), ...staticClosure(join(repoRoot, "compiler/cli/serve.ts"))]);
    expect([...reached].map((file) => relative(repoRoot, file)).filter((file) => file.startsWith("compiler/escalate/"))).toEqual([]);
    expect(reached.has(join(repoRoot, "compiler/cli/escalate-options.ts"))).toBe(true);
    expect(readFileSync(join(repoRoot, "compiler/cli/escalate-options.ts"), "utf8")).toContain('await import("../escalate/escalator.js")');
  });
});

/** Value imports only: `import type`/`export type` are erased by tsc, and import() is not static. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?["'](\.[^"']+)["']/gm;

function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const match of text.matchAll(STATIC_IMPORT)) pending.push(resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts")));
  }
  return seen;
}
