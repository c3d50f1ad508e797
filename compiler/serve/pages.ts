// The pages `ndfc serve` shows a browser: an index linking each NPC's chat page, the chat page
// (/chat/<model>, talking to /api/chat/<model>), its script and style, and GET /health for load
// balancers. They need no API key (a browser cannot send one when it opens a link); the chat page
// asks for the key when the API answers 401.
import type { ServerResponse } from "node:http";
import { contentTypeOf, PAGE_FILES, type WebAssets } from "../web/assets.js";
import { chatIndexHtml, chatPageHtml } from "../web/page.js";
import { HttpError } from "./http-error.js";

/** The built page files, or why they are missing (a server run from the sources). */
export type PageAssets = { files: WebAssets } | { missing: string };

export function sendStatic(res: ServerResponse, file: string, body: string | Uint8Array): void {
  res.writeHead(200, {
    "Content-Type": contentTypeOf(file),
    "Content-Length": typeof body === "string" ? Buffer.byteLength(body) : body.byteLength,
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(body);
}

function pageFiles(assets: PageAssets): WebAssets {
  if ("missing" in assets) throw new HttpError(503, assets.missing, null, "page_not_built");
  return assets.files;
}

export function sendIndex(res: ServerResponse, models: readonly { id: string; name: string }[]): void {
  sendStatic(res, "index.html", chatIndexHtml(models));
}

export function sendChatPage(res: ServerResponse, assets: PageAssets, model: { id: string; name: string }): void {
  pageFiles(assets);
  sendStatic(res, "index.html", chatPageHtml(model.name, { kind: "server", api: `/api/chat/${encodeURIComponent(model.id)}` }, "/chat/assets/"));
}

export function sendPageAsset(res: ServerResponse, assets: PageAssets, file: string): void {
  const body = (PAGE_FILES as readonly string[]).includes(file) ? pageFiles(assets).get(file) : undefined;
  if (body === undefined) throw new HttpError(404, `no page file ${file}; there are ${PAGE_FILES.join(", ")}`, null, "not_found");
  sendStatic(res, file, body);
}
