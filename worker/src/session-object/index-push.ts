import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { D1_MAX_BOUND_PARAMETERS, type Database, database, inChunks } from "../db/client.ts";
import { shardBinding } from "../db/databases.ts";
import {
  connectionKeys,
  connections,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import {
  eventRows,
  eventRowsOf,
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
 * an older version, so a late or repeated push never undoes a newer one; events (a row a series,
 * db/webhooks.ts) and keys are written once; each event fans out to the webhooks listening at that moment, and the invocations
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

/** Upserts that keep the newer of two versions of a row, `key` naming the row. */
function newerOf<T extends SQLiteTable & { version: unknown }>(
  db: Database,
  table: T,
  key: SQLiteColumn[],
  rows: T["$inferInsert"][],
): BatchItem<"sqlite">[] {
  const version = (table as unknown as { version: SQL }).version;
  return inChunks(rows).map((chunk) =>
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
  return inChunks(rows).map((chunk) => db.insert(table).values(chunk).onConflictDoNothing());
}

/** Pushed events per fan-out statement: six bound values each and two more, under D1's limit. */
const EVENTS_PER_FAN_OUT = Math.floor((D1_MAX_BOUND_PARAMETERS - 2) / 6);

/** An event as a fan-out takes it: what it is and whose. */
interface PushedEvent {
  id: string;
  type: string;
  projectId: string;
  sessionId: string;
  livemode: boolean;
  createdAt: string;
}

/**
 * One invocation per (event, webhook listening to it): its project's and its session's own,
 * enabled, of its mode, made before the event happened, whose `events` are empty or name it; one
 * statement for many pushes' events. A webhook hears only what happens once it exists: a push
 * made again (a redaction, an object that lost what D1 acknowledged) carries old events too, and
 * they reach no webhook made since. An id joins the event's and the webhook's, so a push made again writes none twice;
 * RETURNING names those made now, to queue.
 */
function fanOut(db: Database, pushed: PushedEvent[], at: string) {
  const values = sql.join(
    pushed.map(
      (event) =>
        sql`(${event.id}, ${event.type}, ${event.projectId}, ${event.sessionId}, ${event.livemode ? 1 : 0}, ${event.createdAt})`,
    ),
    sql`, `,
  );
  return db
    .insert(webhookInvocations)
    .select(
      sql`WITH pushed(id, type, project_id, session_id, livemode, created_at) AS (VALUES ${values})
        SELECT ${invocationIdSql(sql.raw("pushed.id"), sql.raw("w.id"))}, w.id, w.project_id, pushed.id,
          'pending', 0,
          ${at}, NULL, NULL, '[]', ${at}, ${at}
        FROM pushed JOIN webhooks w
        ON w.project_id = pushed.project_id AND w.enabled = 1
          AND w.livemode = pushed.livemode AND w.created_at <= pushed.created_at
          AND (w.session_id IS NULL OR w.session_id = pushed.session_id)
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

/** One session's push, as its object sends it to its shard's writer (index-writer.ts). */
export interface PushRequest {
  /** The shard its project is on: the writer's own. */
  shard: string;
  target: { projectId: string; sessionId: string; kind: SessionKind; livemode: boolean };
  changes: PendingChanges;
  /** The session's own webhooks, on its first push: after the session, before its events. */
  newWebhooks: WebhookRow[];
}

/**
 * Pushes as the statements of one D1 batch: each table's rows of every push together, in as few
 * statements as D1's parameter limit allows, so many sessions' pushes share one transaction at
 * little more than one's cost (index-writer.ts). Tables go in the order their rows refer to each
 * other: sessions, their own webhooks, keys, connections, events, then the events' fan-outs, then
 * each push's erasure or redaction.
 */
function pushStatements(db: Database, requests: PushRequest[], at: string) {
  /** Every push's rows of one table, together. */
  const each = <T>(rows: (request: PushRequest) => T[]) => requests.flatMap(rows);
  const statements: BatchItem<"sqlite">[] = [
    ...newerOf(
      db,
      sessions,
      [sessions.id],
      each(({ changes }) => {
        if (!changes.session || changes.session.deleted) return [];
        const { deleted: _deleted, ...row } = changes.session;
        return [row];
      }),
    ),
    ...once(
      db,
      webhooks,
      each((request) => request.newWebhooks),
    ),
    ...newerOf(
      db,
      sessionKeys,
      [sessionKeys.id],
      each(({ changes }) => changes.keys),
    ),
    ...once(
      db,
      sessionAuthorities,
      each(({ changes }) => changes.authorities),
    ),
    ...newerOf(
      db,
      connections,
      [connections.sessionId, connections.id],
      each(({ changes }) => changes.connections),
    ),
    ...once(
      db,
      connectionKeys,
      each(({ changes }) => changes.connectionKeys),
    ),
    ...once(
      db,
      eventRows,
      each(({ target, changes }) =>
        eventRowsOf(
          {
            projectId: target.projectId,
            sessionId: target.sessionId,
            entity: `${target.kind}_session`,
            livemode: target.livemode,
          },
          changes.events.map((event) => ({
            ...event,
            row: event.row ?? event.id,
            payload: storedPayload(event.type, event.payload),
          })),
        ),
      ),
    ),
  ];
  const pushed = each(({ target, changes }) =>
    changes.events.map((event) => ({
      ...target,
      id: event.id,
      type: event.type,
      createdAt: event.createdAt,
    })),
  );
  const fanOuts: BatchItem<"sqlite">[] = [];
  for (let start = 0; start < pushed.length; start += EVENTS_PER_FAN_OUT)
    fanOuts.push(fanOut(db, pushed.slice(start, start + EVENTS_PER_FAN_OUT), at));
  const endings = each(({ target, changes }): BatchItem<"sqlite">[] => {
    // Deleting last: the session's events (with their deliveries), then its row, whose keys,
    // connections and own webhooks go with it (SPEC §19).
    if (changes.session?.deleted === true) return [...erasureStatements(db, [target.sessionId])];
    // A redacted session's rows are rewritten in D1 as in the object, events and deliveries too:
    // after the events, so one pushed with the redaction is redacted with the rest (SPEC §19).
    if (changes.session?.redactedAt)
      return [...redactionStatements(db, target.projectId, target.sessionId)];
    return [];
  });
  return {
    all: [...statements, ...fanOuts, ...endings],
    /** The fan-outs' places in `all`: their RETURNING rows are the invocations to queue. */
    fanOuts: { from: statements.length, to: statements.length + fanOuts.length },
  };
}

/** The invocations the fan-outs made, from the batch's results. */
function madeInvocations(results: unknown[], fanOuts: { from: number; to: number }) {
  return results
    .slice(fanOuts.from, fanOuts.to)
    .flatMap((rows) => rows as { id: string }[])
    .map((row) => ({ invocation_id: row.id, attempt: 1 }));
}

/**
 * Writes pushes of one shard in one transaction and queues their deliveries; D1's bookmark after
 * it. Alone, one push is written this way too.
 */
export async function writePushes(
  env: Env,
  shard: string,
  requests: PushRequest[],
): Promise<string | null> {
  const d1 = shardBinding(env, shard).withSession("first-primary");
  const db = database(d1);
  const { all, fanOuts } = pushStatements(db, requests, new Date().toISOString());
  if (all.length === 0) return d1.getBookmark();
  const results = await db.batch(all as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  await enqueueQuietly(env, shard, madeInvocations(results, fanOuts));
  return d1.getBookmark();
}

/** Writes one session's push alone, in its own transaction, and queues its deliveries. */
export async function pushToIndex(env: Env, request: PushRequest): Promise<PushResult> {
  const bookmark = await writePushes(env, request.shard, [request]);
  return { version: request.changes.version, bookmark };
}
