import type {
  ConnectionKeyRow,
  ConnectionRow,
  SessionAuthorityRow,
  SessionKeyRow,
  SessionRow,
} from "../db/sessions.ts";
import type { EventType, WebhookRow } from "../db/webhooks.ts";
import type { ProvenKeyView } from "../protocol/key-outcomes.ts";

/**
 * How a session's object keeps its session: key-value entries, no tables. A table is
 * DDL for every new object and a row written per row and index entry; an entry is one row
 * written however much it holds. So the session is one entry with what it was given, and each
 * connection is one entry with the keys it recorded (a session may see many connections, each
 * up to 32 keys: one entry for all could outgrow what an entry holds) — kept inside the
 * session's record while they fit (write-buffer.ts `inline`), so a proof writes one record a
 * change. A change's events wait for D1 in the session's entry, which lists their ids anyway
 * (the outbox), so they cost no row of their own.
 */

/** Key of the session's entry. */
export const SESSION_ENTRY = "session";
/** Prefix of a connection's entry; the rest is the connection's id. */
export const CONNECTION_ENTRY = "connection:";

/** One event as the outbox keeps it. */
export interface OutboxEvent {
  id: string;
  /**
   * The key of its row in D1: the first id of its series, which the events of one push share
   * (db/webhooks.ts). Absent on an event kept before series: it is a row of its own.
   */
  row?: string;
  type: EventType;
  payload: Record<string, unknown>;
  createdAt: string;
}

/** The rules a connection keeps from open to finish, whatever PATCH does meanwhile. */
export interface ConnectionRules {
  mustConfirm: boolean;
  requireSecurityKey: boolean;
  requireUserVerification: boolean;
}

/** A connection as its session's object keeps it: D1's row, and what only the object needs. */
export type StoredConnection = ConnectionRow & {
  /**
   * While the connection is in progress: when its place in the session lapses (ms), if its
   * bridge never reports back (the auth deadline, the confirmation prompt and a margin).
   */
  leaseUntil: number | null;
  rules: ConnectionRules;
  /** The keys the user is being asked to confirm, for the proof page. */
  confirming: ProvenKeyView[] | null;
};

/** A change's events, waiting for D1: the version the change wrote, and the events in order. */
export interface Outbox {
  version: number;
  events: OutboxEvent[];
}

/** What D1 has acknowledged: its version, and D1's bookmark after the push that brought it. */
export interface Pushed {
  version: number;
  bookmark: string | null;
}

export type StoredSession = SessionRow & { deleted: boolean };
export type StoredAuthority = SessionAuthorityRow & { version: number };
export type StoredConnectionKey = ConnectionKeyRow & { version: number };

/** Every entry carries the object's version when it was written, and its events not yet in D1. */
interface Entry {
  version: number;
  outbox: Outbox[];
}

export interface SessionEntry extends Entry {
  /** The session itself; a tombstone (`deleted`) once deleted, until D1 has heard of it. */
  session: StoredSession;
  /** The index shard of its project (db/databases.ts): where its pushes go. */
  shard: string;
  keys: SessionKeyRow[];
  authorities: StoredAuthority[];
  /**
   * What D1 had acknowledged when the entry was last written. The object knows more in memory
   * (an acknowledgement writes nothing); one that lost it pushes again, which D1 takes as a no-op.
   */
  pushed: Pushed;
  /** The session's own webhooks as D1 has them (SessionState); null before they were read. */
  webhooks: WebhookRow[] | null;
  /** The session's own webhooks until its first push has written them to D1. */
  newWebhooks: WebhookRow[];
  /** Bridge calls' nonces, until their timestamps expire (ms): seen-nonces.ts. */
  nonces?: Record<string, number>;
}

export interface ConnectionEntry extends Entry {
  connection: StoredConnection;
  keys: StoredConnectionKey[];
}
