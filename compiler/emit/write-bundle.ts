// Writes a compiled bundle to disk: creates the directory, then temp file + rename (atomic).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../write-atomic.js";

export function writeBundle(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, bytes);
}

/** File-name slug of an NPC name: "TERMy" → "termy", "My NPC!" → "my-npc". */
export function bundleSlug(name: string): string {
  return name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
