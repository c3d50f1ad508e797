// Reads a request body as JSON. Past `maxBytes` it answers 413 without buffering another byte:
// the rest of the body is discarded as it arrives (so the client, still sending, gets to read the
// 413 instead of a connection reset), up to DISCARD_LIMIT or DISCARD_MS, then the socket closes.
// A client that goes away before the end of its body is a ClientAbortedError: a client event for
// the server to note, not an internal error.
import type { IncomingMessage } from "node:http";
import { badRequest, HttpError } from "./http-error.js";

const DISCARD_LIMIT = 16 * 1024 * 1024;
const DISCARD_MS = 5000;

/** The client closed the connection (or reset it) before its body ended. */
export class ClientAbortedError extends Error {
  constructor() {
    super("the client closed the connection before the end of the request body");
    this.name = "ClientAbortedError";
  }
}

const tooLarge = (maxBytes: number) => new HttpError(413, `request body larger than ${maxBytes} bytes`, null, "payload_too_large");

export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    discardRest(req);
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      discardRest(req);
      reject(tooLarge(maxBytes));
    };
    const onEnd = () => {
      stop();
      try {
        resolve(parseJson(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(error);
      }
    };
    // An aborted body ends in "error" (ECONNRESET "aborted") or a "close" before "end": both are the client leaving.
    const onAbort = () => {
      stop();
      reject(new ClientAbortedError());
    };
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("close", onAbort);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onAbort);
    req.on("close", onAbort);
  });
}

export function discardRest(req: IncomingMessage): void {
  let discarded = 0;
  const timer = setTimeout(() => req.socket.destroy(), DISCARD_MS).unref();
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) req.socket.destroy();
  });
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

function parseJson(text: string): unknown {
  if (text.trim() === "") throw badRequest("the request body is empty; send a JSON object");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`the request body is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The body as a JSON object, or a 400. */
export function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest("the request body must be a JSON object");
  return value as Record<string, unknown>;
}
