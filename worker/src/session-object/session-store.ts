import type {
  ConnectionKeyRow,
  ConnectionRow,
  IndexedConnectionRow,
  SessionAuthorityRow,
  SessionKeyRow,
  SessionRow,
} from "../db/sessions.ts";
import type { WebhookRow } from "../db/webhooks.ts";
import type { OutboxEvent, StoredConnection } from "./session-record.ts";
import {
  CONNECTION_ENTRY,
  type ConnectionEntry,
  type Pushed,
  SESSION_ENTRY,
  type SessionEntry,
} from "./session-record.ts";
import { SessionWriter } from "./session-writer.ts";
import { WriteBuffer } from "./write-buffer.ts";

/** A connection as the object keeps it: the index's row, and what only the object needs. */
export type HeldConnection = StoredConnection;

/** Everything the index does not have yet: rows changed since its last acknowledged version. */
export interface PendingChanges {
  version: number;
  session: (SessionRow & { deleted: boolean }) | undefined;
  keys: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
  /** Each connection changed, or with a key added, since: with all its keys. */
  connections: IndexedConnectionRow[];
  /** Security keys added since: the project's counters read them (db/sessions.ts). */
  connectionKeys: ConnectionKeyRow[];
  events: OutboxEvent[];
}

/** The index's row of a connection: the object's, without what only the object keeps. */
export function indexRowOf(connection: HeldConnection): ConnectionRow {
  const { leaseUntil: _lease, rules: _rules, confirming: _confirming, ...row } = connection;
  return row;
}

const withoutVersion = <T extends { version: number }>({ version: _version, ...row }: T) => row;
const byPosition = (a: { position: number }, b: { position: number }) => a.position - b.position;
const NOTHING_PUSHED: Pushed = { version: 0, bookmark: null };
/**
 * Connections kept inside the session's record, together at most this many bytes: a proof's
 * connection is written with the session it changes (one row written, not two, and one deleted
 * when the object retires). More, or larger, each have a record of their own (session-record.ts).
 */
const MAX_INLINED_CONNECTION_BYTES = 64 * 1024;

/**
 * A session in its Durable Object's key-value storage (session-record.ts), and the one way to
 * change it: `transition`, a local transaction that stamps what it writes with the session's
 * next version, so the push to D1 knows what is new (index-push.ts). An object that never held a
 * session writes nothing: a lookup of an unknown name (an `ssh` typo, a proof page guessed at)
 * leaves no trace.
 */
export class SessionStore {
  readonly #storage: DurableObjectStorage;
  readonly #buffer: WriteBuffer;
  /** What D1 acknowledged since the session's entry was last written (memory only). */
  #pushed: Pushed | null = null;
  /**
   * The version the last push made carried (memory only): events after it may join the series of
   * the last one (session-writer.ts). Unknown after a restart, when all held so far count as sent.
   */
  #sentThrough: number | null = null;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#buffer = WriteBuffer.of(storage);
    this.#buffer.inline(CONNECTION_ENTRY, SESSION_ENTRY, MAX_INLINED_CONNECTION_BYTES);
  }

  /** The object deleted all its storage (it retired): it holds nothing, and knows nothing. */
  forget() {
    this.#pushed = null;
    this.#sentThrough = null;
    this.#buffer.forget();
  }

  #entry(): SessionEntry | undefined {
    return this.#buffer.get<SessionEntry>(SESSION_ENTRY);
  }

  #connectionEntries(): ConnectionEntry[] {
    return this.#buffer.list<ConnectionEntry>(CONNECTION_ENTRY).map(([, entry]) => entry);
  }

  #connections(): HeldConnection[] {
    return this.#connectionEntries().map((entry) => entry.connection);
  }

  /**
   * The session came from the index at `version`: the object's version continues from there, so
   * the index takes its next change (a row only replaces an older version).
   */
  adoptVersion(version: number) {
    this.#buffer.update<SessionEntry>(SESSION_ENTRY, (entry) => {
      entry.version = version;
      entry.session.version = version;
    });
  }

  /** The session, or undefined when this object holds none (a tombstone counts as none). */
  session(): SessionRow | undefined {
    const stored = this.#entry()?.session;
    if (!stored || stored.deleted) return undefined;
    const { deleted: _deleted, ...live } = stored;
    return live;
  }

  /** The session's change counter (its tombstone's too): the newest of its entries'; 0 before. */
  version(): number {
    const entry = this.#entry();
    if (!entry) return 0;
    return Math.max(entry.version, ...this.#connectionEntries().map((held) => held.version));
  }

  /** The index shard the session's project is on: where its pushes go (db/databases.ts). */
  shard(): string | undefined {
    return this.#entry()?.shard;
  }

  /** Whether this object held a session that was deleted. */
  deleted(): boolean {
    return this.#entry()?.session.deleted === true;
  }

  given(): { keys: SessionKeyRow[]; authorities: SessionAuthorityRow[] } {
    const entry = this.#entry();
    return {
      keys: [...(entry?.keys ?? [])].sort(byPosition),
      authorities: [...(entry?.authorities ?? [])].sort(byPosition).map(withoutVersion),
    };
  }

  connection(id: string): HeldConnection | undefined {
    return this.#buffer.get<ConnectionEntry>(CONNECTION_ENTRY + id)?.connection;
  }

  /** Connections newest first, with the keys each kept. */
  connections(): { connections: ConnectionRow[]; keys: ConnectionKeyRow[] } {
    const entries = this.#connectionEntries();
    return {
      connections: entries.map((entry) => indexRowOf(entry.connection)).reverse(),
      keys: entries
        .flatMap((entry) => entry.keys)
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(withoutVersion),
    };
  }

  /** Connections still in progress whose place has not lapsed at `now`. */
  inProgress(now: number): HeldConnection[] {
    return this.unfinished().filter((held) => (held.leaseUntil ?? 0) > now);
  }

  /** Every connection still in progress, lapsed or not. */
  unfinished(): HeldConnection[] {
    return this.#connections().filter((held) => held.outcome === "in_progress");
  }

  /** In-progress connections whose bridge never reported back in time. */
  lapsed(now: number): HeldConnection[] {
    return this.unfinished().filter((held) => held.leaseUntil !== null && held.leaseUntil <= now);
  }

  /** SHA-256 fingerprints of every key this session has recorded. */
  recordedFingerprints(): Set<string> {
    return new Set(
      this.#connectionEntries().flatMap((entry) => entry.keys.map((key) => key.publicKeySha256)),
    );
  }

  /** The highest counter this session recorded for each of these security keys. */
  lastCounters(fingerprints: string[]): Map<string, number> {
    const wanted = new Set(fingerprints);
    const counters = new Map<string, number>();
    if (wanted.size === 0) return counters;
    for (const entry of this.#connectionEntries())
      for (const key of entry.keys) {
        const counter = key.securityKey?.counter;
        if (!wanted.has(key.publicKeySha256) || typeof counter !== "number") continue;
        counters.set(
          key.publicKeySha256,
          Math.max(counter, counters.get(key.publicKeySha256) ?? 0),
        );
      }
    return counters;
  }

  /** The outcome of the newest connection, for the proof page. */
  lastOutcome(): ConnectionRow["outcome"] | undefined {
    return this.#connections().at(-1)?.outcome;
  }

  /**
   * One change of the session, all or nothing: `change` writes through the writer it is given,
   * stamped with the session's next version; each entry it changed is written once, with the
   * change's events (session-writer.ts). One that only looked (a refused connection) writes
   * nothing and leaves the version, so the index has nothing to catch up.
   */
  transition<T>(change: (write: SessionWriter) => T): T {
    return this.#storage.transactionSync(() =>
      this.#buffer.held(() => {
        this.#sentThrough ??= this.version();
        const sentThrough = this.#sentThrough;
        const writer = new SessionWriter(
          { buffer: this.#buffer, pushed: () => this.pushed(), sentThrough: () => sentThrough },
          this.version() + 1,
        );
        const result = change(writer);
        writer.finish();
        return result;
      }),
    );
  }

  /** The session's own webhooks as D1 has them, kept with the session (null before they were). */
  webhooks(): WebhookRow[] | null {
    return this.#entry()?.webhooks ?? null;
  }

  /** Keeps the session's own webhooks as D1 has them: after a change, or if none are kept. */
  keepWebhooks(rows: WebhookRow[], replace: boolean) {
    if (!replace && this.#entry()?.webhooks) return;
    this.#buffer.update<SessionEntry>(SESSION_ENTRY, (entry) => {
      entry.webhooks = rows;
    });
  }

  /** The session's own webhooks its first push writes to D1 (none once D1 has them). */
  newWebhooks(): WebhookRow[] {
    return this.#entry()?.newWebhooks ?? [];
  }

  /** The connection's bridge says it lives: its place is held until `until` (object-only). */
  renewLease(id: string, until: number): boolean {
    const held = this.connection(id);
    if (held?.outcome !== "in_progress" || (held.leaseUntil ?? 0) <= Date.now()) return false;
    return this.#buffer.update<ConnectionEntry>(CONNECTION_ENTRY + id, (entry) => {
      entry.connection.leaseUntil = until;
    });
  }

  /** The earliest end of a place still held: when the alarm closes it if its bridge went quiet. */
  nextLeaseEnd(): number | null {
    const ends = this.unfinished().flatMap((held) =>
      held.leaseUntil === null ? [] : [held.leaseUntil],
    );
    return ends.length === 0 ? null : Math.min(...ends);
  }

  /** The bridge is asking the user to confirm: for the proof page only, no change to the index. */
  markConfirming(id: string, keys: HeldConnection["confirming"]) {
    this.#buffer.update<ConnectionEntry>(CONNECTION_ENTRY + id, (entry) => {
      entry.connection.confirming = keys;
    });
  }

  /** What D1 has acknowledged: what this instance heard, else what the session's entry kept. */
  pushed(): Pushed {
    return this.#pushed ?? this.#entry()?.pushed ?? NOTHING_PUSHED;
  }

  /**
   * D1 has everything up to `version`, and `bookmark` reads it: held in memory, and written with
   * the session's next change (its acknowledged events leave then). A push that wrote a new
   * session's own webhooks is the exception, written away at once: a push made again must not
   * put back a webhook deleted since.
   */
  acknowledge(pushed: Pushed, wroteWebhooks = false) {
    this.#pushed = pushed;
    if (!wroteWebhooks || (this.#entry()?.newWebhooks.length ?? 0) === 0) return;
    this.#buffer.update<SessionEntry>(SESSION_ENTRY, (entry) => {
      entry.newWebhooks = [];
      entry.pushed = pushed;
      entry.outbox = entry.outbox.filter((change) => change.version > pushed.version);
    });
  }

  /** Events of the changes after `since`, oldest first. */
  eventsSince(since: number): OutboxEvent[] {
    return [this.#entry(), ...this.#connectionEntries()]
      .flatMap((held) => held?.outbox ?? [])
      .filter((change) => change.version > since)
      .sort((a, b) => a.version - b.version)
      .flatMap((change) => change.events);
  }

  /** Rows changed after `since`, and the version they bring the index to. */
  changesSince(since: number): PendingChanges {
    const entry = this.#entry();
    // A push is made of these: their events' series are closed (session-writer.ts).
    this.#sentThrough = this.version();
    const connections = this.#connectionEntries();
    const newer = <T extends { version: number }>(rows: T[]) =>
      rows.filter((row) => row.version > since);
    const events = this.eventsSince(since);
    return {
      version: entry ? this.version() : since,
      session: entry && entry.session.version > since ? entry.session : undefined,
      keys: newer(entry?.keys ?? []),
      authorities: newer(entry?.authorities ?? []).map(withoutVersion),
      connections: connections.flatMap((held) => {
        // A key added is a change to its connection's row: the row carries the connection's keys.
        const version = Math.max(held.connection.version, ...held.keys.map((key) => key.version));
        if (version <= since) return [];
        const keys = held.keys.map(
          ({ version: _v, sessionId: _s, connectionId: _c, ...key }) => key,
        );
        return [{ ...indexRowOf(held.connection), version, keys }];
      }),
      connectionKeys: newer(connections.flatMap((held) => held.keys))
        .filter((key) => key.securityKey !== null)
        .map(withoutVersion),
      events,
    };
  }
}
