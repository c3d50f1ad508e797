// Shared setup of the serve tests: NPCs compiled from this repository's datasets, and a server
// started in-process on a free loopback port with a store in a temp directory.
import { join, resolve } from "node:path";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { startServer, type RunningServer, type ServeOptions } from "../../compiler/serve/server.js";
import { openStore, type Store } from "../../compiler/store/store.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir } from "../support/cli.js";

export const repoRoot = resolve(import.meta.dirname, "../..");

const compiled = new Map<string, Uint8Array>();

/** The bytes of datasets/<name> compiled now (once per test file). */
export function datasetBundle(name: string): Uint8Array {
  let bytes = compiled.get(name);
  if (!bytes) {
    const lint = lintSources([join(repoRoot, "datasets", name)]);
    const errors = lint.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`datasets/${name} has lint errors: ${errors.map((e) => e.message).join("; ")}`);
    bytes = compileNpc(lint).bytes;
    compiled.set(name, bytes);
  }
  return bytes;
}

export async function datasetNpc(name: string): Promise<Npc> {
  return loadNpc(datasetBundle(name));
}

export interface TestServer {
  server: RunningServer;
  store: Store | null;
  storePath: string;
  close(): Promise<void>;
}

/** termy and example, served on port 0 with a fresh store (or none). */
export async function serveDatasets(options: Partial<ServeOptions> & { withStore?: boolean } = {}): Promise<TestServer> {
  const storePath = join(tempDir("serve"), "ndfc.db");
  const store = options.withStore === false ? null : openStore(storePath);
  const npcs = options.npcs ?? [await datasetNpc("termy"), await datasetNpc("example")];
  const server = await startServer({ ...options, npcs, port: 0, store });
  return {
    server,
    store,
    storePath,
    close: async () => {
      await server.close();
      store?.close();
    },
  };
}

/** POSTs `body` as JSON; the caller names the shape it expects back. */
export async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: T }> {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as T };
}
