import { readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FORMAT_MAJOR, FORMAT_MINOR } from "../../runtime/bundle/format.js";
import { runCaptured, tempDir, writeTree, type CliRun } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

const work = tempDir("cli");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npcDir = (name: string, files: Record<string, string>): string => writeTree(join(work, name), files);
const run = (argv: string[]): Promise<CliRun> => runCaptured(argv, work);

const tiny = npcDir("tiny", {
  "config.json": JSON.stringify({ npc_name: "Tiny Bot!", creator: "tests" }),
  "dataset/dataset_main.json": JSON.stringify([
    { input: ["ping", "are you there"], output: ["pong, <||username||> on <||computer_name||>"], permission: "yolo" },
    { input: ["remove the logs"], output: "Removing.", tools: [{ name: "run_in_terminal", arguments: { command: "rm -- logs.txt" } }], permission: "ask" },
  ]),
});

describe("ndfc build", () => {
  it("writes dist-npcs/<slug>.npc under the working directory and prints one summary line", async () => {
    const result = await run(["build", "tiny"]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^built dist-npcs\/tiny-bot\.npc: 2 intents, 0 templates, \d+ vocabulary words, \d+ bytes in \d+ ms\n$/);
    expect(existsSync(join(work, "dist-npcs/tiny-bot.npc"))).toBe(true);
    expect(readdirSync(join(work, "dist-npcs")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("writes the same bytes twice and honours -o", async () => {
    await run(["build", "tiny", "-o", "out/a.npc"]);
    await run(["build", tiny, "-o", join(work, "out/b.npc")]);
    expect(readFileSync(join(work, "out/a.npc")).equals(readFileSync(join(work, "out/b.npc")))).toBe(true);
  });

  it("refuses to write when the lint finds errors, and lists them", async () => {
    const broken = npcDir("broken", {
      "config.json": JSON.stringify({ npc_name: "Broken" }),
      "dataset/dataset_main.json": '[{"input": ["ping"], "output": "pong"',
    });
    const result = await run(["build", broken, "-o", "out/broken.npc"]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/dataset_main\.json:\d+:\d+: error/);
    expect(result.err).toMatch(/build refused: \d+ error/);
    expect(existsSync(join(work, "out/broken.npc"))).toBe(false);
  });

  it("builds the project's own TERMy dataset", async () => {
    const result = await run(["build", join(repoRoot, "datasets/termy"), "-o", "out/termy.npc"]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^built out\/termy\.npc: \d+ intents, \d+ templates/);
  });

  it("reports a missing input as a usage error", async () => {
    const result = await run(["build", "does-not-exist"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^ndfc: /);
  });
});

describe("ndfc ask and inspect", () => {
  it("ask prints the answer, with user and host from the options only", async () => {
    await run(["build", "tiny"]);
    const text = await run(["ask", "dist-npcs/tiny-bot.npc", "PING!", "--user", "ada", "--host", "box"]);
    expect(text).toMatchObject({ code: 0, out: "pong, ada on box\n" });
    const neutral = await run(["ask", "dist-npcs/tiny-bot.npc", "ping"]);
    expect(neutral.out).toBe("pong, user on localhost\n");
    const json = await run(["ask", "dist-npcs/tiny-bot.npc", "remove", "the", "logs", "--json", "--seed", "4"]);
    const answer = JSON.parse(json.out);
    expect(answer).toMatchObject({ status: "exact match", permission: "ask", tools: [{ name: "run_in_terminal", arguments: { command: "rm -- logs.txt" } }] });
    const tools = await run(["ask", "dist-npcs/tiny-bot.npc", "remove the logs"]);
    expect(tools.out).toBe("Removing.\n[run_in_terminal] rm -- logs.txt\n[permission] ask\n");
    const open = await run(["ask", "dist-npcs/tiny-bot.npc", 'ping "there']);
    expect(open.out).toMatch(/\(A quote was opened and never closed/);
  });

  it("inspect shows name, versions, source hash, counts and section sizes", async () => {
    await run(["build", "tiny"]);
    const text = await run(["inspect", "dist-npcs/tiny-bot.npc"]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/name\s+Tiny Bot!/);
    expect(text.out).toMatch(new RegExp(`format\\s+${FORMAT_MAJOR}\\.${FORMAT_MINOR}`));
    expect(text.out).toMatch(/source hash\s+[0-9a-f]{64}/);
    const json = JSON.parse((await run(["inspect", "dist-npcs/tiny-bot.npc", "--json"])).out);
    expect(json).toMatchObject({ name: "Tiny Bot!", format: `${FORMAT_MAJOR}.${FORMAT_MINOR}`, compilerVersion: "0.1.0", counts: { intents: 2 } });
    expect(json.sections.intents).toBeGreaterThan(0);
  });

  it("refuses a corrupt or missing bundle with exit 2 and a clear message", async () => {
    writeFileSync(join(work, "junk.npc"), "not a bundle at all, just text. ".repeat(4));
    const junk = await run(["inspect", "junk.npc"]);
    expect(junk.code).toBe(2);
    expect(junk.err).toMatch(/junk\.npc: invalid \.npc bundle: wrong magic/);
    const missing = await run(["ask", "nowhere.npc", "hi"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no bundle at nowhere\.npc: build it first: ndfc build DIR/);
    expect(missing.err).not.toMatch(/ENOENT/);
  });
});
