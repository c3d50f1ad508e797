// Shared setup of the serve tests: a server started in-process on a free loopback port, serving
// NPCs compiled from this repository's datasets, with a store in a temp directory.
import { join } from "node:path";
import { startServer, type RunningServer, type ServeOptions } from "../../compiler/serve/server.js";
import { openStore, type Store } from "../../compiler/store/store.js";
import { tempDir } from "../support/cli.js";
import { datasetNpc } from "../support/datasets.js";

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
