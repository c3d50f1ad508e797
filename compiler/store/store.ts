// The user's state on this machine (docs/architecture.md, "State the server keeps"): the audit log of every message `serve` (and
// `chat`) answered, and the teach store of synonyms taught in conversation.
//
//   const store = openStore();                      // default path: defaultStorePath()
//   const id = store.recordTurn({ npc: "termy", session: "s1", input, status, intent, confidence });
//   store.confirm(id, true);                        // the user said that answer was right
//   (a teaching is trusted once TRUST_AFTER distinct confirmers confirmed it, its teacher the first)
//   store.teachSynonym({ npc: "termy", word: "zap", meaning: "delete", source: "chat" });
//   store.teachings("termy");                       // with their states
//   store.close();
//
// `npc` is the NPC's slug (bundleSlug(npc.name)). A host that wants serve's whole conversation
// behaviour (teach messages, taught-word substitution, yes/no confirmations, one audit row per
// message) can use NpcHost from compiler/serve/host.ts instead of calling the store itself.
//
// Durability: WAL with synchronous=NORMAL. A commit appends to the WAL with write() before it
// returns, so the row is in the kernel's page cache: a SIGKILL of the process (the failure a
// server meets) never loses it. Only an OS crash or power cut can drop the last commits, which
// FULL (an fsync per commit, ~100x slower per row) would prevent; audit rows do not warrant it.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { isNegated } from "../../runtime/match/guards.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { defaultStorePath } from "./paths.js";
import { migrate, SCHEMA_VERSION } from "./schema.js";

/**
 * Distinct confirmers after which a provisional teaching becomes trusted. Teaching it is its
 * teacher's confirmation, the first; each other confirmer counts once. A confirmer is an API key
 * when the server has keys, else a session (a chat), and the operator of `ndfc teach`: one client
 * confirming its own teaching, however often, never makes it trusted.
 */
export const TRUST_AFTER = 3;
/** The trust rule in one sentence, for help texts and answers. */
export const TRUST_RULE = `trusted once ${TRUST_AFTER} distinct conversations (API keys, when the server has keys) confirm it: teaching it is the first, and each other one counts once`;
/** The session a confirmation made with `ndfc teach confirm` is recorded under. */
const OPERATOR_SESSION = "cli";

export type TeachState = "provisional" | "trusted";
/**
 * A synonym is one word for one word; a rule maps a phrase (or to a phrase); an input is a message
 * learned as a new input of an intent (word: the message normalized, meaning: the intent's id),
 * from a confirmed answer of the escalation model.
 */
export type TeachKind = "synonym" | "rule" | "input";

export interface TurnRecord {
  /** NPC slug ("termy"). */
  npc: string;
  session: string;
  /** Id of the API key the message came with (never the key itself); null or absent without keys. */
  client?: string | null;
  input: string;
  /** The response status, or a control status of the host ("teaching recorded", …). */
  status: string;
  intent: string | null;
  confidence: number;
  /** Whether the user confirmed the answer; null or absent when unknown. */
  confirmed?: boolean | null;
  /** Ids of the teachings substituted into this message before the NPC answered. */
  taught?: readonly number[];
  /** What answered: exact, context, template, probabilistic, learned, escalated, rejected, composite, control. */
  tier?: string | null;
  /** Time from receiving the message to having its answer, in milliseconds. */
  latencyMs?: number | null;
  /** The escalation model that was asked (tier escalated), as it named itself. */
  model?: string | null;
}

export interface Teaching {
  id: number;
  npc: string;
  kind: TeachKind;
  word: string;
  meaning: string;
  state: TeachState;
  uses: number;
  confirmations: number;
  /** Who taught it: "conversation" or "cli". */
  source: string;
  /** The conversation that taught it (its provisional uses stay there), or null (CLI). */
  session: string | null;
  /** Id of the API key that taught it, or null (no keys, or the CLI). */
  client: string | null;
  created: string;
  updated: string;
}

/** A concept of the bundle: a vocab tag and its words. */
export interface KnownConcept {
  concept: string;
  words: string[];
}

/** Answers which concepts of the NPC's bundle a word (normalized) already belongs to. */
export type ConceptLookup = (word: string) => KnownConcept[];

export interface TeachRequest {
  npc: string;
  word: string;
  meaning: string;
  source: string;
  /** The session teaching it in conversation. */
  session?: string;
  /** Id of the API key of that session. */
  client?: string | null;
  /** The bundle's concepts, to refuse a word that already means something else there. */
  known?: ConceptLookup;
  /** Bundle-aware refusals (compiler/store/teach-guards.ts): the reason, or null to accept. */
  guard?: TeachGuard;
}

/** Why a teaching is refused for a bundle ("delte" is a typo of "delete"), or null. */
export type TeachGuard = (word: string, meaning: string) => string | null;

/** One confirmation of a teaching: which answer (null: taught again), who, and whether it counted towards trust. */
export interface Confirmation {
  auditId: number | null;
  session: string;
  client: string | null;
  /** "key:<id>" with keys, else "session:<id>": what must differ for confirmations to add up. */
  confirmer: string;
  /** false for a confirmer's repeat (its first counted, the teacher's included). */
  counted: boolean;
  time: string;
}

export type TeachOutcome =
  | { kind: "added"; teaching: Teaching }
  /** Taught already; `counted` when this teacher's agreement counted as a confirmation. */
  | { kind: "exists"; teaching: Teaching; counted: boolean }
  | { kind: "refused"; message: string };

export interface AuditQuery {
  npc?: string;
  /** Only messages answered by this tier ("escalated": what the model had to answer), whatever their status. */
  tier?: string;
  /** Only rejected messages (else also probabilistic matches below `below`). */
  rejectedOnly?: boolean;
  /** ISO time: only messages at or after it. */
  since?: string;
  /** Confidence under which a probabilistic match counts as not understood (default 0.8). */
  below?: number;
}

export interface AuditGroup {
  npc: string;
  /** The normalized input shared by the group. */
  input: string;
  count: number;
  /** One raw input of the group, as a user typed it. */
  example: string;
  statuses: string[];
  firstSeen: string;
  lastSeen: string;
  /** Mean latency of the group's messages in ms (rows that recorded one), or null. */
  latencyMs: number | null;
}

export interface StoreOptions {
  /** Open without writing (build --taught): the file must exist. */
  readonly?: boolean;
  /** The clock (tests). */
  now?: () => Date;
}

export const DEFAULT_LOW_CONFIDENCE = 0.8;
/** Characters of an input kept in the audit log (a longer one is cut, marked with "…"). */
export const AUDIT_INPUT_LIMIT = 2000;
/** Words a taught word or meaning may have: teachings are words and short phrases. */
export const MAX_TAUGHT_WORDS = 5;

/** A message learned as an input of an intent (from a confirmed escalated answer). */
export interface LearnRequest {
  npc: string;
  /** The message as the user typed it. */
  input: string;
  intent: string;
  session: string;
  client: string | null;
}

/** Who a session is, for counting confirmations: its key when keys are on, else itself. */
export function confirmerOf(client: string | null, session: string): string {
  return client !== null ? `key:${client}` : `session:${session}`;
}

interface TeachRow extends Omit<Teaching, "kind" | "state"> {
  kind: string;
  state: string;
}

export class StoreError extends Error {}

export class Store {
  private readonly now: () => Date;
  private readonly insertAudit: Database.Statement;
  private readonly insertUse: Database.Statement;
  private readonly countUse: Database.Statement;
  private readonly markAudit: Database.Statement;
  private readonly pendingUses: Database.Statement;
  private readonly markUse: Database.Statement;
  private readonly confirmTeaching: Database.Statement;
  private readonly teachingByWord: Database.Statement;
  private readonly insertTeaching: Database.Statement;
  private readonly allTeachings: Database.Statement;
  private readonly npcTeachings: Database.Statement;
  private readonly sessionTeachings: Database.Statement;
  private readonly teachingRow: Database.Statement;
  private readonly auditWho: Database.Statement;
  private readonly insertConfirmation: Database.Statement;
  private readonly countedBy: Database.Statement;
  private readonly confirmationRows: Database.Statement;

  constructor(
    readonly path: string,
    private readonly db: Database.Database,
    options: StoreOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.insertAudit = db.prepare(
      `INSERT INTO audit (time, npc, session, client, input, normalized, status, intent, confidence, confirmed, tier, latency_ms, model)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertUse = db.prepare(`INSERT OR IGNORE INTO teach_use (teach_id, audit_id) VALUES (?, ?)`);
    this.countUse = db.prepare(`UPDATE teach SET uses = uses + 1, updated = ? WHERE id = ?`);
    this.markAudit = db.prepare(`UPDATE audit SET confirmed = ? WHERE id = ?`);
    this.pendingUses = db.prepare(`SELECT teach_id AS id FROM teach_use WHERE audit_id = ? AND confirmed IS NULL ORDER BY teach_id`);
    this.markUse = db.prepare(`UPDATE teach_use SET confirmed = ? WHERE teach_id = ? AND audit_id = ?`);
    this.confirmTeaching = db.prepare(
      `UPDATE teach SET confirmations = confirmations + 1, updated = ?,
         state = CASE WHEN confirmations + 1 >= ? THEN 'trusted' ELSE state END
       WHERE id = ?`,
    );
    this.teachingByWord = db.prepare(`SELECT * FROM teach WHERE npc = ? AND word = ?`);
    this.insertTeaching = db.prepare(
      `INSERT INTO teach (npc, kind, word, meaning, state, source, session, client, created, updated)
       VALUES (?, ?, ?, ?, 'provisional', ?, ?, ?, ?, ?)`,
    );
    this.allTeachings = db.prepare(`SELECT * FROM teach ORDER BY npc, word`);
    this.npcTeachings = db.prepare(`SELECT * FROM teach WHERE npc = ? ORDER BY word`);
    this.sessionTeachings = db.prepare(
      `SELECT * FROM teach t WHERE npc = @npc AND (state = 'trusted' OR session IS NULL OR session = @session
         OR EXISTS (SELECT 1 FROM teach_confirm c WHERE c.teach_id = t.id AND c.session = @session AND c.audit_id IS NULL))
       ORDER BY word`,
    );
    this.teachingRow = db.prepare(`SELECT * FROM teach WHERE id = ?`);
    this.auditWho = db.prepare(`SELECT session, client FROM audit WHERE id = ?`);
    this.insertConfirmation = db.prepare(
      `INSERT OR IGNORE INTO teach_confirm (teach_id, audit_id, session, client, confirmer, counted, time) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.countedBy = db.prepare(`SELECT 1 FROM teach_confirm WHERE teach_id = ? AND confirmer = ? AND counted = 1`);
    this.confirmationRows = db.prepare(
      `SELECT audit_id AS auditId, session, client, confirmer, counted, time FROM teach_confirm WHERE teach_id = ? ORDER BY time, id`,
    );
  }

  /** Writes one audit row (and the uses of taught words) in one transaction; returns its id. */
  recordTurn(turn: TurnRecord): number {
    return this.db.transaction(() => {
      const input = turn.input.length > AUDIT_INPUT_LIMIT ? `${turn.input.slice(0, AUDIT_INPUT_LIMIT)}…` : turn.input;
      const confirmed = turn.confirmed === undefined || turn.confirmed === null ? null : turn.confirmed ? 1 : 0;
      const id = Number(
        this.insertAudit.run(
          this.now().toISOString(),
          turn.npc,
          turn.session,
          turn.client ?? null,
          input,
          normalizeKey(input),
          turn.status,
          turn.intent,
          turn.confidence,
          confirmed,
          turn.tier ?? null,
          turn.latencyMs ?? null,
          turn.model ?? null,
        ).lastInsertRowid,
      );
      for (const teachId of turn.taught ?? []) {
        this.insertUse.run(teachId, id);
        this.countUse.run(this.now().toISOString(), teachId);
      }
      return id;
    })();
  }

  /**
   * Records whether the answer of audit row `auditId` was right. The row's session (its key, when
   * keys are on) is the confirmer: each teaching used in that turn records the confirmation when
   * `correct` (once per turn), and gains one towards trust only from a confirmer that has not
   * confirmed it before (its teacher confirmed it by teaching it); at TRUST_AFTER it becomes trusted.
   * Returns the teachings the confirmation touched, as they are now.
   */
  confirm(auditId: number, correct: boolean): Teaching[] {
    return this.db.transaction(() => {
      const changed = this.markAudit.run(correct ? 1 : 0, auditId).changes;
      if (changed === 0) throw new StoreError(`no audit row ${auditId}`);
      const who = this.auditWho.get(auditId) as { session: string; client: string | null };
      const pending = this.pendingUses.all(auditId) as { id: number }[];
      for (const { id } of pending) {
        this.markUse.run(correct ? 1 : 0, id, auditId);
        if (correct) this.addConfirmation(this.teachingById(id)!, auditId, who.session, who.client);
      }
      return pending.map(({ id }) => this.teachingById(id)!);
    })();
  }

  /**
   * Records one confirmation of `teaching` by a session (answer `auditId`, or null: it taught the
   * same); it counts towards trust when the confirmer has not counted before.
   */
  private addConfirmation(teaching: Teaching, auditId: number | null, session: string, client: string | null): boolean {
    const confirmer = confirmerOf(client, session);
    const counted = this.countedBy.get(teaching.id, confirmer) === undefined;
    const time = this.now().toISOString();
    this.insertConfirmation.run(teaching.id, auditId, session, client, confirmer, counted ? 1 : 0, time);
    if (counted) this.confirmTeaching.run(time, TRUST_AFTER, teaching.id);
    return counted;
  }

  /**
   * Teaches `word` to mean `meaning` for an NPC, provisionally. Refused, with both sides shown,
   * when the word is already taught another meaning or already means another concept in the
   * bundle; never overwrites. The same teaching from another conversation confirms it (and then
   * applies there too).
   */
  teachSynonym(request: TeachRequest): TeachOutcome {
    const word = normalizeKey(request.word);
    const meaning = normalizeKey(request.meaning);
    if (word === "" || meaning === "") return { kind: "refused", message: "both the word and its meaning must contain words" };
    if (word === meaning) return { kind: "refused", message: `"${word}" already means itself` };
    if (word.split(" ").length > MAX_TAUGHT_WORDS || meaning.split(" ").length > MAX_TAUGHT_WORDS) {
      return { kind: "refused", message: `a taught word and its meaning have at most ${MAX_TAUGHT_WORDS} words each` };
    }
    const negated = [word, meaning].find((text) => isNegated(text));
    if (negated !== undefined) {
      return { kind: "refused", message: `"${negated}" is negated, and a teaching never maps a request not to do something (or to one)` };
    }
    const guarded = request.guard?.(word, meaning) ?? null;
    if (guarded !== null) return { kind: "refused", message: guarded };
    if (request.known && !knowsMeaning(request.known, meaning)) {
      return { kind: "refused", message: `"${meaning}" is not a word ${request.npc} knows (none of its inputs or synonyms): teach a meaning it already understands` };
    }
    const clash = bundleClash(request.known, word, meaning);
    const refusal = clash && `"${word}" already means ${clash.concept} in ${request.npc} (${clash.words.join(", ")}); refusing "${word}" means "${meaning}"`;
    const kind: TeachKind = word.includes(" ") || meaning.includes(" ") ? "rule" : "synonym";
    return this.addTeaching(kind, request.npc, word, meaning, request.source, request.session, request.client ?? null, refusal);
  }

  /**
   * Learns a message as a new input of an intent, provisionally (the escalation model answered it
   * and the user confirmed). The same lesson from another confirmer counts towards trust, as for
   * synonyms; a negated message is refused (a lesson never maps a request not to do something).
   */
  learnInput(request: LearnRequest): TeachOutcome {
    const word = normalizeKey(request.input);
    if (word === "") return { kind: "refused", message: "the message contains no words" };
    if (isNegated(word)) return { kind: "refused", message: `"${word}" is negated, and a lesson never maps a request not to do something` };
    return this.addTeaching("input", request.npc, word, request.intent, "escalation", request.session, request.client, undefined);
  }

  /**
   * Adds a provisional teaching, or confirms it when the same one exists (by `session`, or the
   * operator when none is given); refused when `word` is taught another meaning, or with `refusal` when it is new.
   */
  private addTeaching(
    kind: TeachKind,
    npc: string,
    word: string,
    meaning: string,
    source: string,
    session: string | undefined,
    client: string | null,
    refusal: string | undefined,
  ): TeachOutcome {
    return this.db.transaction((): TeachOutcome => {
      const existing = this.teachingByWord.get(npc, word) as TeachRow | undefined;
      if (existing) {
        const teaching = toTeaching(existing);
        if (teaching.meaning === meaning && teaching.kind === kind) {
          const counted = this.addConfirmation(teaching, null, session ?? OPERATOR_SESSION, client);
          return { kind: "exists", teaching: counted ? this.teachingById(teaching.id)! : teaching, counted };
        }
        return {
          kind: "refused",
          message:
            `"${word}" is already taught to mean "${teaching.meaning}" for ${npc} ` +
            `(${teaching.state}, ${teaching.confirmations}/${TRUST_AFTER} confirmations); ` +
            `refusing "${word}" means "${meaning}"`,
        };
      }
      if (refusal) return { kind: "refused", message: refusal };
      const time = this.now().toISOString();
      const id = Number(this.insertTeaching.run(npc, kind, word, meaning, source, session ?? null, client, time, time).lastInsertRowid);
      // Teaching is the teacher's confirmation (the operator's, from the CLI): the first of TRUST_AFTER.
      this.addConfirmation(this.teachingById(id)!, null, session ?? OPERATOR_SESSION, client);
      return { kind: "added", teaching: this.teachingById(id)! };
    })();
  }

  /** Teachings, by NPC then word; only one NPC's when `npc` is given. */
  teachings(npc?: string): Teaching[] {
    const rows = (npc === undefined ? this.allTeachings.all() : this.npcTeachings.all(npc)) as TeachRow[];
    return rows.map(toTeaching);
  }

  /**
   * The teachings that apply in one conversation of an NPC: trusted ones, the operator's (no
   * session) and the provisional ones that conversation taught (first, or again). Filtered by the query, so the cost of a
   * message does not grow with what other conversations taught.
   */
  teachingsIn(npc: string, session: string): Teaching[] {
    return (this.sessionTeachings.all({ npc, session }) as TeachRow[]).map(toTeaching);
  }

  /**
   * The operator confirms a teaching by hand (`ndfc teach confirm`): one confirmation from
   * "session:cli", counted once like any other confirmer's. Null when nothing is taught so.
   */
  confirmByOperator(npc: string, word: string): { teaching: Teaching; counted: boolean } | null {
    const row = this.teachingByWord.get(npc, normalizeKey(word)) as TeachRow | undefined;
    if (!row) return null;
    return this.db.transaction(() => {
      const counted = this.addConfirmation(toTeaching(row), null, OPERATOR_SESSION, null);
      return { teaching: this.teachingById(row.id)!, counted };
    })();
  }

  /** Every confirmation of a teaching, oldest first: who confirmed, and whether it counted. */
  confirmations(teachId: number): Confirmation[] {
    const rows = this.confirmationRows.all(teachId) as (Omit<Confirmation, "counted"> & { counted: number })[];
    return rows.map((row) => ({ ...row, counted: row.counted === 1 }));
  }

  /** The trusted teachings of an NPC, sorted by word then meaning (what build --taught folds in). */
  trustedTeachings(npc: string): Teaching[] {
    return this.teachings(npc).filter((t) => t.state === "trusted");
  }

  /** What users asked that the NPC did not understand, grouped by normalized input, most frequent first. */
  notUnderstood(query: AuditQuery = {}): AuditGroup[] {
    const misunderstood = query.rejectedOnly ? `status = 'rejected'` : `(status = 'rejected' OR (status = 'probabilistic match' AND confidence < @below))`;
    const where = [query.tier !== undefined ? `tier = @tier` : misunderstood];
    if (query.npc !== undefined) where.push(`npc = @npc`);
    if (query.since !== undefined) where.push(`time >= @since`);
    const rows = this.db
      .prepare(
        `SELECT npc, normalized AS input, COUNT(*) AS count, MIN(input) AS example,
                GROUP_CONCAT(DISTINCT status) AS statuses, MIN(time) AS firstSeen, MAX(time) AS lastSeen,
                ROUND(AVG(latency_ms), 1) AS latencyMs
         FROM audit WHERE ${where.join(" AND ")}
         GROUP BY npc, normalized
         ORDER BY count DESC, lastSeen DESC, npc, normalized`,
      )
      .all({ below: query.below ?? DEFAULT_LOW_CONFIDENCE, npc: query.npc, since: query.since, tier: query.tier }) as (Omit<AuditGroup, "statuses"> & {
      statuses: string;
    })[];
    return rows.map((row) => ({ ...row, statuses: row.statuses.split(",").sort() }));
  }

  /** Number of audit rows (all NPCs). */
  auditCount(): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM audit`).get() as { n: number }).n;
  }

  /** PRAGMA integrity_check: "ok" when the file is sound. */
  integrityCheck(): string {
    return this.db.pragma("integrity_check", { simple: true }) as string;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private teachingById(id: number): Teaching | undefined {
    const row = this.teachingRow.get(id) as TeachRow | undefined;
    return row && toTeaching(row);
  }
}

function toTeaching(row: TeachRow): Teaching {
  return { ...row, kind: row.kind as TeachKind, state: row.state as TeachState };
}

/** Whether the bundle knows `meaning`: as a synonym phrase, or each of its words. */
function knowsMeaning(known: ConceptLookup, meaning: string): boolean {
  return known(meaning).length > 0 || meaning.split(" ").every((word) => known(word).length > 0);
}

/** The bundle concept `word` belongs to that `meaning` does not share, if any. */
function bundleClash(known: ConceptLookup | undefined, word: string, meaning: string): KnownConcept | undefined {
  if (!known) return undefined;
  const concepts = known(word);
  if (concepts.length === 0) return undefined;
  if (concepts.some((c) => c.words.includes(meaning))) return undefined;
  return concepts[0];
}

/** Opens (creating the file, its directory and the schema as needed) the store at `path`. */
export function openStore(path: string = defaultStorePath(), options: StoreOptions = {}): Store {
  let db: Database.Database;
  try {
    if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new StoreError(`cannot open the store ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    db.pragma("busy_timeout = 5000");
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new StoreError(`${path} has schema version ${version}, newer than this ndfc understands (${SCHEMA_VERSION}): upgrade ndfc to use it`);
    }
    if (options.readonly) {
      if (version === 0) throw new StoreError(`${path} is not an ndfc store (no schema)`);
    } else {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      // Off while migrating (better-sqlite3 turns them on by default): a migration that rebuilds a table needs them off (schema.ts).
      db.pragma("foreign_keys = OFF");
      migrate(db);
      db.pragma("foreign_keys = ON");
    }
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(`cannot use the store ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return new Store(path, db, options);
}

export { defaultStorePath } from "./paths.js";
