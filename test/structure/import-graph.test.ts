// The import graph's rules: the runtime is a leaf (nothing from compiler/, no node: module), and no
// source folder has an import cycle, type-only imports and dynamic import() included, so every
// module can be read after the modules it imports.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { stronglyConnectedLoops } from "../../compiler/strongly-connected.js";
import { repoRoot } from "../support/repo-root.js";

const SOURCE_FOLDERS = ["runtime", "compiler", "web", "scripts", "bench"];
const runtimeDir = join(repoRoot, "runtime");
// `import … from`, `import type … from`, `export … from`, side-effect `import "x"` and `import("x")`.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

/** File → the source files it imports by a relative specifier (`./x.js` names `./x.ts`). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, ".ts"))
      .filter((target) => existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

describe("import graph", () => {
  const files = SOURCE_FOLDERS.flatMap((folder) => sourcesUnder(join(repoRoot, folder)));
  const graph = importGraph(files);

  it("sees value, type-only, re-export and dynamic imports", () => {
    const edges = (file: string) => graph.get(join(repoRoot, file))!.map((target) => relative(repoRoot, target));
    expect(edges("runtime/index.ts")).toContain("runtime/bundle/format.ts");
    expect(edges("runtime/index.ts")).toContain("runtime/response.ts"); // export type * from
    expect(edges("runtime/explain.ts")).toContain("runtime/bundle/model.ts"); // import type
    expect(edges("compiler/cli/program.ts")).toContain("compiler/cli/lint.ts"); // import()
  });

  it("finds a cycle of two, a longer one, a self-import, and none in a chain", () => {
    expect(stronglyConnectedLoops(new Map([["a", ["b"]], ["b", ["a"]]]))).toEqual([["a", "b"]]);
    expect(stronglyConnectedLoops(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]]);
    expect(stronglyConnectedLoops(new Map([["a", ["a"]]]))).toEqual([["a"]]);
    expect(stronglyConnectedLoops(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
  });

  it("has no import cycle in runtime/, compiler/, web/, scripts/ or bench/", () => {
    const cycles = stronglyConnectedLoops(graph).map((cycle) => cycle.map((file) => relative(repoRoot, file)).join(" ↔ "));
    expect(cycles).toEqual([]);
  });

  it("keeps the runtime a leaf: nothing from compiler/ and no node: module", () => {
    for (const file of sourcesUnder(runtimeDir)) {
      const name = relative(runtimeDir, file);
      for (const specifier of importsOf(file)) {
        expect(specifier, `${name} imports ${specifier}`).not.toMatch(/^node:/);
        const target = specifier.startsWith(".") ? resolve(dirname(file), specifier) : specifier;
        expect(target.startsWith(runtimeDir) || !specifier.startsWith("."), `${name} imports ${specifier}`).toBe(true);
        expect(["fs", "path", "crypto", "os", "child_process"]).not.toContain(specifier);
      }
    }
  });
});
