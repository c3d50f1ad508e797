// `ndfc build` on the upstream TERMy succeeds with its lint warnings and writes a loadable bundle.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadNpc } from "../../runtime/index.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { hasTermy, termyDir } from "./termy-corpus.js";

const work = tempDir("corpus-build");
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!hasTermy)("ndfc build on the upstream TERMy", () => {
  it("exits 0, reports its warnings, and the bundle answers", async () => {
    const run = await runCaptured(["build", termyDir, "-o", "termy.npc"], work);
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/^\d+ warning\(s\) \(run ndfc lint to see them\)$/m);
    expect(run.out).toMatch(/^built termy\.npc: \d+ intents/);
    const npc = await loadNpc(readFileSync(join(work, "termy.npc")));
    expect(npc.session({ seed: 1 }).process("list files").status).toBe("exact match");
  });
});
