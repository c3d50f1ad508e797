// The store's schema, versioned with PRAGMA user_version: migration N brings version N-1 to N.
// Add a migration at the end; never edit one that has shipped.
import type Database from "better-sqlite3";

const MIGRATIONS: readonly string[] = [
  // 1: the audit log and the teach store.
  `CREATE TABLE audit (
     id INTEGER PRIMARY KEY,
     time TEXT NOT NULL,
     npc TEXT NOT NULL,
     session TEXT NOT NULL,
     input TEXT NOT NULL,
     normalized TEXT NOT NULL,
     status TEXT NOT NULL,
     intent TEXT,
     confidence REAL NOT NULL,
     confirmed INTEGER
   );
   CREATE INDEX audit_npc_time ON audit (npc, time);
   CREATE TABLE teach (
     id INTEGER PRIMARY KEY,
     npc TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('synonym', 'rule')),
     word TEXT NOT NULL,
     meaning TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('provisional', 'trusted')),
     uses INTEGER NOT NULL DEFAULT 0,
     confirmations INTEGER NOT NULL DEFAULT 0,
     source TEXT NOT NULL,
     session TEXT,
     created TEXT NOT NULL,
     updated TEXT NOT NULL,
     UNIQUE (npc, word)
   );
   CREATE TABLE teach_use (
     teach_id INTEGER NOT NULL REFERENCES teach (id),
     audit_id INTEGER NOT NULL REFERENCES audit (id),
     confirmed INTEGER,
     PRIMARY KEY (teach_id, audit_id)
   );`,
  // 2: who taught and who confirmed. `client` is the id of the API key a request came with (a
  // hash prefix, never the key), null without keys. One teach_confirm row per confirmation: a "yes"
  // to an answer that used the teaching (audit_id), or the same teaching taught again (audit_id
  // null). `confirmer` is "key:<id>" when keys are on, else "session:<id>"; a teaching's
  // confirmations count distinct confirmers other than its teacher (TRUST_AFTER was 3 when this
  // shipped), so those already stored are recounted that way: a teaching only its own
  // conversation confirmed goes back to provisional.
  `ALTER TABLE audit ADD COLUMN client TEXT;
   ALTER TABLE teach ADD COLUMN client TEXT;
   CREATE TABLE teach_confirm (
     id INTEGER PRIMARY KEY,
     teach_id INTEGER NOT NULL REFERENCES teach (id),
     audit_id INTEGER REFERENCES audit (id),
     session TEXT NOT NULL,
     client TEXT,
     confirmer TEXT NOT NULL,
     counted INTEGER NOT NULL,
     time TEXT NOT NULL,
     UNIQUE (teach_id, audit_id)
   );
   CREATE INDEX teach_confirm_confirmer ON teach_confirm (teach_id, confirmer);
   CREATE INDEX teach_confirm_session ON teach_confirm (session);
   INSERT INTO teach_confirm (teach_id, audit_id, session, client, confirmer, counted, time)
     SELECT u.teach_id, u.audit_id, a.session, NULL, 'session:' || a.session, 0, a.time
     FROM teach_use u JOIN audit a ON a.id = u.audit_id WHERE u.confirmed = 1 ORDER BY u.audit_id;
   UPDATE teach_confirm SET counted = 1 WHERE id IN (
     SELECT MIN(c.id) FROM teach_confirm c JOIN teach t ON t.id = c.teach_id
     WHERE t.session IS NULL OR c.session <> t.session
     GROUP BY c.teach_id, c.confirmer);
   UPDATE teach SET confirmations = (SELECT COUNT(*) FROM teach_confirm c WHERE c.teach_id = teach.id AND c.counted = 1);
   UPDATE teach SET state = CASE WHEN confirmations >= 3 THEN 'trusted' ELSE 'provisional' END;`,
  // 3: escalation (compiler/escalate/). Each audit row records the tier that answered (exact,
  // template, learned, escalated, …), the latency and, when a model was asked, which one; rows
  // written before have null there. A teaching may be an `input`: a message (word, normalized)
  // learned as a new input of an intent (meaning: its id). The kind CHECK can only change by
  // rebuilding the table (SQLite's documented order: new table, copy, drop, rename), which runs
  // with foreign keys off (openStore turns them on after migrating); the
  // copy keeps every id, so teach_use and teach_confirm still point at the same rows.
  `ALTER TABLE audit ADD COLUMN tier TEXT;
   ALTER TABLE audit ADD COLUMN latency_ms REAL;
   ALTER TABLE audit ADD COLUMN model TEXT;
   CREATE INDEX audit_tier ON audit (tier, time);
   CREATE TABLE teach_v3 (
     id INTEGER PRIMARY KEY,
     npc TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('synonym', 'rule', 'input')),
     word TEXT NOT NULL,
     meaning TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('provisional', 'trusted')),
     uses INTEGER NOT NULL DEFAULT 0,
     confirmations INTEGER NOT NULL DEFAULT 0,
     source TEXT NOT NULL,
     session TEXT,
     created TEXT NOT NULL,
     updated TEXT NOT NULL,
     client TEXT,
     UNIQUE (npc, word)
   );
   INSERT INTO teach_v3 (id, npc, kind, word, meaning, state, uses, confirmations, source, session, created, updated, client)
     SELECT id, npc, kind, word, meaning, state, uses, confirmations, source, session, created, updated, client FROM teach;
   DROP TABLE teach;
   ALTER TABLE teach_v3 RENAME TO teach;`,
  // 4: teaching is a confirmation (TRUST_AFTER, store.ts): the teacher's counts as the first,
  // so "taught in one chat, confirmed in two later ones" is trusted. Each stored teaching gains
  // its teacher's confirmation (the operator's, session "cli", for one taught from the CLI) unless
  // that confirmer already counted, dated when it was taught; then its count and state are
  // recounted (a count only grows, so nothing trusted goes back).
  `INSERT INTO teach_confirm (teach_id, audit_id, session, client, confirmer, counted, time)
     SELECT id, NULL, session, client, confirmer, 1, created FROM (
       SELECT t.id, COALESCE(t.session, 'cli') AS session, t.client, t.created,
              CASE WHEN t.client IS NOT NULL THEN 'key:' || t.client ELSE 'session:' || COALESCE(t.session, 'cli') END AS confirmer
       FROM teach t) AS teacher
     WHERE NOT EXISTS (SELECT 1 FROM teach_confirm c WHERE c.teach_id = teacher.id AND c.confirmer = teacher.confirmer AND c.counted = 1)
     ORDER BY id;
   UPDATE teach SET confirmations = (SELECT COUNT(*) FROM teach_confirm c WHERE c.teach_id = teach.id AND c.counted = 1);
   UPDATE teach SET state = CASE WHEN confirmations >= 3 THEN 'trusted' ELSE state END;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to SCHEMA_VERSION, each migration in its own transaction (the caller has refused newer schemas). */
export function migrate(db: Database.Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  for (let version = current; version < SCHEMA_VERSION; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
