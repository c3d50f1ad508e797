// Shared setup of the serve tests: a server started in-process on a free loopback port, serving
// NPCs compiled from this repository's datasets, with a store in a temp directory; and a client
// that names its conversations, each the session the server created for it.
import { join } from "node:path";
import { startServer, type RunningServer, type ServeOptions } from "../../compiler/serve/server.js";
import type { ServeAnswer } from "../../compiler/serve/host.js";
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
export async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: T; headers: Headers }> {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as T, headers: response.headers };
}

/**
 * Talks to /api/chat/:npc in named conversations: the first message of a name starts a session
 * (none sent), later ones send back the id the server returned. `key` is sent as a Bearer token.
 */
export function conversations(url: string, npc: string, key?: string) {
  const ids = new Map<string, string>();
  const auth: Record<string, string> = key === undefined ? {} : { Authorization: `Bearer ${key}` };
  return {
    ids,
    async say(message: string, name: string): Promise<ServeAnswer> {
      const id = ids.get(name);
      const { status, json } = await postJson<ServeAnswer>(`${url}/api/chat/${npc}`, id === undefined ? { message } : { message, session: id }, auth);
      if (status !== 200) throw new Error(`${message} → HTTP ${status}: ${JSON.stringify(json)}`);
      if (id === undefined) ids.set(name, json.session!);
      return json;
    },
    /** POST /api/confirm for the named conversation. */
    confirm(name: string, correct = true) {
      return postJson<{ confirmed: boolean; teachings: { word: string; state: string; confirmations: number }[] }>(
        `${url}/api/confirm`,
        { npc, session: ids.get(name), correct },
        auth,
      );
    },
  };
}
