// The HTTP server of `ndfc serve` (node:http): OpenAI-compatible chat completions and models, the
// native /api/chat/:npc, and /api/confirm for the teach store. Every error is an OpenAI-shaped
// JSON body with its status; an unexpected one is a 500 with a generic message, logged to stderr.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Npc } from "../../runtime/index.js";
import type { Store } from "../store/store.js";
import { NpcHost, teachingReport } from "./host.js";
import { errorBody, HttpError, badRequest } from "./http-error.js";
import { completionBody, completionChunks, completionId, parseChatRequest } from "./openai.js";
import { asObject, readJsonBody } from "./read-body.js";

export interface ServeOptions {
  npcs: readonly Npc[];
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The audit log and teach store; null disables both. */
  store?: Store | null;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Sessions kept per NPC before the least recently used is dropped (default 1000). */
  maxSessions?: number;
  /** Where unexpected errors are reported (default stderr). */
  logError?: (message: string) => void;
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

type Handler = (req: IncomingMessage, res: ServerResponse, params: string[]) => Promise<void>;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
}

export class DuplicateModelError extends Error {}

/** Builds one host per NPC; two NPCs with the same model id are refused. */
function createHosts(npcs: readonly Npc[], store: Store | null, maxSessions: number): Map<string, NpcHost> {
  const hosts = new Map<string, NpcHost>();
  for (const npc of npcs) {
    const host = new NpcHost(npc, store, maxSessions);
    if (hosts.has(host.id)) throw new DuplicateModelError(`two bundles are both named "${host.id}"; serve each NPC once`);
    hosts.set(host.id, host);
  }
  return hosts;
}

/** The optional `session` field of a native request body. */
function bodySession(body: Record<string, unknown>): string | null {
  if (body.session !== undefined && typeof body.session !== "string") throw badRequest("`session` must be a string", "session");
  return body.session ?? null;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const store = options.store ?? null;
  const hosts = createHosts(options.npcs, store, options.maxSessions ?? DEFAULT_MAX_SESSIONS);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const logError = options.logError ?? ((message: string) => void process.stderr.write(`${message}\n`));
  const created = () => Math.floor(Date.now() / 1000);

  const hostFor = (id: unknown, param: string): NpcHost => {
    if (typeof id !== "string") throw badRequest(`\`${param}\` must be a string naming a served NPC`, param);
    const host = hosts.get(id);
    if (!host) {
      throw new HttpError(404, `The model \`${id}\` does not exist; served: ${[...hosts.keys()].join(", ")}`, param, "model_not_found");
    }
    return host;
  };
  const sessionOf = (req: IncomingMessage, fallback: string | null): string | null => {
    const header = req.headers["x-session-id"];
    const value = Array.isArray(header) ? header[0] : header;
    return value !== undefined && value !== "" ? value : fallback;
  };

  const routes: Route[] = [
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
        POST: async (req, res) => {
          const request = parseChatRequest(asObject(await readJsonBody(req, maxBody)));
          const host = hostFor(request.model, "model");
          const session = sessionOf(req, request.user);
          const answer =
            request.last.kind === "tool" ? host.toolResult(session, request.last.content) : host.message(session, request.last.content);
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
        POST: async (req, res, [npc]) => {
          const body = asObject(await readJsonBody(req, maxBody));
          const host = hostFor(decodePathSegment(npc!), "npc");
          if (typeof body.message !== "string") throw badRequest("`message` must be a string", "message");
          const session = bodySession(body);
          sendJson(res, 200, host.message(sessionOf(req, session), body.message));
        },
      },
    },
    {
      pattern: /^\/api\/confirm$/,
      methods: {
        POST: async (req, res) => {
          const body = asObject(await readJsonBody(req, maxBody));
          const host = hostFor(body.npc, "npc");
          const session = bodySession(body);
          if (body.correct !== undefined && typeof body.correct !== "boolean") throw badRequest("`correct` must be a boolean", "correct");
          if (!store) throw new HttpError(409, "this server runs without a store (--no-store): nothing to confirm", null, "store_disabled");
          const teachings = host.confirm(sessionOf(req, session), body.correct !== false);
          if (teachings === null) throw new HttpError(404, "this session has no answer to confirm", "session", "no_answer");
          sendJson(res, 200, {
            confirmed: body.correct !== false,
            teachings: teachings.map(teachingReport),
          });
        },
      },
    },
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const handler = route.methods[req.method ?? ""];
      if (!handler) {
        const allow = Object.keys(route.methods).join(", ");
        throw new HttpError(405, `${req.method} is not allowed on ${path}; use ${allow}`, null, "method_not_allowed", { Allow: allow });
      }
      await handler(req, res, match.slice(1));
      return;
    }
    throw new HttpError(404, `no route ${req.method} ${path}`, null, "not_found");
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendJson(res, error.status, errorBody(error.status, error.message, error.param, error.code), error.headers);
        return;
      }
      logError(`ndfc serve: internal error on ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      sendJson(res, 500, errorBody(500, "internal server error", null, "internal_error"));
    });
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
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
