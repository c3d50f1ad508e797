// A real Chromium for the browser tests: the system's `chromium` (Debian's package; .ci/run
// installs it) driven by playwright-core, which never downloads a browser. Also a static file
// server for exported sites (browsers fetch nothing from file:// pages) and the artifact folder
// where the tests leave screenshots and measurements.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { contentTypeOf } from "../../compiler/web/assets.js";
import { repoRoot } from "./repo-root.js";

const CANDIDATES = ["chromium", "chromium-browser", "google-chrome"];

/** The Chromium executable: $CHROMIUM_PATH, else the first candidate on PATH; null when none. */
export function findChromium(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of CANDIDATES) {
    const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  return null;
}

export const chromiumPath = findChromium();

/** The note a browser test file gives when it cannot run. */
export const NO_CHROMIUM = "browser tests skipped: no chromium on PATH (apt-get install -y chromium, or set CHROMIUM_PATH); .ci/run installs it";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath!, args: ["--disable-gpu"] });
}

/** test-artifacts/ (gitignored): screenshots and measurements of the last run. */
export function artifactDir(): string {
  const dir = join(repoRoot, "test-artifacts");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Serves `dir` read-only on a free loopback port, as any static host would. */
export async function serveDirectory(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const file = normalize(path === "/" ? "/index.html" : decodeURIComponent(path));
    try {
      const body = readFileSync(join(dir, file));
      res.writeHead(200, { "Content-Type": contentTypeOf(file), "Content-Length": body.byteLength }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Errors the page threw or logged; a test asserts there are none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().includes("favicon")) errors.push(message.text());
  });
  return errors;
}

/** Sends `text` with the keyboard only and waits for the answer (the n-th NPC turn). */
export async function say(page: Page, npcName: string, text: string): Promise<void> {
  const before = await page.locator("li.npc").count();
  await page.getByLabel(`Message to ${npcName}`).fill(text);
  await page.keyboard.press("Enter");
  await page.locator("li.npc").nth(before).waitFor();
}
