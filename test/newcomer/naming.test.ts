// The NPC's declared name wins (`RuleSet.define "mybot"` in a DSL directory names the bundle, not
// the folder), and `ndfc build` refuses to replace a bundle built from other sources without
// --force (issue 19: mybot.rules silently replaced an NDF build of the same name).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadNpc } from "../../runtime/index.js";
import { runCaptured, tempDir, writeTree } from "../support/cli.js";

const MYBOT_RULES = 'RuleSet.define "mybot" do\n  rule("hello") { output "Hello from the rules." }\nend\n';

function project(): string {
  return writeTree(tempDir("naming"), {
    "datasets/mybot/config.json": '{ "npc_name": "MyBot" }',
    "datasets/mybot/dataset/dataset_hello.json": '[{ "input": "hello", "output": "Hello from NDF." }]',
    "mybot.rules": MYBOT_RULES,
    "rules-dir/whatever/main.rules": MYBOT_RULES,
  });
}

describe("naming", () => {
  it("a DSL directory's bundle is named by RuleSet.define, not by the folder", async () => {
    const cwd = project();
    const build = await runCaptured(["build", "rules-dir/whatever"], cwd);
    expect(build.code, build.err).toBe(0);
    expect(build.out).toContain("built dist-npcs/mybot.npc");
    expect(existsSync(join(cwd, "dist-npcs/whatever.npc"))).toBe(false);
    expect((await loadNpc(readFileSync(join(cwd, "dist-npcs/mybot.npc")))).payload.name).toBe("mybot");
  });

  it("refuses to replace a bundle built from other sources, names both, and writes nothing; --force replaces it", async () => {
    const cwd = project();
    expect((await runCaptured(["build", "datasets/mybot"], cwd)).code).toBe(0);
    const ndf = readFileSync(join(cwd, "dist-npcs/mybot.npc"));
    const refused = await runCaptured(["build", "mybot.rules"], cwd);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/dist-npcs\/mybot\.npc was built from other sources \(config\.json, dataset\/dataset_hello\.json\), not from these \(mybot\.rules\); nothing was written: give another --output, or --force to replace it/);
    expect(readFileSync(join(cwd, "dist-npcs/mybot.npc")).equals(ndf)).toBe(true);
    const forced = await runCaptured(["build", "mybot.rules", "--force"], cwd);
    expect(forced.code, forced.err).toBe(0);
    expect((await runCaptured(["ask", "dist-npcs/mybot.npc", "hello"], cwd)).out).toContain("Hello from the rules.");
  });

  it("rebuilds the same NPC over its own bundle, edited or with a file added", async () => {
    const cwd = project();
    expect((await runCaptured(["build", "datasets/mybot"], cwd)).code).toBe(0);
    writeTree(cwd, { "datasets/mybot/dataset/dataset_bye.json": '[{ "input": "bye", "output": "Bye." }]' });
    const again = await runCaptured(["build", "datasets/mybot"], cwd);
    expect(again.code, again.err).toBe(0);
    expect((await runCaptured(["ask", "dist-npcs/mybot.npc", "bye"], cwd)).out).toContain("Bye.");
  });
});
