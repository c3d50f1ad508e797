import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const runtimeDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../runtime");
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

describe("runtime import graph", () => {
  const files = readdirSync(runtimeDir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"));

  it("finds the runtime's files and their imports", () => {
    expect(files).toContain("index.ts");
    expect(importsOf(join(runtimeDir, "index.ts"))).toContain("./format.js");
  });

  it("imports nothing from compiler/ and no node: module", () => {
    for (const file of files) {
      for (const specifier of importsOf(join(runtimeDir, file))) {
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(/^node:/);
        const target = specifier.startsWith(".") ? resolve(runtimeDir, dirname(file), specifier) : specifier;
        expect(target.startsWith(runtimeDir) || !specifier.startsWith("."), `${file} imports ${specifier}`).toBe(true);
        expect(["fs", "path", "crypto", "os", "child_process"]).not.toContain(specifier);
      }
    }
  });
});
