// `npm run build` step: bundles the chat page (web/chat.ts, web/chat.css) and ndfc/runtime as one
// browser ES module (web/ndfc-runtime.ts, msgpackr inlined) into web-assets/ beside the compiled
// compiler, where `ndfc serve` and `ndfc web` read them (compiler/web/assets.ts). This runs where
// the devDependencies are (npm ci, npm pack), so users of ndfc need no bundler: rolldown comes
// with vite (scripts/rolldown.ts).
//
//   node build/scripts/build-web-assets.js [SOURCE_ROOT [OUT_DIR]]
// SOURCE_ROOT defaults to the repository (two levels above this file), OUT_DIR to web-assets/
// beside this file's parent (build/web-assets).
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRolldown, staticClosureGroup, TS_SOURCES } from "./rolldown.js";

/** The files a page loads, written to `outDir`; the chat script imports the runtime only on an exported site. */
export async function buildWebAssets(sourceRoot: string, outDir: string): Promise<void> {
  const bundler = await loadRolldown();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const runtimeEntry = join(sourceRoot, "web/ndfc-runtime.ts");
  const bundle = await bundler.rolldown({
    input: { chat: join(sourceRoot, "web/chat.ts"), "ndfc-runtime": runtimeEntry },
    platform: "browser",
    preserveEntrySignatures: "allow-extension",
    logLevel: "warn",
    // The page's runtime exports explain, which imports the template matcher statically: the
    // optional stages' dynamic imports are meant to resolve inside ndfc-runtime.js here.
    checks: { ineffectiveDynamicImport: false },
    resolve: TS_SOURCES,
  });
  // ndfc-runtime.js is one module with no static import of its own: the page's modulepreload of it
  // is the whole runtime, not the head of a waterfall (a shared chunk fetched only once
  // ndfc-runtime.js is parsed cost 20–40 ms before the first answer). The optional stages
  // (runtime/stages.ts: the probabilistic and template matchers) join it too: a page serves one NPC,
  // which nearly always has inputs and templates, and a chunk imported after the bundle decodes would be that waterfall.
  // What else loads on demand (the learned stage, sha256.js) keeps a chunk of its own.
  const group = staticClosureGroup("ndfc-runtime", runtimeEntry, join(sourceRoot, "runtime/stages.ts"));
  // Fixed names (no content hashes): pages name these files, and the same sources give the same bytes.
  await bundle.write({ dir: outDir, format: "esm", minify: true, entryFileNames: "[name].js", chunkFileNames: "[name].js", codeSplitting: { groups: [group] } });
  await bundle.close();
  copyFileSync(join(sourceRoot, "web/chat.css"), join(outDir, "chat.css"));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  const sourceRoot = resolve(process.argv[2] ?? join(here, "../.."));
  const outDir = resolve(process.argv[3] ?? join(here, "../web-assets"));
  await buildWebAssets(sourceRoot, outDir);
}
