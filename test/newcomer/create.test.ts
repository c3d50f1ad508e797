// `ndfc create`: a small starter NPC named after the user's choice (NDF JSON, or the rule DSL with
// --dsl) with its own README, lint-clean with --strict, that builds and answers; never a copy of
// datasets/example (issue 19: it kept dataset_example.json and the example's README).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured, tempDir } from "../support/cli.js";

const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

describe("ndfc create", () => {
  it.each([
    { flags: [] as string[], kind: "NDF JSON" },
    { flags: ["--dsl"], kind: "rule DSL" },
  ])("writes a named $kind starter with its own README that lints clean with --strict, builds under its name and answers", async ({ flags }) => {
    const cwd = tempDir("create");
    const made = await runCaptured(["create", "Bobby Bot", "--dir", "npcs", ...flags], cwd);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain("created npcs/bobby-bot");
    const dir = join(cwd, "npcs", "bobby-bot");
    const files = filesUnder(dir);
    expect(files.join(" ")).not.toMatch(/example/);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toMatch(/^# Bobby Bot\n/);
    expect(readme).toContain("npx ndfc build npcs/bobby-bot");
    for (const file of files.filter((f) => f.endsWith(".json"))) expect(() => JSON.parse(readFileSync(join(dir, file), "utf8")), file).not.toThrow();
    const lint = await runCaptured(["lint", dir, "--strict"], cwd);
    expect(lint.code, lint.out + lint.err).toBe(0);
    const build = await runCaptured(["build", dir], cwd);
    expect(build.code, build.err).toBe(0);
    expect(build.out).toContain("built dist-npcs/bobby-bot.npc");
    expect((await runCaptured(["inspect", "dist-npcs/bobby-bot.npc"], cwd)).out).toContain("Bobby Bot");
    const ask = await runCaptured(["ask", "dist-npcs/bobby-bot.npc", "say good night"], cwd);
    expect(ask.out).toContain("You said: good night.");
    expect((await runCaptured(["ask", "dist-npcs/bobby-bot.npc", "hello"], cwd)).out).toMatch(/Hello, I am Bobby Bot\.|Hi! What can I do\?/);
  });

  it("refuses to overwrite an existing directory and leaves it untouched", async () => {
    const cwd = tempDir("create-twice");
    expect((await runCaptured(["create", "twin"], cwd)).code).toBe(0);
    const before = readFileSync(join(cwd, "datasets/twin/config.json"), "utf8");
    const again = await runCaptured(["create", "twin", "--dsl"], cwd);
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
