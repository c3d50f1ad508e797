// The SQLite store: schema and pragmas, the audit log and its not-understood report, the teach
// store's states and conflicts, the default path, and the `ndfc audit` / `ndfc teach` commands.
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { bundleConcepts } from "../../compiler/store/bundle-concepts.js";
import { defaultStorePath } from "../../compiler/store/paths.js";
import { SCHEMA_VERSION } from "../../compiler/store/schema.js";
import { AUDIT_INPUT_LIMIT, MAX_TAUGHT_WORDS, openStore, StoreError, TRUST_AFTER, type Store } from "../../compiler/store/store.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { datasetNpc } from "../support/datasets.js";

/** A store in a temp directory whose clock advances one minute per call from `start`. */
function tempStore(start = "2026-11-01T10:00:00.000Z"): Store {
  let tick = 0;
  const base = Date.parse(start);
  return openStore(join(tempDir("store"), "nested", "ndfc.db"), { now: () => new Date(base + 60_000 * tick++) });
}

const turn = (input: string, status: string, confidence = status === "rejected" ? 0 : 1) => ({
  npc: "termy",
  session: "s",
  input,
  status,
  intent: status === "rejected" ? null : "some_intent",
  confidence,
});

describe("schema and durability settings", () => {
  it("creates the directory, the schema version, WAL and synchronous=NORMAL; reopening migrates nothing", () => {
    const store = tempStore();
    const path = store.path;
    store.recordTurn(turn("hello", "exact match"));
    store.close();
    const db = new Database(path);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
    const again = openStore(path);
    expect(again.auditCount()).toBe(1);
    expect(again.integrityCheck()).toBe("ok");
    again.close();
  });

  it("refuses a store from a newer ndfc, and a missing file when reading", () => {
    const dir = tempDir("store-version");
    const db = new Database(join(dir, "new.db"));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    // Read-write and read-only say the same.
    const message = `${join(dir, "new.db")} has schema version ${SCHEMA_VERSION + 1}, newer than this ndfc understands (${SCHEMA_VERSION}): upgrade ndfc to use it`;
    expect(() => openStore(join(dir, "new.db"))).toThrow(new StoreError(message));
    expect(() => openStore(join(dir, "new.db"), { readonly: true })).toThrow(new StoreError(message));
    expect(() => openStore(join(dir, "missing.db"), { readonly: true })).toThrow(StoreError);
  });

  it("lives under XDG_DATA_HOME, else ~/.local/share", () => {
    expect(defaultStorePath({ XDG_DATA_HOME: "/data" })).toBe("/data/ndfc/ndfc.db");
    expect(defaultStorePath({})).toMatch(/\.local\/share\/ndfc\/ndfc\.db$/);
  });
});

describe("audit log", () => {
  it("groups not-understood messages by normalized input, most frequent first, with first and last seen", () => {
    const store = tempStore();
    store.recordTurn(turn("zap notes.txt", "rejected"));
    store.recordTurn(turn("list files", "exact match"));
    store.recordTurn(turn("Zap  notes.txt!", "rejected"));
    store.recordTurn(turn("disk thing", "probabilistic match", 0.7));
    store.recordTurn(turn("disk space", "probabilistic match", 0.95));
    store.recordTurn(turn("zap notes.txt", "rejected"));
    store.recordTurn({ ...turn("blorp", "rejected"), npc: "example" });
    const groups = store.notUnderstood();
    expect(groups.map((g) => [g.npc, g.input, g.count])).toEqual([
      ["termy", "zap notes.txt", 3],
      ["example", "blorp", 1],
      ["termy", "disk thing", 1],
    ]);
    expect(groups[0]).toMatchObject({ firstSeen: "2026-11-01T10:00:00.000Z", lastSeen: "2026-11-01T10:05:00.000Z", statuses: ["rejected"] });
    expect(store.notUnderstood({ rejectedOnly: true }).map((g) => g.input)).toEqual(["zap notes.txt", "blorp"]);
    expect(store.notUnderstood({ npc: "example" }).map((g) => g.input)).toEqual(["blorp"]);
    expect(store.notUnderstood({ since: "2026-11-01T10:04:00.000Z" }).map((g) => [g.input, g.count])).toEqual([
      ["blorp", 1],
      ["zap notes.txt", 1],
    ]);
    expect(store.notUnderstood({ below: 0.5 }).map((g) => g.input)).not.toContain("disk thing");
    store.close();
  });

  it("keeps at most AUDIT_INPUT_LIMIT characters of an input", () => {
    const store = tempStore();
    store.recordTurn(turn("x".repeat(AUDIT_INPUT_LIMIT + 10), "rejected"));
    expect(store.notUnderstood()[0]!.example).toBe(`${"x".repeat(AUDIT_INPUT_LIMIT)}…`);
    store.close();
  });

  it("ndfc audit prints the groups as a table or JSON, filtered by NPC and date", async () => {
    const store = tempStore();
    store.recordTurn(turn("zap notes.txt", "rejected"));
    store.recordTurn(turn("zap notes.txt", "rejected"));
    store.recordTurn({ ...turn("blorp", "rejected"), npc: "example" });
    store.close();
    const cwd = tempDir("audit-cli");
    const text = await runCaptured(["audit", "--store", store.path], cwd);
    expect(text.code).toBe(0);
    expect(text.out.split("\n")[1]).toMatch(/^\s*2\s+2026-11-01 10:00:00\s+2026-11-01 10:01:00\s+termy\s+zap notes.txt\s+rejected$/);
    const json = await runCaptured(["audit", "--store", store.path, "--npc", "Example", "--json"], cwd);
    expect(JSON.parse(json.out)).toMatchObject([{ npc: "example", input: "blorp", count: 1 }]);
    const later = await runCaptured(["audit", "--store", store.path, "--since", "2027-01-01"], cwd);
    expect(later.out).toMatch(/^nothing misunderstood among 3 logged message/);
    const bad = await runCaptured(["audit", "--store", store.path, "--since", "yesterday"], cwd);
    expect(bad.code).toBe(2);
    const missing = await runCaptured(["audit", "--store", join(cwd, "none.db")], cwd);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.err).toContain("no store at");
  });
});

describe("teach store", () => {
  it("a teaching is provisional until used and confirmed TRUST_AFTER times, then trusted", () => {
    const store = tempStore();
    const added = store.teachSynonym({ npc: "termy", word: "Zap", meaning: "delete", source: "cli" });
    expect(added).toMatchObject({ kind: "added", teaching: { word: "zap", meaning: "delete", state: "provisional", kind: "synonym" } });
    const id = added.kind === "added" ? added.teaching.id : -1;
    for (let i = 1; i <= TRUST_AFTER; i++) {
      const row = store.recordTurn({ ...turn("zap a", "template match"), taught: [id] });
      expect(store.confirm(row, false)[0]!.confirmations).toBe(i - 1); // a "no" never counts
      const row2 = store.recordTurn({ ...turn("zap b", "template match"), taught: [id] });
      const [after] = store.confirm(row2, true);
      expect(after).toMatchObject({ confirmations: i, state: i < TRUST_AFTER ? "provisional" : "trusted" });
      expect(store.confirm(row2, true)).toEqual([]); // one turn confirms once
    }
    expect(store.teachings("termy")[0]).toMatchObject({ uses: 2 * TRUST_AFTER, state: "trusted" });
    expect(store.trustedTeachings("termy").map((t) => t.word)).toEqual(["zap"]);
    expect(store.trustedTeachings("example")).toEqual([]);
    store.close();
  });

  it("refuses a conflicting teaching with both sides shown, and never overwrites", async () => {
    const store = tempStore();
    store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "cli" });
    const again = store.teachSynonym({ npc: "termy", word: "zap", meaning: "list", source: "cli" });
    expect(again.kind).toBe("refused");
    if (again.kind === "refused") expect(again.message).toMatch(/"zap" is already taught to mean "delete".*refusing "zap" means "list"/);
    expect(store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "cli" }).kind).toBe("exists");
    expect(store.teachSynonym({ npc: "example", word: "zap", meaning: "list", source: "cli" }).kind).toBe("added"); // another NPC
    const known = bundleConcepts((await datasetNpc("termy")).payload);
    const clash = store.teachSynonym({ npc: "termy", word: "wipe", meaning: "list", source: "cli", known });
    expect(clash.kind).toBe("refused");
    if (clash.kind === "refused") expect(clash.message).toMatch(/"wipe" already means vocab_delete in termy \(.*delete.*\); refusing "wipe" means "list"/);
    // A word already a synonym of its meaning is not a conflict.
    expect(store.teachSynonym({ npc: "termy", word: "wipe", meaning: "delete", source: "cli", known }).kind).toBe("added");
    expect(store.teachSynonym({ npc: "termy", word: "same", meaning: "Same", source: "cli" }).kind).toBe("refused");
    const long = store.teachSynonym({ npc: "termy", word: "a b c d e f", meaning: "delete", source: "cli" });
    expect(long).toMatchObject({ kind: "refused", message: `a taught word and its meaning have at most ${MAX_TAUGHT_WORDS} words each` });
    expect(store.teachings("termy").map((t) => `${t.word}=${t.meaning}`)).toEqual(["wipe=delete", "zap=delete"]);
    store.close();
  });

  it("gives a conversation the trusted teachings, the operator's and its own provisional ones only", () => {
    const store = tempStore();
    store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "cli" });
    store.teachSynonym({ npc: "termy", word: "frob", meaning: "list", source: "conversation", session: "a" });
    store.teachSynonym({ npc: "termy", word: "blip", meaning: "show", source: "conversation", session: "b" });
    store.teachSynonym({ npc: "example", word: "quux", meaning: "list", source: "conversation", session: "a" });
    const words = (session: string) => store.teachingsIn("termy", session).map((t) => t.word);
    expect(words("a")).toEqual(["frob", "zap"]);
    expect(words("b")).toEqual(["blip", "zap"]);
    expect(words("c")).toEqual(["zap"]);
    store.close();
  });

  it("ndfc teach synonym and teach list", async () => {
    const cwd = tempDir("teach-cli");
    const db = join(cwd, "ndfc.db");
    const ok = await runCaptured(["teach", "synonym", "zap", "delete", "--npc", "TERMy", "--store", db], cwd);
    expect(ok).toMatchObject({ code: 0, out: 'taught termy: "zap" means "delete" (provisional)\n' });
    const conflict = await runCaptured(["teach", "synonym", "zap", "list", "--npc", "termy", "--store", db], cwd);
    expect(conflict.code).toBe(1);
    expect(conflict.err).toContain('"zap" is already taught to mean "delete"');
    expect(conflict.err).toContain('refusing "zap" means "list"');
    const noNpc = await runCaptured(["teach", "synonym", "a", "b", "--store", db], cwd);
    expect(noNpc.code).toBe(2);
    const list = await runCaptured(["teach", "list", "--store", db], cwd);
    expect(list.out).toBe(`termy  "zap" means "delete"  provisional (0/${TRUST_AFTER} confirmed, 0 uses, synonym, from cli)\n`);
    const json = await runCaptured(["teach", "list", "--npc", "example", "--json", "--store", db], cwd);
    expect(JSON.parse(json.out)).toEqual([]);
  });
});
