// The CLI compiled from the current sources (build/ may be stale while others work), once per test
// run: the first caller compiles into the run's directory (see built-cli-setup.ts) under a lock
// directory; other test files, possibly in other workers, wait for its marker.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { repoRoot } from "./repo-root.js";

const WAIT_LIMIT_MS = 180_000;
const POLL_MS = 100;

/** Path to compiler/cli/main.js compiled for this run (with the chat page's web-assets/ and the packaged runtime), node_modules linked beside it. */
export function builtCli(): string {
  const out = inject("builtCliDir");
  const mainJs = join(out, "compiler/cli/main.js");
  const done = join(out, "built.done");
  const failed = join(out, "built.failed");
  if (tryLock(join(out, "build.lock"))) compileInto(out, mainJs, done, failed);
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!existsSync(done)) {
    if (existsSync(failed)) throw new Error(readFileSync(failed, "utf8"));
    if (Date.now() > deadline) throw new Error(`the CLI was not compiled into ${out} within ${WAIT_LIMIT_MS} ms`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, POLL_MS);
  }
  return mainJs;
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}

function compileInto(out: string, mainJs: string, done: string, failed: string): void {
  symlinkSync(join(repoRoot, "node_modules"), join(out, "node_modules"), "dir");
  writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
  // Type errors elsewhere in the tree do not stop tsc from emitting; the check is that main.js exists.
  const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(repoRoot, "tsconfig.json"), "--outDir", out], {
    encoding: "utf8",
  });
  if (!existsSync(mainJs)) {
    writeFileSync(failed, `tsc emitted no CLI: ${tsc.stdout}${tsc.stderr}`);
    return;
  }
  // The chat page's files, where the compiled CLI looks for them (compiler/web/assets.ts).
  const web = spawnSync(process.execPath, [join(out, "scripts/build-web-assets.js"), repoRoot, join(out, "web-assets")], { encoding: "utf8" });
  if (web.status !== 0) return writeFileSync(failed, `the chat page's files were not built: ${web.stdout}${web.stderr}`);
  // The packaged runtime beside the compiled one, as `npm run build` leaves it (`ndfc ask` runs on it: compiler/cli/runtime.ts).
  const runtime = spawnSync(process.execPath, [join(out, "scripts/build-runtime-package.js"), repoRoot, out, join(out, "runtime-bundled")], { encoding: "utf8" });
  if (runtime.status === 0) writeFileSync(done, "");
  else writeFileSync(failed, `the packaged runtime was not built: ${runtime.stdout}${runtime.stderr}`);
}
