// The chat page of `ndfc serve` in a real Chromium: opened from the server's index, a five-turn
// conversation through the server's API (a rejection, a clicked suggestion, the explain panel),
// on a phone-width screen too; a screenshot goes to test-artifacts/.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { readWebAssets } from "../../compiler/web/assets.js";
import { artifactDir, chromiumPath, collectPageErrors, launchChromium, NO_CHROMIUM } from "../support/browser.js";
import { builtCli } from "../support/built-cli.js";
import { serveDatasets, type TestServer } from "../serve/support.js";
import { fitsPhoneWidth, holdConversation, NPC_NAME } from "./conversation.js";

if (!chromiumPath) console.warn(NO_CHROMIUM);

describe.skipIf(!chromiumPath)("the served chat page in Chromium", () => {
  let browser: Browser;
  let served: TestServer;
  const logged: string[] = [];

  beforeAll(async () => {
    const webAssets = readWebAssets(join(builtCli(), "../../../web-assets"));
    [browser, served] = await Promise.all([launchChromium(), serveDatasets({ withStore: false, webAssets, logRequest: (line) => void logged.push(line) })]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("holds a five-turn conversation with a rejection, its suggestions and the explain trace", async () => {
    const page = await browser.newPage({ viewport: { width: 820, height: 900 } });
    const errors = collectPageErrors(page);
    await page.goto(`${served.server.url}/`);
    await page.getByRole("link", { name: NPC_NAME }).click();
    expect(new URL(page.url()).pathname).toBe("/chat/termy");
    await holdConversation(page);
    await page.screenshot({ path: join(artifactDir(), "chat-served.png"), fullPage: true });
    expect(await fitsPhoneWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    // Every message went through the server's own API, one log line each.
    expect(logged.filter((line) => / POST \/api\/chat\/termy 200 /.test(line))).toHaveLength(5);
  });
});
