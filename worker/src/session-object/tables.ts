import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import {
  connectionColumns,
  connectionKeyColumns,
  sessionAuthorityColumns,
  sessionColumns,
  sessionKeyColumns,
} from "../db/sessions.ts";
import type { EventType } from "../db/webhooks.ts";
import type { ProvenKeyView } from "../protocol/key-outcomes.ts";

/**
 * The tables a session's Durable Object kept its session in until 2026-11-26: the same rows as
 * D1's index, declared once in db/sessions.ts, plus what only the object keeps. Objects now keep
 * key-value entries (session-record.ts) made of these rows' types; legacy-tables.ts reads these
 * tables once to move an older object's session to entries. The format is frozen: should D1's
 * columns change, schema-drift.test.ts fails here, and these tables get their own columns.
 */

/** The session itself: one row, and a tombstone once deleted until D1 has heard of it. */
export const session = sqliteTable("session", {
  ...sessionColumns(),
  deleted: integer({ mode: "boolean" }).notNull().default(false),
});

export const sessionKeys = sqliteTable("session_keys", sessionKeyColumns());

/** Rows that never change once written carry the version that wrote them, for the push. */
const written = () => ({ version: integer().notNull() });

export const sessionAuthorities = sqliteTable("session_authorities", {
  ...sessionAuthorityColumns(),
  ...written(),
});

/** The rules a connection keeps from open to finish, whatever PATCH does meanwhile. */
export interface ConnectionRules {
  mustConfirm: boolean;
  requireSecurityKey: boolean;
  requireUserVerification: boolean;
}

export const connections = sqliteTable("connections", {
  ...connectionColumns(),
  /**
   * While the connection is in progress: when its place in the session lapses (ms), if its
   * bridge never reports back (the auth deadline, the confirmation prompt and a margin).
   */
  leaseUntil: integer("lease_until"),
  rules: text({ mode: "json" }).$type<ConnectionRules>().notNull(),
  /** The keys the user is being asked to confirm, for the proof page. */
  confirming: text({ mode: "json" }).$type<ProvenKeyView[]>(),
});

export const connectionKeys = sqliteTable("connection_keys", {
  ...connectionKeyColumns(),
  ...written(),
});

/** One event as the outbox keeps it. */
export interface OutboxEvent {
  id: string;
  type: EventType;
  payload: Record<string, unknown>;
  createdAt: string;
}

/**
 * The outbox: each change's events, written in the same transaction as the change, kept until
 * D1 has them (and has fanned them out to webhook deliveries). One row a change, named by its
 * first event: a row is billed written and again deleted, so a change's events share one.
 */
export const outbox = sqliteTable("outbox", {
  id: text().primaryKey(),
  type: text().$type<EventType>().notNull(),
  /** The change's events, in order; a row written before 2026-11-25 is one event's payload. */
  payload: text({ mode: "json" }).$type<OutboxEvent[] | Record<string, unknown>>().notNull(),
  createdAt: text("created_at").notNull(),
  version: integer().notNull(),
});

export type StoredConnection = typeof connections.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;
