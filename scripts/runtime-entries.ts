// The runtime's package entries (`ndfc/runtime`, `ndfc/runtime/explain`, …), read from package.json
// `exports`, the one list of them. Each export names its typings, build/runtime/<module>.d.ts (what
// tsc emits for runtime/<module>.ts), and its code, build/runtime-bundled/<name>.js (what
// scripts/build-runtime-package.ts bundles from that module).
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Where `npm run build` writes the bundled entries, relative to the package root. */
export const BUNDLED_RUNTIME_DIR = "build/runtime-bundled";

export interface RuntimeEntry {
  /** What a host imports: "ndfc/runtime/explain". */
  specifier: string;
  /** The entry's file in BUNDLED_RUNTIME_DIR, without ".js": "explain". */
  name: string;
  /** Its module under runtime/, without extension: "explain", "text/lexer". */
  module: string;
}

interface Exports {
  exports: Record<string, { types: string; default: string }>;
}

const TYPES = /^\.\/build\/runtime\/(.+)\.d\.ts$/;
const CODE = new RegExp(`^\\./${BUNDLED_RUNTIME_DIR}/([\\w-]+)\\.js$`);

/** The runtime entries of the package.json in `packageRoot`; throws when one names files this layout does not make. */
export function runtimeEntries(packageRoot: string): RuntimeEntry[] {
  const { exports } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as Exports;
  return Object.entries(exports)
    .filter(([subpath]) => subpath === "./runtime" || subpath.startsWith("./runtime/"))
    .map(([subpath, target]) => {
      const module = TYPES.exec(target.types)?.[1];
      const name = CODE.exec(target.default)?.[1];
      if (module === undefined || name === undefined) {
        throw new Error(`package.json exports["${subpath}"] must be { types: "./build/runtime/<module>.d.ts", default: "./${BUNDLED_RUNTIME_DIR}/<name>.js" }`);
      }
      return { specifier: `ndfc${subpath.slice(1)}`, name, module };
    });
}
