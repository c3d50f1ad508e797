// "no" after a wrong guess (a probabilistic match) records the miss on the guess's audit row,
// as the user's answer to a taught word does; other messages after a guess are answered as usual.
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { conversations, serveDatasets, type TestServer } from "./support.js";

let served: TestServer;
beforeAll(async () => {
  served = await serveDatasets();
});
afterAll(async () => served.close());

it("records the miss of a guess the user says no to", async () => {
  const chat = conversations(served.server.url, "termy");
  const guess = await chat.say("show disk space", "g");
  expect(guess.status).toBe("probabilistic match");
  expect(await chat.say("no", "g")).toMatchObject({ status: "teaching denied", response: "Noted, that was not right." });
  const right = await chat.say("show disk space", "h");
  expect(await chat.say("git status", "h")).toMatchObject({ status: "exact match", intent: "git_status" });
  const db = new Database(served.storePath, { readonly: true });
  try {
    const rows = db.prepare("SELECT input, confirmed FROM audit WHERE input = 'show disk space' ORDER BY id").all();
    expect(rows).toEqual([
      { input: "show disk space", confirmed: 0 },
      { input: "show disk space", confirmed: null },
    ]);
  } finally {
    db.close();
  }
  expect(right.intent).toBe(guess.intent);
});
