// `ndfc list [DIR]`: a table (or JSON) of the bundles in a directory; a bad bundle is named and the others listed.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ListedBundle } from "../../compiler/cli/list.js";
import { loadNpc } from "../../runtime/index.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { datasetBundle } from "../support/datasets.js";

const work = tempDir("list");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const dist = join(work, "dist-npcs");
mkdirSync(dist);
writeFileSync(join(dist, "termy.npc"), datasetBundle("termy"));
writeFileSync(join(dist, "example.npc"), datasetBundle("example"));
writeFileSync(join(dist, "broken.npc"), datasetBundle("example").slice(0, 40));
writeFileSync(join(dist, "notes.txt"), "not a bundle");

type Row = ListedBundle;

async function expectedRow(dataset: string): Promise<Omit<Row, "file">> {
  const bytes = datasetBundle(dataset);
  const { payload } = await loadNpc(bytes);
  return {
    name: payload.name,
    creator: payload.config.creator,
    intents: payload.counts.intents,
    vocabularyWords: payload.counts.vocabularyWords,
    bytes: bytes.length,
    tools: payload.intents.some((i) => i.tools.length > 0),
  };
}

describe("ndfc list", () => {
  it("lists dist-npcs/ by default as a table in file order, naming the bad bundle on stderr (exit 1)", async () => {
    const run = await runCaptured(["list"], work);
    expect(run.code).toBe(1);
    const lines = run.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+CREATOR\s+INTENTS\s+VOCABULARY\s+BYTES\s+TOOLS\s+FILE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).at(-1))).toEqual(["example.npc", "termy.npc"]);
    const termy = await expectedRow("termy");
    const termyLine = lines.find((l) => l.endsWith("termy.npc"))!;
    for (const value of [termy.name, String(termy.intents), String(termy.vocabularyWords), String(termy.bytes), termy.tools ? "yes" : "no"]) expect(termyLine).toContain(value);
    expect(run.err).toMatch(/^ndfc list: cannot read .*broken\.npc: .+\n$/);
    expect(run.err).not.toContain("    at ");
  });

  it("prints the same facts as JSON, with the failures", async () => {
    const run = await runCaptured(["list", "dist-npcs", "--json"], work);
    expect(run.code).toBe(1);
    const parsed = JSON.parse(run.out) as { bundles: Row[]; failed: { file: string; reason: string }[] };
    expect(parsed.bundles).toEqual([
      { file: "example.npc", ...(await expectedRow("example")) },
      { file: "termy.npc", ...(await expectedRow("termy")) },
    ]);
    expect(parsed.failed).toEqual([{ file: "broken.npc", reason: expect.stringMatching(/./) }]);
  });

  it("exits 0 on a directory of good bundles, 0 with a note on an empty one, 2 on a missing one", async () => {
    const good = join(work, "good");
    mkdirSync(good);
    writeFileSync(join(good, "example.npc"), datasetBundle("example"));
    expect((await runCaptured(["list", good], work)).code).toBe(0);
    const empty = join(work, "empty");
    mkdirSync(empty);
    const none = await runCaptured(["list", empty], work);
    expect(none).toMatchObject({ code: 0, out: "" });
    expect(none.err).toContain("no .npc bundles in");
    const missing = await runCaptured(["list", "nowhere"], work);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("ndfc: cannot read the bundle directory nowhere: ENOENT (ndfc build DATASET writes dist-npcs/NAME.npc)\n");
  });

  it("--help teaches with an example", async () => {
    const help = await runCaptured(["list", "--help"], work);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Examples:");
    expect(help.out).toContain("ndfc list build/npcs --json");
  });
});
