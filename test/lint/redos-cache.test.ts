// The ReDoS verdicts are cached on disk so repeated lints skip the slow analysis.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { analyseRedos, cacheFile } from "../../compiler/redos-analysis.js";
import { tempDir } from "../support/cli.js";

const dir = tempDir("redos-cache");
const previous = process.env["NDFC_CACHE_DIR"];
process.env["NDFC_CACHE_DIR"] = dir;
afterAll(() => {
  if (previous === undefined) delete process.env["NDFC_CACHE_DIR"];
  else process.env["NDFC_CACHE_DIR"] = previous;
  rmSync(dir, { recursive: true, force: true });
});

describe("ReDoS analysis", () => {
  it("classifies nested quantifiers as exponential, a linear pattern as safe, and records both in the cache", () => {
    expect(analyseRedos("^(a+)+$", "").complexity).toBe("exponential");
    expect(analyseRedos("^[a-z]+\\d*$", "").complexity).toBe("safe");
    expect(existsSync(cacheFile())).toBe(true);
    const cached = Object.values(JSON.parse(readFileSync(cacheFile(), "utf8")) as Record<string, { complexity: string }>);
    expect(cached.map((v) => v.complexity).sort()).toEqual(["exponential", "safe"]);
  });
});
