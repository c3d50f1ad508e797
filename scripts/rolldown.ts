// rolldown, the bundler the build scripts and the size bench use, with the few types they need.
// It comes with vite (a dev dependency), not as a dependency of ndfc: it is imported through a
// variable specifier so that compiling ndfc does not need it, and only the build steps that run
// where the devDependencies are (npm ci, npm pack) or the bench load it.

export interface RolldownChunk {
  fileName: string;
  code?: string;
  isEntry?: boolean;
  modules?: Record<string, unknown>;
  /** Chunks this one imports statically: loaded with it. */
  imports?: string[];
}

export interface RolldownInput {
  input: string | Record<string, string>;
  platform?: "browser" | "neutral";
  /** "allow-extension": an entry chunk may export more than its module, so it can be a group's chunk. */
  preserveEntrySignatures?: "allow-extension";
  external?: (id: string, importer: string | undefined) => boolean;
  logLevel: string;
  checks?: { ineffectiveDynamicImport?: boolean };
  resolve?: { extensionAlias: Record<string, string[]> };
}

/** What a chunk-naming function may ask of the module graph. */
export interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

export interface CodeSplittingGroup {
  /** A module's chunk by name (null: rolldown's own choice). */
  name: (id: string, context: ChunkingContext) => string | null;
  debugName: string;
}

export interface RolldownOutput {
  format: "esm";
  minify: boolean;
  dir?: string;
  entryFileNames?: string;
  chunkFileNames?: string;
  codeSplitting?: { groups: CodeSplittingGroup[] };
}

export interface Rolldown {
  rolldown(options: RolldownInput): Promise<{
    generate(options: RolldownOutput): Promise<{ output: RolldownChunk[] }>;
    write(options: RolldownOutput & { dir: string }): Promise<{ output: RolldownChunk[] }>;
    close(): Promise<void>;
  }>;
}

/**
 * A chunk group named `name` holding every module `entry` imports statically (and, when given, what
 * `dynamicFrom` imports on demand, with its own static imports): with `name` the entry's own name,
 * the entry chunk is that whole closure, one file with no static import of its own. A module
 * imported only on demand outside it keeps a chunk of its own, importing what it shares from it.
 */
export function staticClosureGroup(name: string, entry: string, dynamicFrom?: string): CodeSplittingGroup {
  let members: Set<string> | null = null;
  const memberName = (id: string, context: ChunkingContext) => {
    if (members === null) {
      members = new Set([entry]);
      for (const module of members) {
        const info = context.getModuleInfo(module);
        for (const imported of info?.importedIds ?? []) members.add(imported);
        if (module === dynamicFrom) for (const imported of info?.dynamicallyImportedIds ?? []) members.add(imported);
      }
    }
    return members.has(id) ? name : null;
  };
  return { name: memberName, debugName: name };
}

/** The rolldown module; rejects where the devDependencies are not installed. */
export async function loadRolldown(): Promise<Rolldown> {
  const specifier = "rolldown";
  return (await import(specifier)) as Rolldown;
}

/** Sources import "./x.js": resolved to x.ts when bundling the TypeScript sources themselves. */
export const TS_SOURCES = { extensionAlias: { ".js": [".ts", ".js"] } };
