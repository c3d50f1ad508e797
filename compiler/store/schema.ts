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
