// The chat page's files (chat.js, chat.css, ndfc-runtime.js and its chunks), bundled at build time
// by scripts/build-web-assets.ts into web-assets/ beside the compiled compiler
// (build/web-assets), read here by `ndfc serve` and `ndfc web`. Run from the sources (tests) they
// do not exist: callers pass a directory or the files themselves.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** File name → bytes. */
export type WebAssets = ReadonlyMap<string, Uint8Array>;

/** What a served page needs; an exported site also needs the runtime. */
export const PAGE_FILES = ["chat.js", "chat.css"] as const;
export const SITE_FILES = [...PAGE_FILES, "ndfc-runtime.js"] as const;

export class WebAssetsMissingError extends Error {
  constructor(dir: string, missing: string) {
    super(`the chat page's files are not built (${dir} has no ${missing}): run npm run build`);
    this.name = "WebAssetsMissingError";
  }
}

/** build/web-assets when this module runs from build/compiler/web/. */
export const defaultAssetsDir = (): string => fileURLToPath(new URL("../../web-assets/", import.meta.url));

/** Every file of `dir`; throws WebAssetsMissingError when one an exported site needs is absent. */
export function readWebAssets(dir: string = defaultAssetsDir()): WebAssets {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    throw new WebAssetsMissingError(dir, SITE_FILES[0]);
  }
  const missing = SITE_FILES.find((name) => !names.includes(name));
  if (missing !== undefined) throw new WebAssetsMissingError(dir, missing);
  return new Map(names.map((name) => [name, new Uint8Array(readFileSync(`${dir}/${name}`))]));
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".npc": "application/octet-stream",
};

/** The Content-Type a static host should send for `file`. */
export function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf(".");
  return CONTENT_TYPES[dot < 0 ? "" : file.slice(dot)] ?? "application/octet-stream";
}
