// `ndfc create`: a new NPC from datasets/example that lints clean (--strict) and builds.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured, tempDir } from "../support/cli.js";

describe("ndfc create", () => {
  it("scaffolds a named NPC that lints clean with --strict, builds and answers", async () => {
    const cwd = tempDir("create");
    const made = await runCaptured(["create", "Bobby Bot", "--dir", "npcs"], cwd);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain("created npcs/bobby-bot");
    const dir = join(cwd, "npcs", "bobby-bot");
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
    expect(Object.values(config)).toContain("Bobby Bot");
    expect(readdirSync(join(dir, "dataset")).sort()).toEqual(readdirSync(join(import.meta.dirname, "../../datasets/example/dataset")).sort());
    const lint = await runCaptured(["lint", dir, "--strict"], cwd);
    expect(lint.code, lint.out + lint.err).toBe(0);
    const build = await runCaptured(["build", dir, "--output", "bobby.npc"], cwd);
    expect(build.code, build.err).toBe(0);
    const inspect = await runCaptured(["inspect", "bobby.npc"], cwd);
    expect(inspect.out).toContain("Bobby Bot");
  });

  it("refuses to overwrite an existing directory and leaves it untouched", async () => {
    const cwd = tempDir("create-twice");
    expect((await runCaptured(["create", "twin"], cwd)).code).toBe(0);
    const before = readFileSync(join(cwd, "datasets/twin/config.json"), "utf8");
    const again = await runCaptured(["create", "twin"], cwd);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/twin already exists; nothing was written/);
    expect(readFileSync(join(cwd, "datasets/twin/config.json"), "utf8")).toBe(before);
    expect(readdirSync(join(cwd, "datasets"))).toEqual(["twin"]);
  });

  it("refuses a name without letters or digits", async () => {
    const cwd = tempDir("create-bad");
    const bad = await runCaptured(["create", "!!!"], cwd);
    expect(bad).toMatchObject({ code: 2, err: expect.stringMatching(/cannot name an NPC/) });
    expect(existsSync(join(cwd, "datasets"))).toBe(false);
  });
});
