// `npm run build` step: the runtime's package entries (ndfc/runtime, /explain, /lexer,
// /conversation: package.json `exports`) bundled from tsc's output into build/runtime-bundled/ as
// one multi-entry rolldown build. A host then resolves and compiles a handful of files instead of
// the ~40 modules of build/runtime/ (a fresh `import("ndfc/runtime")` went from about 40 to 15 ms,
// bench/results/cold-start.json). The entries share chunks, so a class or a module-level cache has
// one identity whichever entries a host imports; the optional stages (runtime/stages.ts), the
// learned stage and the fallback SHA-256 stay chunks loaded on demand. Minified: compiling the smaller text is measurably faster. Typings stay
// tsc's (build/runtime/*.d.ts); the tests and the CLI use the per-file modules, but `ndfc ask` (compiler/cli/runtime.ts).
//
//   node build/scripts/build-runtime-package.js [PACKAGE_ROOT [COMPILED_DIR [OUT_DIR]]]
// PACKAGE_ROOT defaults to the repository, COMPILED_DIR to its build/, OUT_DIR to
// build/runtime-bundled beside COMPILED_DIR's runtime/.
import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRolldown, staticClosureGroup } from "./rolldown.js";
import { BUNDLED_RUNTIME_DIR, runtimeEntries } from "./runtime-entries.js";

/** A file written: its name in the output folder and the modules bundled into it (absolute paths). */
export interface BundledFile {
  fileName: string;
  isEntry: boolean;
  modules: string[];
}

/** Writes the entries of `packageRoot`'s package.json, bundled from `compiledDir`/runtime/, into `outDir`. */
export async function buildRuntimePackage(packageRoot: string, compiledDir: string, outDir: string): Promise<BundledFile[]> {
  const { rolldown } = await loadRolldown();
  const input = Object.fromEntries(runtimeEntries(packageRoot).map((entry) => [entry.name, join(compiledDir, "runtime", `${entry.module}.js`)]));
  rmSync(outDir, { recursive: true, force: true });
  // neutral: the runtime imports no node: module, so the same files serve Node, browsers and workers.
  const bundle = await rolldown({ input, platform: "neutral", preserveEntrySignatures: "allow-extension", logLevel: "warn" });
  // index.js holds the whole core (one file for `import("ndfc/runtime")`); the other entries import
  // from it. Fixed names (no content hashes): the same sources give the same files.
  const core = staticClosureGroup("index", input.index!);
  // The optional stages share one chunk (their modules, and what they import outside the core), not
  // one each: every bundle we know has inputs and templates, so a load imported 4 to 7 small files
  // where one does, each a resolve, a read and a compile of its own. Fresh processes, n = 21, A/B
  // interleaved: corpus TERMy's cold loadNpc 34.4 → 32.7 ms (CPU 44.5 → 40.7), datasets/termy
  // 29.1 → 27.3; home (inputs and templates only) 34.1 → 35.0, within noise. A stage a bundle does
  // not use then costs its parse and its hot functions, which are compiled as the chunk is
  // evaluated (text/normalize.ts says why); V8 compiles the rest on a first call, so never.
  const stages = join(compiledDir, "runtime", "stages.js");
  const optional = staticClosureGroup("stages", stages, stages);
  const { output } = await bundle.write({ dir: outDir, format: "esm", minify: true, entryFileNames: "[name].js", chunkFileNames: "chunk-[name].js", codeSplitting: { groups: [core, optional] } });
  await bundle.close();
  return output.map((chunk) => ({ fileName: chunk.fileName, isEntry: chunk.isEntry === true, modules: Object.keys(chunk.modules ?? {}) }));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  const packageRoot = resolve(process.argv[2] ?? join(here, "../.."));
  const compiledDir = resolve(process.argv[3] ?? join(packageRoot, "build"));
  const outDir = resolve(process.argv[4] ?? join(compiledDir, "..", BUNDLED_RUNTIME_DIR));
  await buildRuntimePackage(packageRoot, compiledDir, outDir);
}
