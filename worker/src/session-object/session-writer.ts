import { inArray } from "drizzle-orm";
import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type {
  ConnectionKeyRow,
  ConnectionRow,
  SessionAuthorityRow,
  SessionKeyRow,
  SessionRow,
} from "../db/sessions.ts";
import type { PlannedEvent } from "../domain/events.ts";
import {
  REDACTED_CONFIGURED_KEY,
  REDACTED_CONNECTION,
  REDACTED_KEY,
  REDACTED_SESSION,
} from "../domain/redaction.ts";
import { newId } from "../lib/ids.ts";
import {
  type ConnectionRules,
  connectionKeys,
  connections,
  type OutboxEvent,
  outbox,
  type StoredConnection,
  session,
  sessionAuthorities,
  sessionKeys,
} from "./tables.ts";

/**
 * The writes one transition may make (session-store.ts runs each transition in one local
 * transaction and hands it this), each row stamped with the transition's version.
 */
export class SessionWriter {
  readonly #db: DrizzleSqliteDODatabase;
  readonly version: number;
  /** Whether this transition wrote anything (else it leaves the version as it was). */
  #wrote = false;
  /** Whether the session's row was written with this version already. */
  #stamped = false;
  /** The change's events so far, written together by `writeEvents`. */
  readonly #events: OutboxEvent[] = [];

  get wrote() {
    return this.#wrote;
  }

  get stamped() {
    return this.#stamped;
  }

  constructor(db: DrizzleSqliteDODatabase, version: number) {
    this.#db = db;
    this.version = version;
  }

  /** A new session with what it was given. */
  create(row: SessionRow, keys: SessionKeyRow[], authorities: SessionAuthorityRow[]) {
    this.#wrote = true;
    this.#stamped = true;
    const version = this.version;
    this.#db.delete(session).run();
    this.#db
      .insert(session)
      .values({ ...row, version, deleted: false })
      .run();
    for (const key of keys)
      this.#db
        .insert(sessionKeys)
        .values({ ...key, version })
        .run();
    for (const authority of authorities)
      this.#db
        .insert(sessionAuthorities)
        .values({ ...authority, version })
        .run();
  }

  /** Changes the session; the version moves with every transition. */
  session(changes: Partial<SessionRow>): SessionRow {
    this.#wrote = true;
    this.#stamped = true;
    const row = this.#db
      .update(session)
      .set({ ...changes, version: this.version })
      .returning()
      .get();
    const { deleted: _deleted, ...live } = row;
    return live;
  }

  /**
   * The session's personal data is erased, its outline kept (domain/redaction.ts); the outbox is
   * empty by then (redaction waits for D1 to have every event, and rewrites them there).
   */
  redact(at: string): SessionRow {
    const version = this.version;
    this.#db
      .update(sessionKeys)
      .set({ ...REDACTED_CONFIGURED_KEY, version })
      .run();
    this.#db
      .update(connections)
      .set({ ...REDACTED_CONNECTION, confirming: null, version })
      .run();
    this.#db
      .update(connectionKeys)
      .set({ ...REDACTED_KEY, version })
      .run();
    return this.session({ ...REDACTED_SESSION, redactedAt: at, updatedAt: at });
  }

  /** The session is gone: a tombstone until the index has heard, and nothing else. */
  delete() {
    this.#wrote = true;
    this.#stamped = true;
    for (const table of [sessionKeys, sessionAuthorities, connections, connectionKeys])
      this.#db.delete(table).run();
    this.#db.update(session).set({ deleted: true, version: this.version }).run();
  }

  addConnection(row: ConnectionRow, held: { leaseUntil: number | null; rules: ConnectionRules }) {
    this.#wrote = true;
    this.#db
      .insert(connections)
      .values({ ...row, ...held, confirming: null, version: this.version })
      .run();
  }

  changeConnections(ids: string[], changes: Partial<StoredConnection>) {
    if (ids.length === 0) return;
    this.#wrote = true;
    this.#db
      .update(connections)
      .set({ ...changes, version: this.version })
      .where(inArray(connections.id, ids))
      .run();
  }

  addConnectionKeys(rows: ConnectionKeyRow[]) {
    if (rows.length > 0) this.#wrote = true;
    for (const row of rows)
      this.#db
        .insert(connectionKeys)
        .values({ ...row, version: this.version })
        .run();
  }

  verifyKeys(ids: string[], at: string) {
    if (ids.length === 0) return;
    this.#wrote = true;
    this.#db
      .update(sessionKeys)
      .set({ verifiedAt: at, version: this.version })
      .where(inArray(sessionKeys.id, ids))
      .run();
  }

  /** Events of this change, in order: into the outbox with the change (`writeEvents`). */
  events(planned: PlannedEvent[], at: Date) {
    if (planned.length > 0) this.#wrote = true;
    for (const event of planned)
      this.#events.push({
        id: newId("evt", at.getTime()),
        type: event.type,
        payload: event.payload,
        createdAt: at.toISOString(),
      });
  }

  /** The change's events as one outbox row, as the change ends (session-store.ts). */
  writeEvents() {
    const [first] = this.#events;
    if (!first) return;
    this.#db
      .insert(outbox)
      .values({
        id: first.id,
        type: first.type,
        payload: this.#events,
        createdAt: first.createdAt,
        version: this.version,
      })
      .run();
  }
}
