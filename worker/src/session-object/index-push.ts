import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { D1_MAX_BOUND_PARAMETERS, type Database, database } from "../db/client.ts";
import {
  connectionKeys,
  connections,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import {
  events,
  invocationIdSql,
  type WebhookRow,
  webhookInvocations,
  webhooks,
} from "../db/webhooks.ts";
import { redactionStatements } from "../domain/redaction.ts";
import { erasureStatements } from "../domain/retention.ts";
import { storedPayload } from "../domain/stored-events.ts";
import type { Env } from "../env.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { enqueueQuietly } from "../webhooks/queue.ts";
import type { PendingChanges } from "./session-store.ts";

/**
 * Feeds D1, the project-wide index, from a session's object (SPEC §15): everything changed since
 * the index's last acknowledged version, in one batch, idempotently. A row only replaces one of
 * an older version, so a late or repeated push never undoes a newer one; events and keys are
 * written once; each event fans out to the webhooks listening at that moment, and the invocations
 * it made are queued. A push that fails is simply made again (the object's alarm), whole.
 */

/**
 * Columns a row is written with once and never changes: left out of an upsert's `SET`, so that
 * the indexes made of them are not rewritten with the row (D1 bills each index entry written as
 * a row: a session's close rewrote six, it now rewrites its status's).
 */
const WRITTEN_ONCE = new Set([
  "id",
  "projectId",
  "sessionId",
  "kind",
  "connectionIdentifier",
  "method",
  "livemode",
  "createdAt",
]);

/** `SET column = excluded.column` for every column of `table` that can change. */
function fromExcluded(table: SQLiteTable): Record<string, SQL> {
  const set: Record<string, SQL> = {};
  for (const [key, column] of Object.entries(getTableColumns(table)))
    if (!WRITTEN_ONCE.has(key)) set[key] = sql.raw(`excluded."${column.name}"`);
  return set;
}

/** Rows per statement so that each stays under D1's bound parameters. */
function chunks<T extends object>(rows: T[]): T[][] {
  const first = rows[0];
  if (!first) return [];
  const size = Math.max(1, Math.floor(D1_MAX_BOUND_PARAMETERS / Object.keys(first).length));
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/** Upserts that keep the newer of two versions of a row, `key` naming the row. */
function newerOf<T extends SQLiteTable & { version: unknown }>(
  db: Database,
  table: T,
  key: SQLiteColumn[],
  rows: T["$inferInsert"][],
): BatchItem<"sqlite">[] {
  const version = (table as unknown as { version: SQL }).version;
  return chunks(rows).map((chunk) =>
    db
      .insert(table)
      .values(chunk)
      .onConflictDoUpdate({
        target: key,
        set: fromExcluded(table),
        setWhere: sql`excluded."version" > ${version}`,
      }),
  );
}

/** Inserts of rows that never change once written. */
function once<T extends SQLiteTable>(db: Database, table: T, rows: T["$inferInsert"][]) {
  return chunks(rows).map((chunk) => db.insert(table).values(chunk).onConflictDoNothing());
}

/** Events per fan-out statement: two bound values each, under D1's limit with room to spare. */
const EVENTS_PER_FAN_OUT = 40;

/**
 * One invocation per (event, webhook listening to it): the project's and the session's own,
 * enabled, whose `events` are empty or name it; one statement for a push's events. An id joins
 * the event's and the webhook's, so a push made again writes none twice; RETURNING names those
 * made now, to queue.
 */
function fanOut(
  db: Database,
  pushed: { id: string; type: string }[],
  target: { projectId: string; sessionId: string; livemode: boolean },
  at: string,
) {
  const values = sql.join(
    pushed.map((event) => sql`(${event.id}, ${event.type})`),
    sql`, `,
  );
  return db
    .insert(webhookInvocations)
    .select(
      sql`WITH pushed(id, type) AS (VALUES ${values})
        SELECT ${invocationIdSql(sql.raw("pushed.id"), sql.raw("w.id"))}, w.id, w.project_id, pushed.id,
          'pending', 0,
          ${at}, NULL, NULL, '[]', ${at}, ${at}
        FROM pushed JOIN webhooks w
        ON w.project_id = ${target.projectId} AND w.enabled = 1
          AND w.livemode = ${target.livemode ? 1 : 0}
          AND (w.session_id IS NULL OR w.session_id = ${target.sessionId})
          AND (json_array_length(w.events) = 0
            OR EXISTS (SELECT 1 FROM json_each(w.events) WHERE json_each.value = pushed.type))
        WHERE true`,
    )
    .onConflictDoNothing()
    .returning({ id: webhookInvocations.id });
}

/** What a push wrote: the version the index now has, and D1's bookmark after it. */
export interface PushResult {
  version: number;
  bookmark: string | null;
}

/** One session's push, as its object sends it to the index writer (index-writer.ts). */
export interface PushRequest {
  target: { projectId: string; sessionId: string; kind: SessionKind; livemode: boolean };
  changes: PendingChanges;
  /** The session's own webhooks, on its first push: after the session, before its events. */
  newWebhooks: WebhookRow[];
}

/**
 * A push as statements for one D1 batch, and where its fan-outs' results fall in that batch, so
 * many sessions' pushes can share one transaction (index-writer.ts).
 */
export function pushStatements(db: Database, request: PushRequest, at: string) {
  const { target, changes, newWebhooks } = request;
  const deleted = changes.session?.deleted === true;
  const statements: BatchItem<"sqlite">[] = [];
  if (changes.session && !deleted) {
    const { deleted: _deleted, ...row } = changes.session;
    statements.push(...newerOf(db, sessions, [sessions.id], [row]));
  }
  statements.push(
    ...once(db, webhooks, newWebhooks),
    ...newerOf(db, sessionKeys, [sessionKeys.id], changes.keys),
    ...once(db, sessionAuthorities, changes.authorities),
    ...newerOf(db, connections, [connections.sessionId, connections.id], changes.connections),
    ...once(db, connectionKeys, changes.connectionKeys),
    ...once(
      db,
      events,
      changes.events.map((event) => ({
        id: event.id,
        projectId: target.projectId,
        sessionId: target.sessionId,
        entity: `${target.kind}_session` as const,
        livemode: target.livemode,
        type: event.type,
        payload: storedPayload(event.type, event.payload),
        createdAt: event.createdAt,
      })),
    ),
  );
  const fanOuts = [];
  for (let start = 0; start < changes.events.length; start += EVENTS_PER_FAN_OUT)
    fanOuts.push(fanOut(db, changes.events.slice(start, start + EVENTS_PER_FAN_OUT), target, at));
  // Deleting last: the session's events (with their deliveries), then its row, whose keys,
  // connections and own webhooks go with it (SPEC §19).
  const deletion = deleted ? erasureStatements(db, target.projectId, target.sessionId) : [];
  // A redacted session's rows are rewritten in D1 as in the object, events and deliveries too:
  // after the events, so one pushed with the redaction is redacted with the rest (SPEC §19).
  const redaction =
    changes.session?.redactedAt && !deleted
      ? redactionStatements(db, target.projectId, target.sessionId)
      : [];
  return {
    all: [...statements, ...fanOuts, ...deletion, ...redaction],
    /** The fan-outs' places in `all`: their RETURNING rows are the invocations to queue. */
    fanOuts: { from: statements.length, to: statements.length + fanOuts.length },
  };
}

/** The invocations a push's fan-outs made, from its slice of the batch's results. */
export function madeInvocations(results: unknown[], fanOuts: { from: number; to: number }) {
  return results
    .slice(fanOuts.from, fanOuts.to)
    .flatMap((rows) => rows as { id: string }[])
    .map((row) => ({ invocation_id: row.id, attempt: 1 }));
}

/** Writes one session's push alone, in its own transaction, and queues its deliveries. */
export async function pushToIndex(env: Env, request: PushRequest): Promise<PushResult> {
  const d1 = env.DB.withSession("first-primary");
  const db = database(d1);
  const { all, fanOuts } = pushStatements(db, request, new Date().toISOString());
  const version = request.changes.version;
  if (all.length === 0) return { version, bookmark: d1.getBookmark() };
  const results = await db.batch(all as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  await enqueueQuietly(env, madeInvocations(results, fanOuts));
  return { version, bookmark: d1.getBookmark() };
}
