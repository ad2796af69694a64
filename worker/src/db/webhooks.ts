import {
  type AnyColumn,
  and,
  desc,
  eq,
  getViewSelectedFields,
  inArray,
  type SQL,
  sql,
} from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  sqliteView,
  text,
} from "drizzle-orm/sqlite-core";
import { sessions } from "./sessions.ts";

export const EVENT_TYPES = [
  "new_connection",
  "key_collected",
  "verified",
  "failed_attempt",
  "status_changed",
  "connection_interrupted",
  "redacted",
  "ping",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const EVENT_ENTITIES = ["collect_session", "verify_session", "webhook"] as const;

/** One event as its row keeps it (`event_rows.events`): short names, as there is one a push. */
export interface StoredEvent {
  /** The last character of its id: the row's key gives the other 29. */
  s: string;
  t: EventType;
  /** The payload, as webhooks deliver it and the event log shows it (keys by reference). */
  p: Record<string, unknown>;
  at: string;
}

/** Characters an event id shares with the other events of its row (and the row's key). */
export const EVENT_SERIES_LENGTH = 29;

/**
 * The outbox: written in the same D1 batch as the change that caused it. Events outlive their
 * session (no foreign key), so a deleted session's history can still be reconciled. A push's
 * events are one row: a row written, not one an event. Their ids are one series
 * (`newIdSeries`): the first 29 characters shared, the last counting from `0`, and the row's key
 * is its first event's id, so the row of any event id is the one keyed between its first 29
 * characters and itself (`eventAt`): one seek. A row made before the series (an event alone) is
 * keyed by its own id and found the same way. Keyed by project first (WITHOUT ROWID): the key is
 * the project's event log, and the only index besides the pings'. A session's events are found
 * by the ids its own row lists (`sessions.event_ids`, eventsOfSessions below).
 */
export const eventRows = sqliteTable(
  "event_rows",
  {
    /** Its first event's id. */
    id: text().notNull(),
    projectId: text("project_id").notNull(),
    sessionId: text("session_id"),
    entity: text({ enum: EVENT_ENTITIES }).notNull(),
    /** Its session's mode, or its webhook's for a ping. */
    livemode: integer({ mode: "boolean" }).notNull().default(true),
    /** Its events, in the order of their ids. */
    events: text({ mode: "json" }).$type<StoredEvent[]>().notNull(),
    /**
     * The first fields every payload of the row starts with, alike (its session's id, external
     * id and identifier), kept once: each event's `p` has the rest. Null for one event alone.
     * It keeps a proof's row under the ~1 KB a `WITHOUT ROWID` row holds in its page.
     */
    common: text({ mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // Pings, which no session holds, by age: housekeeping removes old ones (domain/housekeeping.ts).
    index("event_rows_ping_idx").on(t.id).where(sql`${t.sessionId} IS NULL`),
    // No index by type: a filter by type reads the project's events newest first (an index
    // entry for every event, for a filter integrators rarely use, cost 7 % of the index).
  ],
);

/**
 * The events one by one, as every read sees them: a view of `event_rows` (migration
 * index/0004). Seek it by `row_id` (eventAt, eventsOfSessions), never by `id`, which it computes;
 * its order is `row_id`, then `position` (`EVENT_ORDER`), which is the order of the ids.
 */
export const events = sqliteView("events", {
  id: text().notNull(),
  rowId: text("row_id").notNull(),
  position: integer().notNull(),
  projectId: text("project_id").notNull(),
  sessionId: text("session_id"),
  entity: text({ enum: EVENT_ENTITIES }).notNull(),
  type: text({ enum: EVENT_TYPES }).notNull(),
  livemode: integer({ mode: "boolean" }).notNull(),
  payload: text({ mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: text("created_at").notNull(),
}).existing();

/** The view's columns, for a select that names its tables (`{ event: eventColumns, … }`). */
export const eventColumns = getViewSelectedFields(events);

/** The events' order by id, newest first, as the view's key gives it. */
export const EVENT_ORDER = [desc(events.rowId), desc(events.position)];

/** The key range of the row that holds the event `eventId` (a value or a column). */
const rowOfEvent = (rowId: SQL | AnyColumn, eventId: SQL | AnyColumn | string) =>
  sql`${rowId} BETWEEN substr(${eventId}, 1, ${sql.raw(String(EVENT_SERIES_LENGTH))}) AND ${eventId}`;

/** One event of a project by its id: a seek of its row. */
export const eventAt = (projectId: string | AnyColumn, eventId: string | AnyColumn) =>
  and(
    eq(events.projectId, projectId),
    rowOfEvent(events.rowId, eventId),
    eq(events.id, eventId),
  ) as SQL;

/** Events as their rows are written: a push's events of one session, grouped by series. */
export function eventRowsOf<
  E extends { id: string; type: EventType; payload: Record<string, unknown>; createdAt: string },
>(
  owner: Omit<typeof eventRows.$inferInsert, "id" | "events">,
  pushed: (E & { row: string })[],
): (typeof eventRows.$inferInsert)[] {
  const series = new Map<string, typeof pushed>();
  for (const event of pushed) series.set(event.row, [...(series.get(event.row) ?? []), event]);
  return [...series].map(([id, inRow]) => {
    const common = sharedLead(inRow.map((event) => event.payload));
    const shared = Object.keys(common ?? {}).length;
    return {
      ...owner,
      id,
      common,
      events: inRow.map((event) => ({
        s: event.id.slice(EVENT_SERIES_LENGTH),
        t: event.type,
        p: Object.fromEntries(Object.entries(event.payload).slice(shared)),
        at: event.createdAt,
      })),
    };
  });
}

/**
 * The leading fields that every payload has first, in the same order and alike, and that are
 * no object or list: null unless there are two payloads and they share one.
 */
function sharedLead(payloads: Record<string, unknown>[]): Record<string, unknown> | null {
  const [first, ...rest] = payloads;
  if (first === undefined || rest.length === 0) return null;
  const shared: Record<string, unknown> = {};
  for (const [i, [key, value]] of Object.entries(first).entries()) {
    if (typeof value === "object" && value !== null) break;
    if (!rest.every((payload) => Object.keys(payload)[i] === key && payload[key] === value)) break;
    shared[key] = value;
  }
  return Object.keys(shared).length > 0 ? shared : null;
}

export const WEBHOOK_METHODS = ["post", "put", "patch"] as const;

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text().primaryKey(),
    projectId: text("project_id").notNull(),
    /** Null for a project webhook, which receives the events of every session. */
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    url: text().notNull(),
    method: text({ enum: WEBHOOK_METHODS }).notNull(),
    /** Extra request headers. */
    headers: text({ mode: "json" }).$type<Record<string, string>>().notNull(),
    /** Event types it receives; empty means all. */
    events: text({ mode: "json" }).$type<EventType[]>().notNull(),
    retries: integer().notNull(),
    initialBackoff: integer("initial_backoff").notNull(),
    backoffMultiplier: real("backoff_multiplier").notNull(),
    enabled: integer({ mode: "boolean" }).notNull(),
    secret: text().notNull(),
    /** Made with a test key, it hears only test events; a live one only live events. */
    livemode: integer({ mode: "boolean" }).notNull().default(true),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("webhooks_project_idx").on(t.projectId, t.sessionId, t.id),
    index("webhooks_session_idx").on(t.sessionId),
  ],
);

export const INVOCATION_STATUSES = [
  "pending",
  "retrying",
  "succeeded",
  "failed",
  "cancelled",
] as const;

/** One attempt of a delivery: when, how long, what came back (the first KiB) or went wrong. */
export interface AttemptRecord {
  attempt: number;
  request_time: string;
  duration_ms: number;
  status_code: number | null;
  response_body: string | null;
  error: string | null;
}

/**
 * One event for one webhook. Keyed by the webhook (WITHOUT ROWID, migration 0026): the key is the
 * delivery log's index, so a delivery is its row and its due entry, not a third for the log. Its
 * id is its event's and its webhook's (`invocationIdOf`), so the webhook of any id is known
 * (`invocationKey`) and a session's deliveries are found from its events without an index of
 * invocations by event (`deliveriesOfEvents`). It goes with its webhook by cascade, and with its
 * event by the statements that delete events (no foreign key: a cascade from events would search
 * every invocation for each event deleted, there being no index by event to search).
 */
export const webhookInvocations = sqliteTable(
  "webhook_invocations",
  {
    id: text().notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** Its event's project and id: the event's key. */
    projectId: text("project_id").notNull(),
    eventId: text("event_id").notNull(),
    status: text({ enum: INVOCATION_STATUSES }).notNull(),
    attempts: integer().notNull(),
    /**
     * When the next attempt is due, for the sweep: D1 is the source of truth for a retry's
     * schedule, and the queue only how it is made promptly. Null once the invocation is finished,
     * and for a first attempt, whose message was queued before its push committed (index-push.ts).
     */
    nextAttemptAt: text("next_attempt_at"),
    /** Set while an attempt is in flight: nobody else sends this invocation until it passes. */
    leaseUntil: text("lease_until"),
    /** Why a finished invocation failed or was cancelled, in a sentence. */
    failureReason: text("failure_reason"),
    /**
     * Every attempt, oldest first, as the API shows it: written by the same update that counts
     * the attempt (migration 0025), where a row of its own was one more row written an attempt.
     */
    attemptLog: text("attempt_log", { mode: "json" })
      .$type<AttemptRecord[]>()
      .notNull()
      .default(sql`'[]'`),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.webhookId, t.id] }),
    // The sweep of unfinished invocations, by when they are due: a finished one has no
    // `next_attempt_at`, so it leaves the index (migration 0023) rather than moving in it.
    index("webhook_invocations_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.nextAttemptAt} IS NOT NULL`),
  ],
);

const EVENT_PREFIX = "evt_";
const WEBHOOK_PREFIX = "wh_";
/** `whi_` and an event id's 26 characters: what comes after is the webhook's. */
const WEBHOOK_IN_INVOCATION_ID = 30;

/** An invocation's id: `whi_`, its event's id and its webhook's, each without its prefix. */
export const invocationIdOf = (eventId: string, webhookId: string) =>
  `whi_${eventId.slice(EVENT_PREFIX.length)}${webhookId.slice(WEBHOOK_PREFIX.length)}`;

/** invocationIdOf in SQL: the same id, made from an event id and a webhook id there. */
export const invocationIdSql = (eventId: SQL | AnyColumn, webhookId: SQL | AnyColumn) =>
  sql`'whi_' || substr(${eventId}, ${sql.raw(String(EVENT_PREFIX.length + 1))})
    || substr(${webhookId}, ${sql.raw(String(WEBHOOK_PREFIX.length + 1))})`;

/** The webhook an invocation id names. */
export const webhookOfInvocation = (invocationId: string) =>
  `${WEBHOOK_PREFIX}${invocationId.slice(WEBHOOK_IN_INVOCATION_ID)}`;

/** An invocation by its id alone: its key, the webhook taken from the id. */
export const invocationKey = (invocationId: string) =>
  and(
    eq(webhookInvocations.webhookId, webhookOfInvocation(invocationId)),
    eq(webhookInvocations.id, invocationId),
  );

/** Invocations by their ids alone: their keys, each webhook taken from its ids. */
export const invocationKeys = (invocationIds: string[]) =>
  and(
    inArray(webhookInvocations.webhookId, [...new Set(invocationIds.map(webhookOfInvocation))]),
    inArray(webhookInvocations.id, invocationIds),
  );

/**
 * The keys (webhook, id) of the invocations of the events `where` selects, for the webhooks of
 * one kind that could have heard them — the project's own (`project`) or the session's — each a
 * seek, the key made from the event's and the webhook's ids as the invocation's was. A few seeks
 * an event, however many deliveries the database holds.
 */
function deliveriesOfEvents(where: SQL | undefined, of: "project" | "session") {
  const key = sql`${webhooks.id} AS webhook_id, ${invocationIdSql(events.id, webhooks.id)} AS id`;
  // CROSS JOIN keeps the events first: what `where` selects, then their webhooks, never the
  // project's events for each of its webhooks.
  return of === "project"
    ? sql`SELECT ${key} FROM ${events} CROSS JOIN ${webhooks}
      ON ${webhooks.projectId} = ${events.projectId} AND ${webhooks.sessionId} IS NULL
      WHERE ${where}`
    : sql`SELECT ${key} FROM ${events} CROSS JOIN ${webhooks}
      ON ${webhooks.sessionId} = ${events.sessionId}
      WHERE ${where}`;
}

/**
 * The keys (project, id) of the rows holding the events of the sessions `which` selects (a
 * condition on `sessions`): each session's row lists its events' ids, and each is a seek of the
 * rows' key (CROSS JOIN keeps that order: SQLite would otherwise read the project's rows for each
 * id); a row holds one session's events only.
 */
const rowsOfSessions = (which: SQL | undefined) =>
  sql`SELECT ${eventRows.projectId}, ${eventRows.id}
    FROM ${sessions} CROSS JOIN json_each(${sessions.eventIds}) AS listed
    CROSS JOIN ${eventRows} ON ${eventRows.projectId} = ${sessions.projectId}
      AND ${rowOfEvent(eventRows.id, sql.raw("listed.value"))}
      AND ${eventRows.sessionId} = ${sessions.id}
    WHERE ${which}`;

/** The events of the sessions `which` selects (a condition on `sessions`), in the events view. */
export const eventsOfSessions = (which: SQL | undefined) =>
  sql`(${events.projectId}, ${events.rowId}) IN (${rowsOfSessions(which)})`;

/** The rows of the events of the sessions `which` selects, in `event_rows`. */
export const eventRowsOfSessions = (which: SQL | undefined) =>
  sql`(${eventRows.projectId}, ${eventRows.id}) IN (${rowsOfSessions(which)})`;

/**
 * The invocation is one of those of the events `where` selects (deliveriesOfEvents). Two row-value
 * INs joined by OR, not one over a UNION: SQLite seeks each (a multi-index OR), where a compound
 * subquery made it scan every invocation (worker/test/query-plans.test.ts).
 */
export const isDeliveryOf = (where: SQL | undefined) => {
  const key = sql`(${webhookInvocations.webhookId}, ${webhookInvocations.id})`;
  return sql`(${key} IN (${deliveriesOfEvents(where, "project")}) OR ${key} IN (${deliveriesOfEvents(where, "session")}))`;
};

/** Joins an invocation to its event, by the event's key. */
export const eventOf = (invocation: typeof webhookInvocations) =>
  eventAt(invocation.projectId, invocation.eventId);

export type EventRow = typeof events.$inferSelect;
export type WebhookRow = typeof webhooks.$inferSelect;
export type InvocationRow = typeof webhookInvocations.$inferSelect;
