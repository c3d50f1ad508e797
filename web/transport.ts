// Where the chat page's answers come from: the serving `ndfc serve` (its /api/chat/:npc, the
// session id kept from the X-Session-Id header), or, on an exported site, the runtime itself in
// the page, with the bundle fetched from beside the page and checked against the SHA-256 the page
// was exported with (its payload's, as the bundle's header states it). Both answer with the
// runtime's response and its explain trace.
import type { NpcResponse } from "../runtime/index.js";

export interface Transport {
  send(message: string): Promise<NpcResponse>;
}

/** A failure the page shows as it is (the server's error message, a bundle that does not match). */
export class TransportError extends Error {
  constructor(
    message: string,
    /** The server asks for an API key (401). */
    readonly needsKey = false,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { message?: string };
}

export function serverTransport(apiPath: string): Transport & { setKey(key: string): void } {
  let session: string | null = null;
  let key: string | null = null;
  return {
    setKey: (value) => void (key = value),
    async send(message) {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (session !== null) headers["X-Session-Id"] = session;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      const response = await fetch(apiPath, { method: "POST", headers, body: JSON.stringify({ message, explain: true }) });
      const body = (await response.json()) as NpcResponse & ErrorBody & { session?: string };
      if (!response.ok) throw new TransportError(body.error?.message ?? `the server answered ${response.status}`, response.status === 401);
      session = response.headers.get("X-Session-Id") ?? body.session ?? session;
      return body;
    },
  };
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The runtime in the page; resolves once the bundle is fetched, verified and loaded. The page
 * carries the SHA-256 of the bundle's payload, the one its header states: comparing the header
 * with it, then letting loadNpc hash the payload against the header, checks every byte that
 * matters with one hash instead of two.
 */
export async function localTransport(bundleUrl: string, expectedPayloadSha256: string): Promise<Transport> {
  // The fetch reuses the page's <link rel=preload as=fetch crossorigin> (same URL, mode and credentials).
  const imported = import("./ndfc-runtime.js").then((runtime) => (performance.mark("ndfc:imported"), runtime));
  const [runtime, response] = await Promise.all([imported, fetch(bundleUrl)]);
  if (!response.ok) throw new TransportError(`cannot fetch ${bundleUrl}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  performance.mark("ndfc:fetched");
  const stated = hex(runtime.readHeader(bytes).sha256);
  if (stated !== expectedPayloadSha256) {
    throw new TransportError(`${bundleUrl} is not the bundle this page was exported with (SHA-256 ${stated}, expected ${expectedPayloadSha256}); export the site again`);
  }
  const npc = await runtime.loadNpc(bytes);
  // Seed 0, as `ndfc serve` gives its sessions: the exported page answers as the served one does.
  const session = npc.session({ seed: 0 });
  return { send: async (message) => session.process(message, { explain: runtime.explain }) };
}
