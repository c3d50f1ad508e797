// README's tour, walked literally as a newcomer on a fresh clone would (issue 19): every file
// snippet it names is written where it says, every `npx ndfc …` command of its code blocks is run
// in that order, and each must exit 0 with the output it promises. Snippets and commands are read
// from README.md itself, so the test breaks when the README drifts from what ndfc does.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured, tempDir, type CliRun } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const tour = readme.slice(readme.indexOf("## A tour"), readme.indexOf("\n## ", readme.indexOf("## A tour") + 1));

/** Files the tour shows whole: a line naming `path` and ending with ":", then the fenced snippet. */
const snippets = [...tour.matchAll(/`([\w./-]+\.(?:json|rules))`[^`\n]*:\n\n```(?:json|ruby)\n([\s\S]*?)```/g)].map((m) => ({ path: m[1]!, text: m[2]! }));

/** `npx ndfc …` lines of the tour's sh blocks, as argv (comments dropped, "…" kept as one argument). */
const commands = [...tour.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1]!.split("\n"))
  .filter((line) => line.startsWith("npx ndfc "))
  .map((line) => ({ line: line.replace(/\s+#.*$/, "").trim(), argv: shellWords(line.replace(/\s+#.*$/, "")).slice(2) }));

function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** Commands the tour shows that a test cannot walk: interactive sessions (test/chat covers chat). */
const INTERACTIVE = new Set(["chat"]);

/** What each step must print beyond exit 0, by the command line as README writes it. */
const EXPECT: Record<string, (run: CliRun, cwd: string) => void> = {
  "npx ndfc lint datasets/mybot": (run) => expect(run.out).toBe(""),
  "npx ndfc lint datasets/mybot --strict": (run) => expect(run.out).toBe(""),
  "npx ndfc lint datasets/mybot --format sarif": (run) => expect((JSON.parse(run.out) as { runs: { results: unknown[] }[] }).runs[0]!.results).toEqual([]),
  "npx ndfc schema --out .schemas": (_run, cwd) => expect(existsSync(join(cwd, ".schemas"))).toBe(true),
  "npx ndfc build datasets/mybot": (run) => expect(run.out).toMatch(/^built dist-npcs\/mybot\.npc: 2 intents/),
  "npx ndfc inspect dist-npcs/mybot.npc": (run) => expect(run.out).toContain("MyBot"),
  'npx ndfc ask dist-npcs/mybot.npc "delete file notes.txt"': (run) => {
    expect(run.out).toContain("Deleting notes.txt once you confirm.");
    expect(run.out).toContain("rm -- 'notes.txt'");
  },
  'npx ndfc ask dist-npcs/termy.npc "shwo disk spcae" --json': (run) => expect(JSON.parse(run.out)).toHaveProperty("witness"),
  'npx ndfc ask dist-npcs/termy.npc --explain "shwo disk spcae"': (run) => expect(run.out).toMatch(/^decision: /m),
  "npx ndfc create yourbot": (run) => expect(run.out).toContain("created datasets/yourbot"),
  "npx ndfc graph datasets/mybot -o mybot.mmd": (_run, cwd) => expect(readFileSync(join(cwd, "mybot.mmd"), "utf8")).toMatch(/^flowchart /),
  "npx ndfc list": (run) => expect(run.out).toMatch(/MyBot/),
};

describe("README's tour, walked literally", () => {
  it("names every file of mybot it shows, the DSL version too", () => {
    expect(snippets.map((s) => s.path).sort()).toEqual([
      "datasets/mybot/config.json",
      "datasets/mybot/dataset/dataset_files.json",
      "datasets/mybot/dataset/templates_files.json",
      "datasets/mybot/dataset/types.json",
      "datasets/mybot/dataset/vocabulary/templates.json",
      "datasets/mybot/dataset/vocabulary/vocabulary.json",
      "mybot.rules",
    ]);
    for (const { path, text } of snippets.filter((s) => s.path.endsWith(".json"))) expect(() => JSON.parse(text), path).not.toThrow();
  });

  it("runs each command in order with exit 0 and the output it promises", { timeout: 300_000 }, async () => {
    const cwd = tempDir("readme-tour");
    // A fresh clone has the project's datasets and committed bundles; the tour refers to Termy's.
    cpSync(join(repoRoot, "datasets/termy"), join(cwd, "datasets/termy"), { recursive: true });
    mkdirSync(join(cwd, "dist-npcs"));
    cpSync(join(repoRoot, "dist-npcs/termy.npc"), join(cwd, "dist-npcs/termy.npc"));
    for (const { path, text } of snippets) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), text);
    }
    const walked = commands.filter(({ argv }) => !INTERACTIVE.has(argv[0]!));
    expect(walked.map(({ argv }) => argv[0])).toEqual(expect.arrayContaining(["lint", "schema", "build", "inspect", "ask", "eval", "create"]));
    for (const { line, argv } of walked) {
      const run = await runCaptured(argv, cwd);
      expect({ line, code: run.code, err: run.code === 0 ? "" : run.err }).toEqual({ line, code: 0, err: "" });
      if (EXPECT[line]) EXPECT[line]!(run, cwd);
      else expect(run.out.length, line).toBeGreaterThan(0);
    }
    expect(Object.keys(EXPECT).filter((line) => !walked.some((c) => c.line === line))).toEqual([]);
  });

  it("the DSL version lints clean, and building it over the NDF bundle is refused as README says", async () => {
    const cwd = tempDir("readme-tour-dsl");
    for (const { path, text } of snippets) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), text);
    }
    expect(await runCaptured(["lint", "mybot.rules", "--strict"], cwd)).toMatchObject({ code: 0, out: "" });
    expect((await runCaptured(["build", "datasets/mybot"], cwd)).code).toBe(0);
    const replaced = await runCaptured(["build", "mybot.rules"], cwd);
    expect(replaced.code).toBe(2);
    expect(replaced.err).toContain("was built from other sources");
    expect(tour).toContain("`ndfc build` refuses to replace a bundle built\nfrom other sources");
  });
});
