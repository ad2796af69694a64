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
import { BASE32, newIdSeries } from "../lib/ids.ts";
import type { ConnectionRules, OutboxEvent, StoredConnection } from "./session-record.ts";
import {
  CONNECTION_ENTRY,
  type ConnectionEntry,
  type Pushed,
  SESSION_ENTRY,
  type SessionEntry,
} from "./session-record.ts";
import type { WriteBuffer } from "./write-buffer.ts";

/** What a transition reads and writes through: the object's entries, its writes held back. */
export interface HeldEntries {
  buffer: WriteBuffer;
  /** What D1 has acknowledged: events up to it leave the entries a change writes. */
  pushed(): Pushed;
  /** The version every push made so far carried: events of later versions were never sent. */
  sentThrough(): number;
}

/**
 * The writes one transition may make (session-store.ts runs each transition in one local
 * transaction and hands it this), each row stamped with the transition's version. Writes land in
 * the session's entry and its connections' (session-record.ts), each written once as the
 * transition ends (`finish`), whatever it changed in it.
 */
export class SessionWriter {
  readonly #held: HeldEntries;
  readonly version: number;
  /** The entries this transition changed, by key. */
  readonly #changed = new Map<string, SessionEntry | ConnectionEntry>();
  /** The change's events so far, kept with the change by `finish`. */
  readonly #events: OutboxEvent[] = [];

  /** Whether this transition wrote anything (else it leaves the version as it was). */
  get wrote() {
    return this.#changed.size > 0 || this.#events.length > 0;
  }

  constructor(held: HeldEntries, version: number) {
    this.#held = held;
    this.version = version;
  }

  /** The session's entry, to change (the transition's own copy). */
  #sessionEntry(): SessionEntry {
    const entry = this.#held.buffer.edit<SessionEntry>(SESSION_ENTRY);
    if (!entry) throw new Error("the object holds no session to change");
    return entry;
  }

  /** A connection's entry, to change. */
  #connectionEntry(id: string): ConnectionEntry {
    const entry = this.#held.buffer.edit<ConnectionEntry>(CONNECTION_ENTRY + id);
    if (!entry) throw new Error(`the session has no connection ${id}`);
    return entry;
  }

  /** Every connection's entry, to change. */
  #connectionEntries(): ConnectionEntry[] {
    return this.#held.buffer
      .list<ConnectionEntry>(CONNECTION_ENTRY)
      .map(([key]) => this.#connectionEntry(key.slice(CONNECTION_ENTRY.length)));
  }

  /** Keeps a changed entry: readers in the transition see it at once (the buffer). */
  #keep(key: string, entry: SessionEntry | ConnectionEntry) {
    this.#changed.set(key, entry);
    this.#held.buffer.put(key, entry);
  }

  /** A new session with what it was given, on its project's shard. */
  create(
    row: SessionRow,
    shard: string,
    keys: SessionKeyRow[],
    authorities: SessionAuthorityRow[],
  ) {
    const version = this.version;
    const before = this.#held.buffer.get<SessionEntry>(SESSION_ENTRY);
    this.#keep(SESSION_ENTRY, {
      version,
      session: { ...row, version, deleted: false },
      shard,
      keys: keys.map((key) => ({ ...key, version })),
      authorities: authorities.map((authority) => ({ ...authority, version })),
      outbox: [...(before?.outbox ?? [])],
      pushed: this.#held.pushed(),
      webhooks: before?.webhooks ?? null,
      newWebhooks: before?.newWebhooks ?? [],
    });
  }

  /** The session's own webhooks, with the session that has them (api-changes.ts). */
  keepWebhooks(rows: SessionEntry["webhooks"], pushFirst: boolean) {
    const entry = this.#sessionEntry();
    entry.webhooks = rows;
    if (pushFirst && rows) entry.newWebhooks = rows;
    this.#keep(SESSION_ENTRY, entry);
  }

  /** Changes the session; the version moves with every transition. */
  session(changes: Partial<SessionRow>): SessionRow {
    const entry = this.#sessionEntry();
    entry.session = { ...entry.session, ...changes, version: this.version };
    this.#keep(SESSION_ENTRY, entry);
    const { deleted: _deleted, ...live } = entry.session;
    return live;
  }

  /**
   * The session's personal data is erased, its outline kept (domain/redaction.ts); the outbox is
   * empty by then (redaction waits for D1 to have every event, and rewrites them there).
   */
  redact(at: string): SessionRow {
    const version = this.version;
    const entry = this.#sessionEntry();
    entry.keys = entry.keys.map((key) => ({ ...key, ...REDACTED_CONFIGURED_KEY, version }));
    this.#keep(SESSION_ENTRY, entry);
    for (const held of this.#connectionEntries()) {
      held.connection = { ...held.connection, ...REDACTED_CONNECTION, confirming: null, version };
      held.keys = held.keys.map((key) => ({ ...key, ...REDACTED_KEY, version }));
      this.#keep(CONNECTION_ENTRY + held.connection.id, held);
    }
    return this.session({ ...REDACTED_SESSION, redactedAt: at, updatedAt: at });
  }

  /** The session is gone: a tombstone until the index has heard, and nothing else. */
  delete() {
    const entry = this.#sessionEntry();
    for (const held of this.#connectionEntries()) {
      this.#changed.delete(CONNECTION_ENTRY + held.connection.id);
      this.#held.buffer.delete(CONNECTION_ENTRY + held.connection.id);
    }
    entry.keys = [];
    entry.authorities = [];
    entry.session = { ...entry.session, deleted: true, version: this.version };
    this.#keep(SESSION_ENTRY, entry);
  }

  addConnection(row: ConnectionRow, held: { leaseUntil: number | null; rules: ConnectionRules }) {
    this.#keep(CONNECTION_ENTRY + row.id, {
      version: this.version,
      outbox: [],
      connection: { ...row, ...held, confirming: null, version: this.version },
      keys: [],
    });
  }

  changeConnections(ids: string[], changes: Partial<StoredConnection>) {
    for (const id of ids) {
      const entry = this.#connectionEntry(id);
      entry.connection = { ...entry.connection, ...changes, version: this.version };
      this.#keep(CONNECTION_ENTRY + id, entry);
    }
  }

  addConnectionKeys(rows: ConnectionKeyRow[]) {
    for (const row of rows) {
      const entry = this.#connectionEntry(row.connectionId);
      entry.keys.push({ ...row, version: this.version });
      this.#keep(CONNECTION_ENTRY + row.connectionId, entry);
    }
  }

  verifyKeys(ids: string[], at: string) {
    if (ids.length === 0) return;
    const entry = this.#sessionEntry();
    const verified = new Set(ids);
    entry.keys = entry.keys.map((key) =>
      verified.has(key.id) ? { ...key, verifiedAt: at, version: this.version } : key,
    );
    this.#keep(SESSION_ENTRY, entry);
  }

  /** Events of this change, in order: kept with the change (`finish`). */
  events(planned: PlannedEvent[], at: Date) {
    for (const event of planned)
      this.#events.push({
        ...this.#nextEventId(at),
        type: event.type,
        payload: event.payload,
        createdAt: at.toISOString(),
      });
  }

  /**
   * The next event's id and its row: the next of the series of the last event no push has carried
   * yet (a proof's open and finish, pushed together, are one row in D1), else a new series. A
   * series once sent is never added to, so a row D1 has is never written again with more.
   */
  #nextEventId(at: Date): { id: string; row: string } {
    const last = this.#events.at(-1) ?? this.#unsentEvents().at(-1);
    const next = last?.row === undefined ? BASE32.length : BASE32.indexOf(last.id.slice(-1)) + 1;
    if (last?.row !== undefined && next < BASE32.length)
      return { id: last.id.slice(0, -1) + BASE32[next], row: last.row };
    const first = newIdSeries("evt", at.getTime()) + BASE32[0];
    return { id: first, row: first };
  }

  /** The session's events of versions no push has carried. */
  #unsentEvents(): OutboxEvent[] {
    const sent = this.#held.sentThrough();
    return (this.#held.buffer.get<SessionEntry>(SESSION_ENTRY)?.outbox ?? [])
      .filter((change) => change.version > sent)
      .flatMap((change) => change.events);
  }

  /**
   * As the transition ends: its events go into an entry it wrote anyway (the session's if it
   * wrote that, else a connection's; the session's if it wrote none), each changed entry is
   * stamped with the version and loses the events D1 has acknowledged.
   */
  finish() {
    if (!this.wrote) return;
    if (this.#events.length > 0) {
      // The session's row lists its events' ids (db/sessions.ts), so it changes with them.
      const listed = this.#sessionEntry().session.eventIds ?? [];
      this.session({ eventIds: [...listed, ...this.#events.map((event) => event.id)] });
      const entry = this.#sessionEntry();
      entry.outbox.push({ version: this.version, events: this.#events });
      this.#keep(SESSION_ENTRY, entry);
    }
    const pushed = this.#held.pushed();
    for (const [key, entry] of this.#changed) {
      entry.version = this.version;
      entry.outbox = entry.outbox.filter((change) => change.version > pushed.version);
      if (key === SESSION_ENTRY) (entry as SessionEntry).pushed = pushed;
      this.#held.buffer.put(key, entry);
    }
  }
}
