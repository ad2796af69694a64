import { and, asc, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { type DrizzleSqliteDODatabase, drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import migrations from "../../../migrations/session-object/migrations.js";
import type {
  ConnectionKeyRow,
  ConnectionRow,
  SessionAuthorityRow,
  SessionKeyRow,
  SessionRow,
} from "../db/sessions.ts";
import compactSchema from "./compact-schema.sql";
import { SessionWriter } from "./session-writer.ts";
import {
  connectionKeys,
  connections,
  type OutboxEvent,
  type OutboxRow,
  outbox,
  type StoredConnection,
  session,
  sessionAuthorities,
  sessionKeys,
} from "./tables.ts";

/** The key-value entry naming the newest migration the object's tables have. */
const SCHEMA_KEY = "schema";
/** What SCHEMA_KEY says of tables made at once from compact-schema.sql (objects since 2026-11). */
const COMPACT_SCHEMA = "compact-0004";
/**
 * Compact tables made before a column was added, and the statements that bring them to
 * COMPACT_SCHEMA (the same columns as the drizzle migration of that number).
 */
const COMPACT_UPGRADES: Record<string, string> = {
  "compact-0002":
    "ALTER TABLE `session` ADD `redacted_at` text; ALTER TABLE `session` ADD `livemode` integer DEFAULT true NOT NULL",
  "compact-0003": "ALTER TABLE `session` ADD `livemode` integer DEFAULT true NOT NULL",
};
/** The newest drizzle migration, which older objects' tables were brought to. */
const NEWEST_MIGRATION = migrations.journal.entries.at(-1)?.tag ?? "";

/** A connection as the object keeps it: the index's row, and what only the object needs. */
export type HeldConnection = StoredConnection;

/**
 * The reads the object's calls make, their SQL built once: drizzle builds a query anew each time
 * it runs, and a CPU profile (bench/profile.ts) put that building at a third of a proof's Worker
 * time. Run only once the tables exist.
 */
function preparedReads(db: DrizzleSqliteDODatabase) {
  const inProgress = eq(connections.outcome, "in_progress");
  return {
    session: db.select().from(session).prepare(),
    keys: db.select().from(sessionKeys).orderBy(asc(sessionKeys.position)).prepare(),
    authorities: db
      .select()
      .from(sessionAuthorities)
      .orderBy(asc(sessionAuthorities.position))
      .prepare(),
    connection: db
      .select()
      .from(connections)
      .where(eq(connections.id, sql.placeholder("id")))
      .prepare(),
    connections: db.select().from(connections).orderBy(desc(connections.id)).prepare(),
    connectionKeys: db.select().from(connectionKeys).orderBy(asc(connectionKeys.id)).prepare(),
    inProgress: db
      .select()
      .from(connections)
      .where(and(inProgress, gt(connections.leaseUntil, sql.placeholder("now"))))
      .prepare(),
    unfinished: db.select().from(connections).where(inProgress).prepare(),
    lapsed: db
      .select()
      .from(connections)
      .where(and(inProgress, lte(connections.leaseUntil, sql.placeholder("now"))))
      .prepare(),
    lastOutcome: db
      .select({ outcome: connections.outcome })
      .from(connections)
      .orderBy(desc(connections.id))
      .limit(1)
      .prepare(),
  };
}

/** Everything the index does not have yet: rows changed since its last acknowledged version. */
export interface PendingChanges {
  version: number;
  session: (SessionRow & { deleted: boolean }) | undefined;
  keys: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
  connections: ConnectionRow[];
  connectionKeys: ConnectionKeyRow[];
  events: OutboxEvent[];
}

/** A change's events from its outbox row (a row written before 2026-11-25 holds one event). */
const eventsOf = (row: OutboxRow): OutboxEvent[] =>
  Array.isArray(row.payload)
    ? row.payload
    : [{ id: row.id, type: row.type, payload: row.payload, createdAt: row.createdAt }];

/** The index's row of a connection: the object's, without what only the object keeps. */
export function indexRowOf(connection: HeldConnection): ConnectionRow {
  const { leaseUntil: _lease, rules: _rules, confirming: _confirming, ...row } = connection;
  return row;
}

const withoutVersion = <T extends { version: number }>({ version: _version, ...row }: T) => row;

/**
 * A session's own tables in its Durable Object's SQLite storage, and the one way to change them:
 * `transition`, a local transaction that bumps the session's version and stamps every row it
 * writes with it, so the push to D1 knows what is new (index-push.ts).
 */
export class SessionStore {
  readonly #db: DrizzleSqliteDODatabase;
  readonly #storage: DurableObjectStorage;
  /**
   * Whether the object has its tables. An object that never held a session has none and writes
   * none: a lookup of an unknown name (an `ssh` typo, a proof page guessed at) leaves no trace.
   */
  #hasTables = false;

  readonly #reads: ReturnType<typeof preparedReads>;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#db = drizzle(storage);
    this.#reads = preparedReads(this.#db);
  }

  /**
   * As the object wakes: an object that has tables brings them to the newest migration (one
   * already there, as its key-value storage says, skips the migrator's bookkeeping); an empty
   * one stays empty, reading only.
   */
  async open(): Promise<void> {
    const schema = this.#storage.kv.get<string>(SCHEMA_KEY);
    if (schema === COMPACT_SCHEMA || schema === NEWEST_MIGRATION) {
      this.#hasTables = true;
      return;
    }
    const upgrade = schema === undefined ? undefined : COMPACT_UPGRADES[schema];
    if (upgrade !== undefined) {
      this.#storage.transactionSync(() => {
        this.#storage.sql.exec(upgrade);
        this.#storage.kv.put(SCHEMA_KEY, COMPACT_SCHEMA);
      });
      this.#hasTables = true;
      return;
    }
    if (schema !== undefined || this.#tablesExist()) await this.ensureTables();
  }

  /** The object deleted all its storage (it retired): it holds nothing, and has no tables. */
  forget() {
    this.#hasTables = false;
  }

  /**
   * The session came from the index at `version`: the object's version continues from there, so
   * the index takes its next change (a row only replaces an older version).
   */
  adoptVersion(version: number) {
    this.#db.update(session).set({ version }).run();
  }

  /**
   * Makes the tables before the object first holds a session, all at once (compact-schema.sql);
   * an object whose tables came from the drizzle migrations is brought to their newest.
   */
  async ensureTables(): Promise<void> {
    const schema = this.#storage.kv.get<string>(SCHEMA_KEY);
    if (this.#hasTables && (schema === COMPACT_SCHEMA || schema === NEWEST_MIGRATION)) return;
    if (schema === undefined && !this.#tablesExist()) {
      this.#storage.sql.exec(compactSchema);
      this.#storage.kv.put(SCHEMA_KEY, COMPACT_SCHEMA);
    } else {
      await migrate(this.#db, migrations);
      this.#storage.kv.put(SCHEMA_KEY, NEWEST_MIGRATION);
    }
    this.#hasTables = true;
  }

  /** Whether the object has its tables (a session's, made by either schema; not the runtime's). */
  #tablesExist(): boolean {
    const { n } = this.#storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'session'")
      .one();
    return n > 0;
  }

  /** The session, or undefined when this object holds none (a tombstone counts as none). */
  session(): SessionRow | undefined {
    if (!this.#hasTables) return undefined;
    const row = this.#reads.session.get();
    if (!row || row.deleted) return undefined;
    const { deleted: _deleted, ...live } = row;
    return live;
  }

  /** The session's change counter (its tombstone's too); 0 before it has one. */
  version(): number {
    if (!this.#hasTables) return 0;
    return this.#reads.session.get()?.version ?? 0;
  }

  /** Whether this object held a session that was deleted. */
  deleted(): boolean {
    if (!this.#hasTables) return false;
    return this.#reads.session.get()?.deleted === true;
  }

  given(): { keys: SessionKeyRow[]; authorities: SessionAuthorityRow[] } {
    return {
      keys: this.#reads.keys.all(),
      authorities: this.#reads.authorities.all().map(withoutVersion),
    };
  }

  connection(id: string): HeldConnection | undefined {
    return this.#reads.connection.get({ id });
  }

  /** Connections newest first, with the keys each kept. */
  connections(): { connections: ConnectionRow[]; keys: ConnectionKeyRow[] } {
    return {
      connections: this.#reads.connections.all().map(indexRowOf),
      keys: this.#reads.connectionKeys.all().map(withoutVersion),
    };
  }

  /** Connections still in progress whose place has not lapsed at `now`. */
  inProgress(now: number): HeldConnection[] {
    return this.#reads.inProgress.all({ now });
  }

  /** Every connection still in progress, lapsed or not. */
  unfinished(): HeldConnection[] {
    return this.#reads.unfinished.all();
  }

  /** In-progress connections whose bridge never reported back in time. */
  lapsed(now: number): HeldConnection[] {
    return this.#reads.lapsed.all({ now });
  }

  /** SHA-256 fingerprints of every key this session has recorded. */
  recordedFingerprints(): Set<string> {
    const rows = this.#db
      .select({ sha256: connectionKeys.publicKeySha256 })
      .from(connectionKeys)
      .all();
    return new Set(rows.map((row) => row.sha256));
  }

  /** The highest counter this session recorded for each of these security keys. */
  lastCounters(fingerprints: string[]): Map<string, number> {
    if (fingerprints.length === 0) return new Map();
    const rows = this.#db
      .select({
        sha256: connectionKeys.publicKeySha256,
        counter: sql<number | null>`max(json_extract(${connectionKeys.securityKey}, '$.counter'))`,
      })
      .from(connectionKeys)
      .where(inArray(connectionKeys.publicKeySha256, fingerprints))
      .groupBy(connectionKeys.publicKeySha256)
      .all();
    return new Map(
      rows.flatMap(({ sha256, counter }) => (counter === null ? [] : [[sha256, counter]])),
    );
  }

  /** The outcome of the newest connection, for the proof page. */
  lastOutcome(): ConnectionRow["outcome"] | undefined {
    return this.#reads.lastOutcome.get()?.outcome;
  }

  /**
   * One change of the session, all or nothing: `change` writes through the writer it is given,
   * every row stamped with the session's next version; its events go to the outbox.
   */
  transition<T>(change: (write: SessionWriter) => T): T {
    return this.#storage.transactionSync(() => {
      const current = this.#reads.session.get();
      const writer = new SessionWriter(this.#db, (current?.version ?? 0) + 1);
      const result = change(writer);
      writer.writeEvents();
      // Every transition that wrote moves the version, so no two changes share one; one that
      // only looked (a refused connection) leaves it, and the index has nothing to catch up.
      // The session's row carries it; one the transition rewrote carries it already.
      if (writer.wrote && !writer.stamped)
        this.#db.update(session).set({ version: writer.version }).run();
      return result;
    });
  }

  /** The connection's bridge says it lives: its place is held until `until` (object-only). */
  renewLease(id: string, until: number): boolean {
    const renewed = this.#db
      .update(connections)
      .set({ leaseUntil: until })
      .where(
        and(
          eq(connections.id, id),
          eq(connections.outcome, "in_progress"),
          gt(connections.leaseUntil, Date.now()),
        ),
      )
      .returning({ id: connections.id })
      .all();
    return renewed.length > 0;
  }

  /** The earliest end of a place still held: when the alarm closes it if its bridge went quiet. */
  nextLeaseEnd(): number | null {
    const row = this.#db
      .select({ until: sql<number | null>`min(${connections.leaseUntil})` })
      .from(connections)
      .where(eq(connections.outcome, "in_progress"))
      .get();
    return row?.until ?? null;
  }

  /** The bridge is asking the user to confirm: for the proof page only, no change to the index. */
  markConfirming(id: string, keys: HeldConnection["confirming"]) {
    this.#db.update(connections).set({ confirming: keys }).where(eq(connections.id, id)).run();
  }

  /** Rows changed after `since`, and the version they bring the index to. */
  changesSince(since: number): PendingChanges {
    const db = this.#db;
    const stored = db.select().from(session).get();
    return {
      version: stored?.version ?? since,
      session: stored && stored.version > since ? stored : undefined,
      keys: db.select().from(sessionKeys).where(gt(sessionKeys.version, since)).all(),
      authorities: db
        .select()
        .from(sessionAuthorities)
        .where(gt(sessionAuthorities.version, since))
        .all()
        .map(withoutVersion),
      connections: db
        .select()
        .from(connections)
        .where(gt(connections.version, since))
        .all()
        .map(indexRowOf),
      connectionKeys: db
        .select()
        .from(connectionKeys)
        .where(gt(connectionKeys.version, since))
        .all()
        .map(withoutVersion),
      events: db
        .select()
        .from(outbox)
        .where(gt(outbox.version, since))
        .orderBy(asc(outbox.version), asc(outbox.id))
        .all()
        .flatMap(eventsOf),
    };
  }

  /** The index has everything up to `version`: its events leave the outbox. */
  acknowledge(version: number) {
    this.#db.delete(outbox).where(lte(outbox.version, version)).run();
  }
}
