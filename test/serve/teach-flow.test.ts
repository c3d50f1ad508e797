// Teaching in conversation through `ndfc serve`: a taught word is substituted and answered, its
// teaching and confirmations from two other conversations make it trusted, conflicts, negated phrases and typos
// are refused, and `ndfc build --taught` folds trusted teachings into a reproducible bundle that understands them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintSources } from "../../compiler/lint.js";
import { applyTaught } from "../../compiler/passes/apply-taught.js";
import type { ServeAnswer } from "../../compiler/serve/host.js";
import { openStore, TRUST_AFTER } from "../../compiler/store/store.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";
import type { ErrorBody } from "../../compiler/serve/http-error.js";
import { conversations, postJson, serveDatasets, type TestServer } from "./support.js";

let served: TestServer;
let chat: ReturnType<typeof conversations>;
/** Messages sent through `say`: one audit row each. */
let sent = 0;
const say = async (message: string, name = "teach") => {
  sent++;
  return chat.say(message, name);
};

beforeAll(async () => {
  served = await serveDatasets();
  chat = conversations(served.server.url, "termy");
});
afterAll(async () => served.close());

describe("teaching in conversation", () => {
  it("teaching is its conversation's one confirmation, however often it confirms again; trusted once two others teach it too", async () => {
    expect((await say("zap file old.txt")).status).toBe("rejected");
    const taught = await say("teach: zap means delete");
    expect(taught).toMatchObject({ status: "teaching recorded", teaching: { word: "zap", meaning: "delete", state: "provisional", confirmations: 1 } });

    const used = await say("zap file notes.txt");
    expect(used).toMatchObject({ status: "template match", intent: "files_delete", slots: { file: "notes.txt" } });
    expect(used.taught).toEqual([{ word: "zap", meaning: "delete", state: "provisional" }]);
    // The teacher's own "yes" is recorded but counts nothing more: teaching it was its confirmation.
    expect(await say("yes")).toMatchObject({ status: "teaching confirmed", teaching: { confirmations: 1, state: "provisional" } });

    await say("zap file a.txt");
    expect(await say("no")).toMatchObject({ status: "teaching denied", teaching: { confirmations: 1 } });
    // "yes" with no taught answer before it goes to the NPC.
    expect((await say("yes")).status).not.toBe("teaching confirmed");

    await say("zap file b.txt");
    const confirm = await chat.confirm("teach");
    expect(confirm.status).toBe(200);
    expect(confirm.json.teachings).toEqual([{ word: "zap", meaning: "delete", state: "provisional", confirmations: 1 }]);
    await say("zap file c.txt");
    expect(await say("correct")).toMatchObject({ status: "teaching confirmed", teaching: { confirmations: 1, state: "provisional" } });
    expect((await say("teach: zap means delete")).teaching).toMatchObject({ confirmations: 1, state: "provisional" }); // again: still the teacher

    expect((await say("zap file x.txt", "stranger")).status).toBe("rejected"); // provisional: not here
    for (let i = 2; i <= TRUST_AFTER; i++) {
      const again = await say("teach: zap means delete", `agrees-${i}`);
      expect(again.teaching).toEqual({ word: "zap", meaning: "delete", confirmations: i, state: i < TRUST_AFTER ? "provisional" : "trusted" });
    }
    expect(await say("zap file x.txt", "stranger")).toMatchObject({ status: "template match", intent: "files_delete" });
    const [zap] = served.store!.teachings("termy");
    expect(zap).toMatchObject({ word: "zap", state: "trusted", uses: 5, source: "conversation", session: chat.ids.get("teach"), client: null });
    // Who confirmed: the teacher by teaching (counted), its three "yes" and second teach (not counted), then the two others.
    expect(served.store!.confirmations(zap!.id).map((c) => [c.session, c.counted, c.auditId === null])).toEqual([
      [chat.ids.get("teach"), true, true],
      [chat.ids.get("teach"), false, false],
      [chat.ids.get("teach"), false, false],
      [chat.ids.get("teach"), false, false],
      [chat.ids.get("teach"), false, true],
      [chat.ids.get("agrees-2"), true, true],
      [chat.ids.get("agrees-3"), true, true],
    ]);
  });

  it("applies a provisional teaching only in the conversations that taught it", async () => {
    expect((await say("teach: yeet means delete", "teacher")).status).toBe("teaching recorded");
    expect((await say("yeet file x.txt", "someone-else")).status).toBe("rejected");
    expect(await say("yeet file x.txt", "teacher")).toMatchObject({ status: "template match", intent: "files_delete" });
    expect((await say("teach: yeet means delete", "someone-else")).teaching).toMatchObject({ confirmations: 2 });
    expect(await say("yeet file x.txt", "someone-else")).toMatchObject({ status: "template match", intent: "files_delete" });
  });

  it("refuses to redefine a word the NPC's inputs already use", async () => {
    const refused = await say("teach: battery means delete", "other");
    expect(refused.status).toBe("teaching refused");
    expect(refused.response).toContain('"battery" already means "battery" itself in termy (battery); refusing "battery" means "delete"');
  });

  it("refuses a conflicting teaching with both sides shown", async () => {
    const bundleSide = await say("teach: wipe means list");
    expect(bundleSide.status).toBe("teaching refused");
    expect(bundleSide.response).toMatch(/"wipe" already means vocab_delete in termy \(.*\); refusing "wipe" means "list"/);
    await say("teach: frobnicate means list");
    const taughtSide = await say("teach: frobnicate means delete");
    expect(taughtSide.status).toBe("teaching refused");
    expect(taughtSide.response).toMatch(/"frobnicate" is already taught to mean "list".*refusing "frobnicate" means "delete"/);
    expect(served.store!.teachings("termy").find((t) => t.word === "frobnicate")!.meaning).toBe("list");
  });

  it("refuses a negated phrase and a typo of a known word", async () => {
    const negated = await say("teach: never delete empty directories means delete empty directories", "guards");
    expect(negated.status).toBe("teaching refused");
    expect(negated.response).toContain('"never delete empty directories" is negated');
    const typo = await say("teach: delte means delete", "guards");
    expect(typo.status).toBe("teaching refused");
    expect(typo.response).toContain('"delte" looks like a typo of "delete"');
    expect(served.store!.teachings("termy").map((t) => t.word)).not.toContain("delte");
  });

  it("audits every message, teaching ones included, with the confirmation on the answered row and the session that sent it", () => {
    const db = new Database(served.storePath, { readonly: true });
    try {
      const rows = db.prepare(`SELECT input, status, confirmed, session, client FROM audit ORDER BY id`).all() as {
        input: string;
        status: string;
        confirmed: number | null;
        session: string;
        client: string | null;
      }[];
      expect(rows).toHaveLength(sent);
      const confirmed = Object.fromEntries(rows.filter((r) => r.input.startsWith("zap file") && r.session === chat.ids.get("teach")).map((r) => [r.input, r.confirmed]));
      expect(confirmed).toEqual({ "zap file old.txt": null, "zap file notes.txt": 1, "zap file a.txt": 0, "zap file b.txt": 1, "zap file c.txt": 1 });
      expect(rows.filter((r) => r.status === "teaching refused")).toHaveLength(5);
      expect(new Set(rows.map((r) => r.session))).toEqual(new Set(chat.ids.values()));
      expect(rows.every((r) => r.client === null)).toBe(true);
    } finally {
      db.close();
    }
  });

  it("/api/confirm needs a session of this client with an answer, and a store", async () => {
    const unknown = await postJson<ErrorBody>(`${served.server.url}/api/confirm`, { npc: "termy", session: "never-seen" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe("session_not_found");
    const unnamed = await postJson<ErrorBody>(`${served.server.url}/api/confirm`, { npc: "termy" });
    expect(unnamed.status).toBe(400);
    expect(unnamed.json.error.param).toBe("session");
    const fresh = await postJson<ServeAnswer>(`${served.server.url}/api/chat/termy`, { message: "teach: zorp means list" });
    expect((await postJson(`${served.server.url}/api/confirm`, { npc: "termy", session: fresh.json.session })).status).toBe(404); // no answer yet
    const noStore = await serveDatasets({ withStore: false });
    try {
      const refused = await postJson<ServeAnswer>(`${noStore.server.url}/api/chat/termy`, { message: "teach: zap means delete" });
      expect(refused.json.status).toBe("teaching refused");
      expect((await postJson(`${noStore.server.url}/api/confirm`, { npc: "termy", session: refused.json.session })).status).toBe(409);
    } finally {
      await noStore.close();
    }
  });
});

describe("ndfc build --taught", () => {
  /** A store where `zap` means delete for termy, trusted, taught at a given time. */
  function trustedStore(dir: string, start: string, extra: [string, string][] = []): string {
    let tick = 0;
    const store = openStore(join(dir, "ndfc.db"), { now: () => new Date(Date.parse(start) + 1000 * tick++) });
    for (const [word, meaning] of [...extra, ["zap", "delete"] as [string, string]]) {
      const outcome = store.teachSynonym({ npc: "termy", word, meaning, source: "cli" });
      const id = outcome.kind === "added" ? outcome.teaching.id : -1;
      for (let i = 1; i < TRUST_AFTER; i++) {
        store.confirm(store.recordTurn({ npc: "termy", session: `s${i}`, input: word, status: "template match", intent: "x", confidence: 1, taught: [id] }), true);
      }
    }
    store.teachSynonym({ npc: "termy", word: "blip", meaning: "list", source: "cli" }); // provisional: not folded
    store.close();
    return join(dir, "ndfc.db");
  }

  it("folds trusted teachings so a rejected word is understood, reproducibly for the same store contents", async () => {
    const dir = tempDir("taught");
    const storeA = trustedStore(join(dir, "a"), "2026-01-01T00:00:00Z", [["obliterate", "remove"]]);
    const storeB = trustedStore(join(dir, "b"), "2026-06-15T12:00:00Z", [["obliterate", "remove"]]);
    const build = (out: string, ...more: string[]) => runCaptured(["build", "datasets/termy", "-o", join(dir, out), ...more], repoRoot);
    expect((await build("plain.npc")).code).toBe(0);
    const taught = await build("taught.npc", "--taught", storeA);
    expect(taught.code).toBe(0);
    expect(taught.err).toContain("folded 2 trusted teaching(s) of termy");
    expect((await build("taught-again.npc", "--taught", storeB)).code).toBe(0);

    const ask = async (bundle: string, message: string) =>
      JSON.parse((await runCaptured(["ask", join(dir, bundle), message, "--json"], repoRoot)).out) as ServeAnswer;
    expect((await ask("plain.npc", "zap file notes.txt")).status).toBe("rejected");
    expect(await ask("taught.npc", "zap file notes.txt")).toMatchObject({ status: "template match", intent: "files_delete" });
    expect(await ask("taught.npc", "obliterate file notes.txt")).toMatchObject({ status: "template match", intent: "files_delete" });
    // A provisional teaching is not folded: "blip" stays unknown where "list" is understood.
    expect((await ask("taught.npc", "list")).intent).toBe("files_list");
    expect(await ask("taught.npc", "blip")).toMatchObject({ status: "rejected" });

    const bytes = (name: string) => readFileSync(join(dir, name));
    expect(bytes("taught.npc").equals(bytes("taught-again.npc"))).toBe(true);
    expect(bytes("taught.npc").equals(bytes("plain.npc"))).toBe(false);
  });

  it("a missing store is a usage error", async () => {
    const dir = tempDir("taught-missing");
    const result = await runCaptured(["build", "datasets/termy", "-o", join(dir, "t.npc"), "--taught", join(dir, "none.db")], repoRoot);
    expect(result.code).toBe(2);
    expect(result.err).toContain("no store at");
  });

  it("applyTaught gives the same IR whatever the order of the teachings, and skips a clashing word", () => {
    const { ir } = lintSources([join(repoRoot, "datasets", "termy")]);
    const teachings = [
      { word: "zap", meaning: "delete" },
      { word: "nuke", meaning: "remove" },
      { word: "wipe", meaning: "list" }, // wipe already means delete in TERMy
      { word: "frobnicate", meaning: "unheard of" },
    ];
    const reference = applyTaught(ir, teachings);
    expect(reference.skipped.map((s) => s.teaching.word)).toEqual(["wipe"]);
    expect(reference.ir.synonyms.find((s) => s.tag === "taught_unheard_of")!.words).toEqual(["unheard of", "frobnicate"]);
    expect(reference.ir.synonyms.find((s) => s.tag === "vocab_delete")!.words).toEqual(expect.arrayContaining(["zap", "nuke"]));
    fc.assert(
      fc.property(fc.shuffledSubarray(teachings, { minLength: teachings.length }), (order) => {
        const again = applyTaught(ir, order);
        expect(again.ir.synonyms).toEqual(reference.ir.synonyms);
        expect(again.ir.sources).toEqual(reference.ir.sources);
      }),
      { numRuns: 24 },
    );
  });
});
