// `ndfc web` without a browser: the files it writes (a page naming only its own files, carrying
// the SHA-256 of the bundle's payload), and the mistakes a user can make, each a one-line message with exit 2.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { WebAssets } from "../../compiler/web/assets.js";
import { exportSite } from "../../compiler/web/export-site.js";
import { HEADER_SIZE } from "../../runtime/bundle/format.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { datasetBundle } from "../support/datasets.js";

const ASSETS: WebAssets = new Map(["chat.js", "chat.css", "ndfc-runtime.js", "sha256.js"].map((name) => [name, new TextEncoder().encode(`/* ${name} */`)]));

it("writes the page, the page's files and the bundle; the page names only files beside it and the SHA-256 of the bundle's payload", () => {
  const dir = join(tempDir("web-site"), "site");
  const bundle = datasetBundle("termy");
  const files = exportSite("Termy", bundle, ASSETS, dir);
  expect(files.map((f) => f.file)).toEqual(["index.html", "chat.js", "chat.css", "ndfc-runtime.js", "sha256.js", "termy.npc"]);
  expect(files.find((f) => f.file === "termy.npc")!.bytes).toBe(bundle.byteLength);
  expect(new Uint8Array(readFileSync(join(dir, "termy.npc")))).toEqual(bundle);
  const html = readFileSync(join(dir, "index.html"), "utf8");
  expect(html).toContain(`data-sha256="${createHash("sha256").update(bundle.subarray(HEADER_SIZE)).digest("hex")}"`);
  expect(html).toContain('data-bundle="termy.npc"');
  const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(referenced.sort()).toEqual(["./chat.css", "./chat.js", "./ndfc-runtime.js", "data:,", "termy.npc"]);
});

it("says what is wrong: a missing bundle, no -o, and page files not built (run from the sources)", async () => {
  const dir = tempDir("web-cli");
  const missing = await runCaptured(["web", "nope.npc", "-o", "site"], dir);
  expect(missing).toMatchObject({ code: 2, err: "ndfc: no bundle at nope.npc: build it first: ndfc build DIR (it writes dist-npcs/NAME.npc)\n" });
  writeFileSync(join(dir, "termy.npc"), datasetBundle("termy"));
  const noOut = await runCaptured(["web", "termy.npc"], dir);
  expect(noOut.code).toBe(2);
  expect(noOut.err).toContain("--out <dir>");
  // The sources have no web-assets/ beside compiler/: only `npm run build` makes them.
  const unbuilt = await runCaptured(["web", "termy.npc", "-o", "site"], dir);
  expect(unbuilt.code).toBe(2);
  expect(unbuilt.err).toMatch(/^ndfc: the chat page's files are not built \(.*web-assets.* has no chat\.js\): run npm run build\n$/);
});

it("--help says what the site holds and how to publish it", async () => {
  const help = await runCaptured(["web", "--help"], tempDir("web-help"));
  for (const part of ["-o, --out <dir>", "index.html", "SHA-256", "static host", "file://"]) expect(help.out).toContain(part);
});
