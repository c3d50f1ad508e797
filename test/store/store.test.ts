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

/** The version-1 schema as it shipped (a store written by an older ndfc). */
const MIGRATIONS_V1 = `CREATE TABLE audit (id INTEGER PRIMARY KEY, time TEXT NOT NULL, npc TEXT NOT NULL, session TEXT NOT NULL, input TEXT NOT NULL,
     normalized TEXT NOT NULL, status TEXT NOT NULL, intent TEXT, confidence REAL NOT NULL, confirmed INTEGER);
   CREATE INDEX audit_npc_time ON audit (npc, time);
   CREATE TABLE teach (id INTEGER PRIMARY KEY, npc TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('synonym', 'rule')), word TEXT NOT NULL,
     meaning TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('provisional', 'trusted')), uses INTEGER NOT NULL DEFAULT 0,
     confirmations INTEGER NOT NULL DEFAULT 0, source TEXT NOT NULL, session TEXT, created TEXT NOT NULL, updated TEXT NOT NULL, UNIQUE (npc, word));
   CREATE TABLE teach_use (teach_id INTEGER NOT NULL REFERENCES teach (id), audit_id INTEGER NOT NULL REFERENCES audit (id), confirmed INTEGER,
     PRIMARY KEY (teach_id, audit_id));`;

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
  it("migrates a version-1 store: who taught and confirmed is recorded, the teacher counts once, self-confirmed teachings go back to provisional", () => {
    const path = join(tempDir("store-v1"), "ndfc.db");
    const db = new Database(path);
    db.exec(MIGRATIONS_V1);
    db.pragma("user_version = 1");
    const audit = db.prepare(`INSERT INTO audit (time, npc, session, input, normalized, status, intent, confidence, confirmed) VALUES ('t', 'termy', ?, 'zap', 'zap', 'template match', 'x', 1, 1)`);
    const teach = db.prepare(
      `INSERT INTO teach (npc, kind, word, meaning, state, confirmations, source, session, created, updated) VALUES ('termy', 'synonym', ?, 'delete', 'trusted', 3, ?, ?, 't', 't')`,
    );
    const use = db.prepare(`INSERT INTO teach_use (teach_id, audit_id, confirmed) VALUES (?, ?, 1)`);
    // "zap": taught and confirmed three times by session alice alone. "wipe": confirmed by three others.
    const zap = Number(teach.run("zap", "conversation", "alice").lastInsertRowid);
    const wipe = Number(teach.run("wipe", "conversation", "bob").lastInsertRowid);
    for (const session of ["alice", "alice", "alice"]) use.run(zap, Number(audit.run(session).lastInsertRowid));
    for (const session of ["carol", "dave", "erin", "carol"]) use.run(wipe, Number(audit.run(session).lastInsertRowid));
    db.close();
    const store = openStore(path);
    expect(store.teachings("termy").map((t) => [t.word, t.state, t.confirmations, t.client])).toEqual([
      ["wipe", "trusted", 4, null],
      ["zap", "provisional", 1, null],
    ]);
    // Version 4 adds the teacher's own confirmation (dated when it taught; all times here are "t").
    expect(store.confirmations(zap).map((c) => [c.session, c.counted])).toEqual([["alice", false], ["alice", false], ["alice", false], ["alice", true]]);
    expect(store.confirmations(wipe).map((c) => [c.session, c.counted])).toEqual([["carol", true], ["dave", true], ["erin", true], ["carol", false], ["bob", true]]);
    store.recordTurn({ ...turn("hello", "exact match"), client: "k_1" });
    store.close();
  });

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
  it("a teaching is provisional until TRUST_AFTER distinct confirmers, its teacher the first, confirmed it, then trusted", () => {
    const store = tempStore();
    const added = store.teachSynonym({ npc: "termy", word: "Zap", meaning: "delete", source: "cli" });
    expect(added).toMatchObject({ kind: "added", teaching: { word: "zap", meaning: "delete", state: "provisional", kind: "synonym", confirmations: 1 } });
    const id = added.kind === "added" ? added.teaching.id : -1;
    expect(store.confirmByOperator("termy", "zap")).toMatchObject({ counted: false, teaching: { confirmations: 1 } }); // the operator taught it
    for (let i = 2; i <= TRUST_AFTER; i++) {
      const session = `s${i}`;
      const row = store.recordTurn({ ...turn("zap a", "template match"), session, taught: [id] });
      expect(store.confirm(row, false)[0]!.confirmations).toBe(i - 1); // a "no" never counts
      const row2 = store.recordTurn({ ...turn("zap b", "template match"), session, taught: [id] });
      const [after] = store.confirm(row2, true);
      expect(after).toMatchObject({ confirmations: i, state: i < TRUST_AFTER ? "provisional" : "trusted" });
      expect(store.confirm(row2, true)).toEqual([]); // one turn confirms once
      const row3 = store.recordTurn({ ...turn("zap c", "template match"), session, taught: [id] });
      expect(store.confirm(row3, true)[0]!.confirmations).toBe(i); // the same session again: no more
    }
    expect(store.teachings("termy")[0]).toMatchObject({ uses: 3 * (TRUST_AFTER - 1), state: "trusted" });
    expect(store.trustedTeachings("termy").map((t) => t.word)).toEqual(["zap"]);
    expect(store.trustedTeachings("example")).toEqual([]);
    store.close();
  });

  it("counts a key once, whatever its sessions: the teacher's key by teaching, never again by its own confirmations", () => {
    const store = tempStore();
    const added = store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "conversation", session: "t", client: "k_teacher" });
    const id = added.kind === "added" ? added.teaching.id : -1;
    const confirmBy = (session: string, client: string | null) =>
      store.confirm(store.recordTurn({ ...turn("zap a", "template match"), session, client, taught: [id] }), true)[0]!;
    expect(added).toMatchObject({ teaching: { confirmations: 1 } });
    expect(confirmBy("t", "k_teacher").confirmations).toBe(1);
    expect(confirmBy("t2", "k_teacher").confirmations).toBe(1); // another session of the teacher's key
    expect(confirmBy("o1", "k_other").confirmations).toBe(2);
    expect(confirmBy("o2", "k_other")).toMatchObject({ confirmations: 2, state: "provisional" }); // the same key again
    expect(store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "conversation", session: "y", client: "k_third" })).toMatchObject({
      kind: "exists",
      counted: true,
      teaching: { confirmations: 3, state: "trusted" },
    });
    expect(store.confirmations(id).map((c) => [c.client, c.confirmer, c.counted])).toEqual([
      ["k_teacher", "key:k_teacher", true],
      ["k_teacher", "key:k_teacher", false],
      ["k_teacher", "key:k_teacher", false],
      ["k_other", "key:k_other", true],
      ["k_other", "key:k_other", false],
      ["k_third", "key:k_third", true],
    ]);
    store.close();
  });

  it("refuses negated teachings either way, and what the bundle guard refuses", () => {
    const store = tempStore();
    for (const [word, meaning] of [["never delete empty directories", "delete empty directories"], ["keep", "don't delete"], ["spare it", "do not remove it"]] as const) {
      const outcome = store.teachSynonym({ npc: "termy", word, meaning, source: "cli" });
      expect(outcome).toMatchObject({ kind: "refused" });
      if (outcome.kind === "refused") expect(outcome.message).toMatch(/is negated/);
    }
    const guarded = store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "cli", guard: (w) => `no ${w}` });
    expect(guarded).toEqual({ kind: "refused", message: "no zap" });
    expect(store.teachings()).toEqual([]);
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
    expect(list.out).toBe(`termy  "zap" means "delete"  provisional (1/${TRUST_AFTER} confirmed, 0 uses, synonym, from cli)\n`);
    const json = await runCaptured(["teach", "list", "--npc", "example", "--json", "--store", db], cwd);
    expect(JSON.parse(json.out)).toEqual([]);
  });
});
