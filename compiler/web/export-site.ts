// `ndfc web`: a static site that answers entirely in the browser. index.html (the chat page), the
// page's script and style, the runtime as a browser module, and the bundle, whose payload SHA-256
// the page carries so it refuses any other bundle served in its place. No file names a CDN or any
// other origin: the site works offline once loaded, on any static host.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { readHeader } from "../../runtime/index.js";
import { bundleSlug } from "../emit/write-bundle.js";
import { writeFileAtomic } from "../write-atomic.js";
import { chatPageHtml } from "./page.js";
import type { WebAssets } from "./assets.js";

export interface ExportedFile {
  file: string;
  bytes: number;
}

/** Writes the site of the NPC `npcName` (bundle `bundle`) into `outDir`; returns its files, index.html first. */
export function exportSite(npcName: string, bundle: Uint8Array, assets: WebAssets, outDir: string): ExportedFile[] {
  mkdirSync(outDir, { recursive: true });
  const bundleFile = `${bundleSlug(npcName) || "npc"}.npc`;
  // The payload's SHA-256 as the header states it: the page checks the header against it and
  // loadNpc the payload against the header, one hash in the browser (the caller loaded `bundle`).
  const sha256 = Buffer.from(readHeader(bundle).sha256).toString("hex");
  const files = new Map<string, Uint8Array | string>([
    ["index.html", chatPageHtml(npcName, { kind: "bundle", file: bundleFile, sha256 }, "./")],
    ...assets,
    [bundleFile, bundle],
  ]);
  return [...files].map(([file, data]) => {
    writeFileAtomic(join(outDir, file), data);
    return { file, bytes: typeof data === "string" ? Buffer.byteLength(data) : data.byteLength };
  });
}
