// The conversation both chat-page tests hold with Termy (served and exported): five turns, the
// fourth rejected with suggestions, the fifth a click on one of them; then the explain panel of
// the rejection opened from the keyboard. Asserts on the DOM; returns the suggestion clicked.
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { say } from "../support/browser.js";

export const NPC_NAME = "Termy";
export const TYPED = ["hello", "list files", "create a folder demo", "bake me a chocolate cake"] as const;

export async function holdConversation(page: Page): Promise<string> {
  await page.locator("main[data-ready]").waitFor();
  for (const text of TYPED) await say(page, NPC_NAME, text);
  const answers = page.locator("li.npc");
  expect(await answers.nth(0).getAttribute("data-status")).toBe("exact match");
  // Tools are shown with their permission.
  await expect.poll(() => answers.nth(1).locator(".tool code").innerText()).toBe("ls -la");
  expect(await answers.nth(1).locator(".permission").innerText()).toMatch(/^permission (yolo|ask|auto): /);
  expect(await answers.nth(2).getAttribute("data-status")).toBe("template match");
  expect(await answers.nth(2).locator(".response").innerText()).toContain("demo");

  const rejection = answers.nth(3);
  expect(await rejection.getAttribute("data-status")).toBe("rejected");
  expect(await rejection.locator(".meta").innerText()).toContain("confidence 0%");
  await expect.poll(() => rejection.locator(".suggestions p").innerText()).toBe("Close matches:");
  const buttons = rejection.locator("button.suggestion");
  expect(await buttons.count()).toBeGreaterThan(0);
  const suggestion = await buttons.first().innerText();
  expect(suggestion.trim()).not.toBe("");

  await buttons.first().click();
  await answers.nth(4).waitFor();
  expect(await page.locator("li.user").nth(4).innerText()).toBe(suggestion);
  expect(await answers.nth(4).getAttribute("data-status")).not.toBe("rejected");
  expect(await answers.nth(4).locator(".emoji").innerText()).not.toBe("");

  // The explain trace, on demand and from the keyboard.
  const explain = rejection.locator("button.explain");
  const panel = rejection.locator(".explain-panel");
  expect(await panel.isHidden()).toBe(true);
  await explain.focus();
  await page.keyboard.press("Enter");
  expect(await explain.getAttribute("aria-expanded")).toBe("true");
  expect(await panel.isVisible()).toBe(true);
  const stages = await panel.locator(".trace > li > strong").allInnerTexts();
  expect(stages).toContain("decision");
  expect(stages).toContain("probabilistic");
  return suggestion;
}

/** No horizontal scrolling on a phone-width screen. */
export async function fitsPhoneWidth(page: Page): Promise<boolean> {
  await page.setViewportSize({ width: 360, height: 740 });
  // A string: the test program has no DOM types, the page evaluates it.
  return page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");
}
