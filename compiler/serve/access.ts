// Who may talk to `ndfc serve`, checked before any route: the Host a request names (loopback
// names, the bound address, --allow-host, the hosts of --cors: a page that rebinds its own DNS
// name to 127.0.0.1 still sends its own Host), the Origin a browser adds (loopback origins, the
// server's own pages (Origin of the accepted Host), --cors origins: any other web page is refused,
// so it cannot teach or confirm; only --cors origins get CORS headers), and, when
// the server has API keys, `Authorization: Bearer KEY`. A client is known by the id of its key
// (a SHA-256 prefix: the store never holds a key).
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import type { ClientId } from "./host.js";
import { HttpError } from "./http-error.js";

export interface AccessOptions {
  /** Accepted API keys; none: no key is asked (loopback only). */
  apiKeys: readonly string[];
  /** Origins (scheme://host[:port]) a browser page may call from with CORS, beyond loopback and same-origin ones. */
  allowOrigins: readonly string[];
  /** Host names requests may be addressed to, beyond loopback names and the bound address. */
  allowHosts: readonly string[];
  /** The address the server listens on. */
  bindHost: string;
}

/** The id of an API key in the audit log and the teach store: "k_" and 16 hex digits of its SHA-256. */
export function keyId(key: string): string {
  return `k_${createHash("sha256").update(key, "utf8").digest("hex").slice(0, 16)}`;
}

/** A host name lower-cased, an IPv6 address without its brackets. */
const bare = (host: string): string => host.toLowerCase().replace(/^\[(.*)\]$/, "$1");

/** localhost (and *.localhost), 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackHost(name: string): boolean {
  const host = bare(name);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || /^::ffff:127\./.test(host);
  return false;
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/** The hostname of a Host header value ("localhost:5000" → "localhost", "[::1]:80" → "::1"), or null. */
function hostnameOf(host: string): string | null {
  try {
    return bare(new URL(`http://${host}`).hostname);
  } catch {
    return null;
  }
}

/** An origin in its canonical form ("HTTP://Example.com:80" → "http://example.com"), or null. */
function canonicalOrigin(origin: string): URL | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export class AccessGate {
  private readonly keys: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;
  private readonly hosts: ReadonlySet<string>;

  constructor(options: AccessOptions) {
    this.keys = new Set(options.apiKeys.map(keyId));
    const origins = options.allowOrigins.map((origin) => {
      const url = canonicalOrigin(origin);
      if (!url) throw new Error(`--cors ${origin} is not an origin such as https://app.example.com`);
      return url;
    });
    this.origins = new Set(origins.map((url) => url.origin));
    const bound = WILDCARDS.has(options.bindHost) ? [] : [options.bindHost];
    this.hosts = new Set([...bound, ...options.allowHosts, ...origins.map((url) => url.hostname)].map(bare));
  }

  get keysRequired(): boolean {
    return this.keys.size > 0;
  }

  /**
   * Refuses (403) a request addressed to a foreign Host or sent from a foreign Origin. Returns the
   * request's Origin when it is a --cors one (answers to it carry CORS headers), else null.
   */
  checkPlace(req: IncomingMessage): string | null {
    const host = single(req.headers.host);
    const hostname = host === undefined ? null : hostnameOf(host);
    if (hostname === null || !(isLoopbackHost(hostname) || this.hosts.has(hostname))) {
      throw new HttpError(403, `requests addressed to host ${JSON.stringify(host ?? "")} are refused; start ndfc serve with --allow-host NAME to accept that name`, null, "forbidden_host");
    }
    const origin = single(req.headers.origin);
    if (origin === undefined) return null;
    const url = canonicalOrigin(origin);
    // The server's own chat page sends the Origin of the Host it was loaded from, already accepted above.
    const sameOrigin = url !== null && host !== undefined && url.host === host.toLowerCase();
    if (url === null || !(isLoopbackHost(url.hostname) || sameOrigin || this.origins.has(url.origin))) {
      throw new HttpError(403, `requests from origin ${JSON.stringify(origin)} are refused; start ndfc serve with --cors ${url?.origin ?? "ORIGIN"} to accept it`, null, "forbidden_origin");
    }
    return this.origins.has(url.origin) ? url.origin : null;
  }

  /** The client of a request: its key's id (401 without a valid key when keys are on), or null. */
  client(req: IncomingMessage): ClientId {
    if (!this.keysRequired) return null;
    const header = single(req.headers.authorization) ?? "";
    const match = /^bearer +(\S+) *$/i.exec(header);
    const id = match ? keyId(match[1]!) : null;
    if (id === null || !this.keys.has(id)) {
      throw new HttpError(401, "missing or unknown API key: send Authorization: Bearer KEY with a key given to ndfc serve (--api-key, --api-key-file)", null, "invalid_api_key", {
        "WWW-Authenticate": 'Bearer realm="ndfc"',
      });
    }
    return id;
  }
}
