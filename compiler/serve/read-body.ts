// Reads a request body as JSON, refusing (413) past `maxBytes` without reading further.
import type { IncomingMessage } from "node:http";
import { badRequest, HttpError } from "./http-error.js";

// The rest of a refused body is never read: the connection closes after the 413.
const tooLarge = (maxBytes: number) =>
  new HttpError(413, `request body larger than ${maxBytes} bytes`, null, "payload_too_large", { Connection: "close" });

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
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
