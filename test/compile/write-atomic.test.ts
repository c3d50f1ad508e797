// Outputs are written atomically, and never over something that is not a regular file.
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NotARegularFileError, writeFileAtomic } from "../../compiler/write-atomic.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";

const work = tempDir("atomic");
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("replaces a regular file's contents", () => {
    const file = join(work, "out.txt");
    writeFileSync(file, "old");
    writeFileAtomic(file, "new");
    expect(readFileSync(file, "utf8")).toBe("new");
  });

  it("refuses a directory or a symlink in the target's place, leaving it as it was", () => {
    const dir = join(work, "a-dir");
    mkdirSync(dir);
    expect(() => writeFileAtomic(dir, "x")).toThrow(NotARegularFileError);
    expect(statSync(dir).isDirectory()).toBe(true);
    const target = join(work, "target.txt");
    writeFileSync(target, "kept");
    symlinkSync(target, join(work, "link.txt"));
    expect(() => writeFileAtomic(join(work, "link.txt"), "x")).toThrow(/not a regular file/);
    expect(readFileSync(target, "utf8")).toBe("kept");
  });

  it("ndfc build -o /dev/null is a usage error and /dev/null stays a device", async () => {
    const run = await runCaptured(["build", join(repoRoot, "datasets/example"), "-o", "/dev/null"], work);
    expect(run.code).toBe(2);
    expect(run.err).toContain("/dev/null exists and is not a regular file");
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });
});
