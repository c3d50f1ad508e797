// The HTTP server of `ndfc serve` (node:http): OpenAI-compatible chat completions and models, the
// native /api/chat/:npc, /api/confirm for the teach store, the chat pages (pages.ts) and /health. Every error is an OpenAI-shaped
// JSON body with its status; an unexpected one is a 500 with a generic message, logged to stderr.
//
// Before any route: Host and Origin (403), the API key when there are keys (401; pages and
// /health are public); a POST must be JSON (415). CORS headers go only to --cors origins. Each
// request is one log line when the caller gives `logRequest` (request-log.ts). A request naming no session gets a new one, its id in the X-Session-Id header and
// the answer's `session`; a client continues by sending it back (X-Session-Id, or `session` /
// OpenAI's `user`). An id this client was not given is a 404, whoever it belongs to.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Npc } from "../../runtime/index.js";
import type { Store } from "../store/store.js";
import type { Escalation } from "../escalate/types.js";
import { AccessGate, isLoopbackHost } from "./access.js";
import { looksLikeSessionId, NpcHost, teachingReport, UnknownSessionError, type ClientId } from "./host.js";
import { errorBody, HttpError, badRequest } from "./http-error.js";
import { completionBody, completionChunks, completionId, parseChatRequest } from "./openai.js";
import { asObject, ClientAbortedError, readJsonBody } from "./read-body.js";
import { sendChatPage, sendIndex, sendPageAsset, type PageAssets } from "./pages.js";
import { formatRequestLine } from "./request-log.js";
import { explain } from "../../runtime/explain.js";
import { PAGE_FILES, readWebAssets, WebAssetsMissingError, type WebAssets } from "../web/assets.js";

export interface ServeOptions {
  npcs: readonly Npc[];
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The audit log and teach store; null disables both. */
  store?: Store | null;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Sessions kept per NPC and client before its least recently used is dropped (default 1000). */
  maxSessions?: number;
  /** API keys (Authorization: Bearer); required when `host` is not a loopback address. */
  apiKeys?: readonly string[];
  /** Browser origins that get CORS headers (https://app.example.com); none by default. Loopback and same-origin pages need none. */
  allowOrigins?: readonly string[];
  /** Host names requests may be addressed to beyond loopback names and `host`. */
  allowHosts?: readonly string[];
  /** Where unexpected errors are reported (default stderr). */
  logError?: (message: string) => void;
  /** Receives one line per request (none by default). */
  logRequest?: (line: string) => void;
  /** Adds the user message to the request's log line (off by default: messages are personal). */
  logMessages?: boolean;
  /** The chat page's files; default the built ones (build/web-assets), pages answer 503 without them. */
  webAssets?: WebAssets;
  /** Each NPC's escalation to a local model (`--escalate`, compiler/escalate/); none by default. */
  escalation?: (npc: Npc) => Escalation;
}

export interface RunningServer {
  port: number;
  host: string;
  url: string;
  /** The model ids served, in order. */
  models: string[];
  /** Stops accepting, closes open connections; the store stays open (the caller owns it). */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY = 1024 * 1024;
export const DEFAULT_MAX_SESSIONS = 1000;

interface RequestContext {
  client: ClientId;
  /** Records the user message for the request's log line (kept only with `logMessages`). */
  logMessage(text: string): void;
}

type Handler = (req: IncomingMessage, res: ServerResponse, params: string[], context: RequestContext) => Promise<void>;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
  /** Answered without an API key (pages a browser opens, /health). */
  public?: boolean;
}

/** A configuration the server refuses to start with (two NPCs of one name, no key beyond loopback). */
export class ServeSetupError extends Error {}

export const SESSION_HEADER = "X-Session-Id";

/** Builds one host per NPC; two NPCs with the same model id are refused. */
function createHosts(npcs: readonly Npc[], store: Store | null, maxSessions: number, escalation: ServeOptions["escalation"]): Map<string, NpcHost> {
  const hosts = new Map<string, NpcHost>();
  for (const npc of npcs) {
    const host = new NpcHost(npc, store, maxSessions, undefined, escalation?.(npc) ?? null);
    if (hosts.has(host.id)) throw new ServeSetupError(`two bundles are both named "${host.id}"; serve each NPC once`);
    hosts.set(host.id, host);
  }
  return hosts;
}

/** The optional `session` field of a native request body. */
function bodySession(body: Record<string, unknown>): string | null {
  if (body.session !== undefined && body.session !== null && typeof body.session !== "string") throw badRequest("`session` must be a string", "session");
  return typeof body.session === "string" && body.session !== "" ? body.session : null;
}

/** The session a request names: the X-Session-Id header, else the body's reference, else null. */
function namedSession(req: IncomingMessage, fromBody: string | null): string | null {
  const header = req.headers["x-session-id"];
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && value !== "" ? value : fromBody;
}

/** Refuses a POST whose body is not declared JSON: a browser sends text/plain across origins without asking first. */
function requireJson(req: IncomingMessage): void {
  const type = (req.headers["content-type"] ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    throw new HttpError(415, `a POST body must be JSON sent with Content-Type: application/json (got ${JSON.stringify(type || "none")})`, null, "unsupported_media_type");
  }
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const store = options.store ?? null;
  const bindHost = options.host ?? "127.0.0.1";
  const apiKeys = options.apiKeys ?? [];
  if (apiKeys.length === 0 && !isLoopbackHost(bindHost)) {
    throw new ServeSetupError(`${bindHost} is reachable from other machines: give an API key (--api-key KEY or --api-key-file PATH) so only your clients can talk to the NPC, or listen on 127.0.0.1`);
  }
  if (apiKeys.some((key) => key.trim() === "" || /\s/.test(key))) throw new ServeSetupError("an API key must be non-empty and contain no spaces");
  let gate: AccessGate;
  try {
    gate = new AccessGate({ apiKeys, allowOrigins: options.allowOrigins ?? [], allowHosts: options.allowHosts ?? [], bindHost });
  } catch (error) {
    throw new ServeSetupError(error instanceof Error ? error.message : String(error));
  }
  const hosts = createHosts(options.npcs, store, options.maxSessions ?? DEFAULT_MAX_SESSIONS, options.escalation);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const logError = options.logError ?? ((message: string) => void process.stderr.write(`${message}\n`));
  const created = () => Math.floor(Date.now() / 1000);
  const assets = pageAssets(options.webAssets);
  const models = () => [...hosts.values()].map((host) => ({ id: host.id, name: host.npc.name }));

  const hostFor = (id: unknown, param: string): NpcHost => {
    if (typeof id !== "string") throw badRequest(`\`${param}\` must be a string naming a served NPC`, param);
    const host = hosts.get(id);
    if (!host) {
      throw new HttpError(404, `The model \`${id}\` does not exist; served: ${[...hosts.keys()].join(", ")}`, param, "model_not_found");
    }
    return host;
  };
  /** The session a request continues (one of this client's), or a new one; its id goes back in the header. */
  const sessionFor = (req: IncomingMessage, res: ServerResponse, host: NpcHost, client: ClientId, fromBody: string | null): string => {
    const id = namedSession(req, fromBody) ?? host.openSession(client);
    res.setHeader(SESSION_HEADER, id);
    return id;
  };

  const routes: Route[] = [
    {
      pattern: /^\/health$/,
      public: true,
      methods: { GET: async (_req, res) => sendJson(res, 200, { status: "ok", models: hosts.size, store: store ? "open" : "none" }) },
    },
    { pattern: /^\/$/, public: true, methods: { GET: async (_req, res) => sendIndex(res, models()) } },
    {
      pattern: /^\/chat\/assets\/([^/]+)$/,
      public: true,
      methods: { GET: async (_req, res, [file]) => sendPageAsset(res, assets, decodePathSegment(file!)) },
    },
    {
      pattern: /^\/chat\/([^/]+)$/,
      public: true,
      methods: {
        GET: async (_req, res, [id]) => {
          const host = hostFor(decodePathSegment(id!), "model");
          sendChatPage(res, assets, { id: host.id, name: host.npc.name });
        },
      },
    },
    {
      pattern: /^\/v1\/models$/,
      methods: {
        GET: async (_req, res) => sendJson(res, 200, { object: "list", data: [...hosts.values()].map(modelObject) }),
      },
    },
    {
      pattern: /^\/v1\/models\/([^/]+)$/,
      methods: {
        GET: async (_req, res, [id]) => sendJson(res, 200, modelObject(hostFor(decodePathSegment(id!), "model"))),
      },
    },
    {
      pattern: /^\/v1\/chat\/completions$/,
      methods: {
        POST: async (req, res, _params, { client, logMessage }) => {
          const request = parseChatRequest(asObject(await readJsonBody(req, maxBody)));
          logMessage(request.last.content);
          const host = hostFor(request.model, "model");
          // `user` continues a session when it holds an id this server gave; any other value is an end-user label.
          const session = sessionFor(req, res, host, client, request.user !== null && looksLikeSessionId(request.user) ? request.user : null);
          const answer =
            request.last.kind === "tool" ? host.toolResult(client, session, request.last.content) : await host.reply(client, session, request.last.content);
          const id = completionId();
          if (!request.stream) {
            sendJson(res, 200, completionBody(host.id, request.last.content, answer, id, created()));
            return;
          }
          res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive" });
          for (const chunk of completionChunks(host.id, answer, id, created())) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
          res.end("data: [DONE]\n\n");
        },
      },
    },
    {
      pattern: /^\/api\/chat\/([^/]+)$/,
      methods: {
        POST: async (req, res, [npc], { client, logMessage }) => {
          const body = asObject(await readJsonBody(req, maxBody));
          const host = hostFor(decodePathSegment(npc!), "npc");
          if (typeof body.message !== "string") throw badRequest("`message` must be a string", "message");
          if (body.explain !== undefined && typeof body.explain !== "boolean") throw badRequest("`explain` must be a boolean", "explain");
          logMessage(body.message);
          const session = sessionFor(req, res, host, client, bodySession(body));
          sendJson(res, 200, await host.reply(client, session, body.message, body.explain === true ? { explain } : {}));
        },
      },
    },
    {
      pattern: /^\/api\/confirm$/,
      methods: {
        POST: async (req, res, _params, { client }) => {
          const body = asObject(await readJsonBody(req, maxBody));
          const host = hostFor(body.npc, "npc");
          const session = namedSession(req, bodySession(body));
          if (body.correct !== undefined && typeof body.correct !== "boolean") throw badRequest("`correct` must be a boolean", "correct");
          if (!store) throw new HttpError(409, "this server runs without a store (--no-store): nothing to confirm", null, "store_disabled");
          if (session === null) throw badRequest("say which session's answer to confirm: the X-Session-Id header or `session` (the id the answer came with)", "session");
          const teachings = host.confirm(client, session, body.correct !== false);
          if (teachings === null) throw new HttpError(404, "this session has no answer to confirm", "session", "no_answer");
          sendJson(res, 200, {
            confirmed: body.correct !== false,
            teachings: teachings.map(teachingReport),
          });
        },
      },
    },
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string, logMessage: (text: string) => void): Promise<void> => {
    const corsOrigin = gate.checkPlace(req);
    if (corsOrigin !== null) for (const [name, value] of Object.entries(corsHeaders(corsOrigin))) res.setHeader(name, value);
    if (req.method === "OPTIONS" && corsOrigin !== null) {
      res.writeHead(204, PREFLIGHT_HEADERS).end();
      return;
    }
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const client = route.public ? null : gate.client(req);
      const handler = route.methods[req.method ?? ""];
      if (!handler) {
        const allow = Object.keys(route.methods).join(", ");
        throw new HttpError(405, `${req.method} is not allowed on ${path}; use ${allow}`, null, "method_not_allowed", { Allow: allow });
      }
      if (req.method === "POST") requireJson(req);
      await handler(req, res, match.slice(1), { client, logMessage });
      return;
    }
    gate.client(req);
    throw new HttpError(404, `no route ${req.method} ${path}`, null, "not_found");
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    let message: string | undefined;
    const logMessage = (text: string) => void (message = options.logMessages ? text : undefined);
    if (options.logRequest) {
      const logRequest = options.logRequest;
      res.once("close", () => {
        const entry = { method: req.method ?? "?", path, status: res.statusCode, aborted: !res.writableFinished, ms: performance.now() - started, message };
        logRequest(formatRequestLine(entry, new Date()));
      });
    }
    handle(req, res, path, logMessage).catch((error: unknown) => {
      if (error instanceof UnknownSessionError) {
        res.removeHeader(SESSION_HEADER);
        const message = `unknown session "${error.sessionId}": it was never given to this client, or was dropped; send no session to start a new one (its id comes back in ${SESSION_HEADER})`;
        sendJson(res, 404, errorBody(404, message, "session", "session_not_found"));
        return;
      }
      if (error instanceof HttpError) {
        sendJson(res, error.status, errorBody(error.status, error.message, error.param, error.code), error.headers);
        return;
      }
      if (error instanceof ClientAbortedError) {
        logError(`ndfc serve: ${req.method} ${req.url}: ${error.message}`);
        res.destroy();
        return;
      }
      logError(`ndfc serve: internal error on ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendJson(res, 500, errorBody(500, "internal server error", null, "internal_error"));
    });
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostName = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    port: address.port,
    host: address.address,
    url: `http://${hostName}:${address.port}`,
    models: [...hosts.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The built page files, or the reason pages cannot be shown. */
function pageAssets(given: WebAssets | undefined): PageAssets {
  if (given) {
    const missing = PAGE_FILES.find((file) => !given.has(file));
    return missing === undefined ? { files: given } : { missing: new WebAssetsMissingError("the given page files", missing).message };
  }
  try {
    return { files: readWebAssets() };
  } catch (error) {
    if (error instanceof WebAssetsMissingError) return { missing: error.message };
    throw error;
  }
}

/** What a browser page of a --cors origin may read and send (preflight answers add the second). */
function corsHeaders(origin: string): Record<string, string> {
  return { "Access-Control-Allow-Origin": origin, Vary: "Origin", "Access-Control-Expose-Headers": SESSION_HEADER };
}
const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "GET, POST",
  "Access-Control-Allow-Headers": `Authorization, Content-Type, ${SESSION_HEADER}`,
  "Access-Control-Max-Age": "600",
};

function modelObject(host: NpcHost) {
  return { id: host.id, object: "model", created: 0, owned_by: "ndfc", name: host.npc.name };
}

/** A URL path segment decoded, or as written when its escapes are malformed (it then names no NPC). */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
