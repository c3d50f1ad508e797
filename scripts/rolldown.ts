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
  resolve?: { extensionAlias: Record<string, string[]> };
}

/** What a chunk-naming function may ask of the module graph. */
export interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

export interface RolldownOutput {
  format: "esm";
  minify: boolean;
  dir?: string;
  entryFileNames?: string;
  chunkFileNames?: string;
  /** A module's chunk by name (null: rolldown's own choice). */
  codeSplitting?: { groups: { name: (id: string, context: ChunkingContext) => string | null; debugName: string }[] };
}

export interface Rolldown {
  rolldown(options: RolldownInput): Promise<{
    generate(options: RolldownOutput): Promise<{ output: RolldownChunk[] }>;
    write(options: RolldownOutput & { dir: string }): Promise<{ output: RolldownChunk[] }>;
    close(): Promise<void>;
  }>;
}

/** The rolldown module; rejects where the devDependencies are not installed. */
export async function loadRolldown(): Promise<Rolldown> {
  const specifier = "rolldown";
  return (await import(specifier)) as Rolldown;
}

/** Sources import "./x.js": resolved to x.ts when bundling the TypeScript sources themselves. */
export const TS_SOURCES = { extensionAlias: { ".js": [".ts", ".js"] } };
