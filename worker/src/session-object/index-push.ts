import { and, eq, getTableColumns, isNull, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, database } from "../db/client.ts";
import { shardBinding } from "../db/databases.ts";
import { insertFromJson, runBatch, type Statement } from "../db/json-rows.ts";
import { projectSettings } from "../db/project-settings.ts";
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
  type InvocationRow,
  invocationIdOf,
  type WebhookRow,
  webhookInvocations,
  webhooks,
} from "../db/webhooks.ts";
import { redactionStatements } from "../domain/redaction.ts";
import { erasureOf, erasureStatements, type ProjectSettingsRow } from "../domain/retention.ts";
import { storedPayload } from "../domain/stored-events.ts";
import type { Env } from "../env.ts";
import { log } from "../lib/log.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { firstAttempts, wantsEvent } from "../webhooks/outbox.ts";
import { enqueue } from "../webhooks/queue.ts";
import type { PendingChanges } from "./session-store.ts";

/**
 * Feeds D1, the project-wide index, from a session's object: everything changed since
 * the index's last acknowledged version, in one batch, idempotently. A row only replaces one of
 * an older version, so a late or repeated push never undoes a newer one; events (a row a series,
 * db/webhooks.ts) and keys are written once; each event fans out to the webhooks listening at
 * that moment, its invocations queued before the batch commits. A push that fails is simply made
 * again (the object's alarm), whole.
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

/** Every column of `table` that can change: what an upsert's `SET` rewrites. */
function changeable(table: SQLiteTable): string[] {
  return Object.entries(getTableColumns(table))
    .filter(([key]) => !WRITTEN_ONCE.has(key))
    .map(([, column]) => column.name);
}

/**
 * Upserts that keep the newer of two versions of a row, `key` naming the row: every push's rows
 * of the table in one statement (db/json-rows.ts).
 */
function newerOf<T extends SQLiteTable & { version: unknown }>(
  table: T,
  key: SQLiteColumn[],
  rows: T["$inferInsert"][],
): SQL[] {
  return insertFromJson(table, rows, { keep: "newer", key, set: changeable(table) });
}

/** Inserts of rows that never change once written, in one statement. */
function once<T extends SQLiteTable>(table: T, rows: T["$inferInsert"][]) {
  return insertFromJson(table, rows, { keep: "first" });
}

/** `column IN` the ids, bound as one JSON array however many (a seek of its index each). */
const inJson = (column: SQLiteColumn, ids: string[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])}))`;

/**
 * The projects' rows here as a shard's writer last read them, null for none (index-writer.ts):
 * read once, then forgotten whenever one changes (a deletion, a retention), so a push for a known
 * project needs no read. A push without events for known projects then costs no round trip before
 * its write.
 */
export type ProjectsKnown = Map<string, ProjectSettingsRow | null>;

/** What a group's writer reads before it writes, in one round trip (readBeforeWriting). */
interface BeforeWriting {
  /** Sessions whose push is refused: what it holds was erased. */
  gone: Set<string>;
  /** When each other session is erased, from its project's row (null while open). */
  eraseAt: Map<string, number | null>;
  /** The enabled webhooks that may hear the pushes' events. */
  listeners: WebhookRow[];
}

/**
 * One round trip before a group is written, if it needs one: the rows here of its projects the
 * writer does not know yet (a deleted project's row is its tombstone; each has the project's
 * retention), and the enabled webhooks their events may
 * reach — their projects' own (a seek of the project index each) and their sessions' (of the
 * session index); the new sessions' own the same batch writes. A push for what was erased — a
 * deleted project or test data, a closed session past its retention — is refused. Each read is a
 * seek a project or session: none grows with history.
 */
async function readBeforeWriting(
  env: Env,
  db: Database,
  requests: PushRequest[],
  known: ProjectsKnown,
): Promise<BeforeWriting> {
  const withEvents = requests.filter(({ changes }) => changes.events.length > 0);
  const unknown = requests
    .map(({ target }) => target.projectId)
    .filter((projectId) => !known.has(projectId));
  const projectReads =
    unknown.length === 0
      ? []
      : [db.select().from(projectSettings).where(inJson(projectSettings.projectId, unknown))];
  // One read for every listener: the projects' own webhooks and the sessions' own.
  const webhookReads =
    withEvents.length === 0
      ? []
      : [
          db
            .select()
            .from(webhooks)
            .where(
              and(
                eq(webhooks.enabled, true),
                or(
                  and(
                    inJson(
                      webhooks.projectId,
                      withEvents.map(({ target }) => target.projectId),
                    ),
                    isNull(webhooks.sessionId),
                  ),
                  inJson(
                    webhooks.sessionId,
                    withEvents.map(({ target }) => target.sessionId),
                  ),
                ),
              ),
            ),
        ];
  const reads = [...projectReads, ...webhookReads];
  // Nothing to read (the writer knows the projects, no events): no round trip before writing.
  const results = (
    reads.length === 0
      ? []
      : await db.batch(reads as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])
  ) as unknown[][];
  const projectRows = results.slice(0, projectReads.length).flat() as ProjectSettingsRow[];
  const webhookRows = results.slice(projectReads.length).flat() as WebhookRow[];
  for (const projectId of unknown) known.set(projectId, null);
  for (const row of projectRows) known.set(row.projectId, row);
  const now = Date.now();
  const gone = new Set<string>();
  const eraseAt = new Map<string, number | null>();
  for (const { target, changes } of requests) {
    const erasure = erasureOf(env, target, known.get(target.projectId) ?? null);
    if (changes.session?.deleted !== true && erasure.erased(now)) gone.add(target.sessionId);
    else eraseAt.set(target.sessionId, erasure.eraseAt);
  }
  return {
    gone,
    eraseAt,
    listeners: [...webhookRows, ...requests.flatMap((request) => request.newWebhooks)],
  };
}

/**
 * One invocation per (event, webhook listening to it): its project's and its session's own,
 * enabled, of its mode, made before the event happened, whose `events` are empty or name it. A
 * webhook hears only what happens once it exists: a push made again (a redaction, an object that
 * lost what D1 acknowledged) carries old events too, and they reach no webhook made since. An id
 * joins the event's and the webhook's, so a push made again writes none twice.
 *
 * No attempt is due in the sweep's index (`next_attempt_at` null, a row written less each): the first attempt's queue message is sent before the commit (writePushes), so no
 * commit goes without one; only if the queue refused it is the attempt due there, for the sweep.
 */
function invocationsOf(requests: PushRequest[], listeners: WebhookRow[], at: string) {
  const made: InvocationRow[] = [];
  for (const { target, changes } of requests)
    for (const event of changes.events)
      for (const webhook of listeners)
        if (
          webhook.projectId === target.projectId &&
          webhook.enabled &&
          webhook.livemode === target.livemode &&
          webhook.createdAt <= event.createdAt &&
          (webhook.sessionId === null || webhook.sessionId === target.sessionId) &&
          wantsEvent(webhook, event.type)
        )
          made.push({
            id: invocationIdOf(event.id, webhook.id),
            webhookId: webhook.id,
            projectId: target.projectId,
            eventId: event.id,
            status: "pending",
            attempts: 0,
            nextAttemptAt: null,
            leaseUntil: null,
            failureReason: null,
            attemptLog: [],
            createdAt: at,
            updatedAt: at,
          });
  return made;
}

/**
 * What a push wrote: the version the index now has, and D1's bookmark after it; or that it was
 * refused because what it holds was erased in D1 (`gone`: its object forgets it too).
 */
export type PushResult =
  | {
      version: number;
      bookmark: string | null;
      /**
       * When the session is erased, as the writer worked it out from its project's row (null
       * while open); absent when no writer answered. Its object needs no read of its own.
       */
      eraseAt?: number | null;
      gone?: false;
    }
  | PushGone;
export interface PushGone {
  gone: true;
}

/** One session's push, as its object sends it to its shard's writer (index-writer.ts). */
export interface PushRequest {
  /** The shard its project is on: the writer's own. */
  shard: string;
  target: {
    projectId: string;
    sessionId: string;
    kind: SessionKind;
    livemode: boolean;
    createdAt: string;
    completedAt: string | null;
  };
  changes: PendingChanges;
  /** The session's own webhooks, on its first push: after the session, before its events. */
  newWebhooks: WebhookRow[];
}

/**
 * What a deleted session's push carries: only its deletion. Its events never reach D1 nor a
 * webhook (a DELETE that came before its proof's push leaves nothing).
 */
const withoutDeleted = (request: PushRequest): PushRequest =>
  request.changes.session?.deleted === true
    ? { ...request, newWebhooks: [], changes: { ...request.changes, events: [] } }
    : request;

/**
 * Pushes as the statements of one D1 batch: each table's rows of every push together, in as few
 * statements as D1's parameter limit allows, so many sessions' pushes share one transaction at
 * little more than one's cost (index-writer.ts). Tables go in the order their rows refer to each
 * other: sessions, their own webhooks, keys, connections, events, then the events' invocations
 * (invocationsOf), then each push's erasure or redaction.
 */
function pushStatements(db: Database, requests: PushRequest[], invocations: InvocationRow[]) {
  /** Every push's rows of one table, together. */
  const each = <T>(rows: (request: PushRequest) => T[]) => requests.flatMap(rows);
  const statements: Statement[] = [
    ...newerOf(
      sessions,
      [sessions.id],
      each(({ changes }) => {
        if (!changes.session || changes.session.deleted) return [];
        const { deleted: _deleted, ...row } = changes.session;
        return [row];
      }),
    ),
    ...once(
      webhooks,
      each((request) => request.newWebhooks),
    ),
    ...newerOf(
      sessionKeys,
      [sessionKeys.id],
      each(({ changes }) => changes.keys),
    ),
    ...once(
      sessionAuthorities,
      each(({ changes }) => changes.authorities),
    ),
    ...newerOf(
      connections,
      [connections.sessionId, connections.id],
      each(({ changes }) => changes.connections),
    ),
    ...once(
      connectionKeys,
      each(({ changes }) => changes.connectionKeys),
    ),
    ...once(
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
  const endings = each(({ target, changes }): BatchItem<"sqlite">[] => {
    // Deleting last: the session's events (with their deliveries), then its row, whose keys,
    // connections and own webhooks go with it.
    if (changes.session?.deleted === true) return [...erasureStatements(db, [target.sessionId])];
    // A redacted session's rows are rewritten in D1 as in the object, events and deliveries too:
    // after the events, so one pushed with the redaction is redacted with the rest.
    if (changes.session?.redactedAt)
      return [...redactionStatements(db, target.projectId, target.sessionId)];
    return [];
  });
  return [...statements, ...once(webhookInvocations, invocations), ...endings];
}

/**
 * Writes pushes of one shard in one transaction and queues their deliveries: D1's bookmark
 * after it, and the sessions whose push was refused as erased (written nothing of). Alone, one
 * push is written this way too.
 */
export async function writePushes(
  env: Env,
  shard: string,
  sent: PushRequest[],
  known: ProjectsKnown = new Map(),
): Promise<{ bookmark: string | null; gone: Set<string>; eraseAt: Map<string, number | null> }> {
  const d1 = shardBinding(env, shard).withSession("first-primary");
  const db = database(d1);
  const at = new Date().toISOString();
  const { gone, eraseAt, listeners } = await readBeforeWriting(
    env,
    db,
    sent.map(withoutDeleted),
    known,
  );
  const requests = sent.filter(({ target }) => !gone.has(target.sessionId)).map(withoutDeleted);
  const invocations = invocationsOf(requests, listeners, at);
  // Queued before the commit: a consumer that finds no invocation yet asks again (consumer.ts).
  // Refused, each first attempt is due in the sweep's index instead.
  try {
    await enqueue(env, shard, firstAttempts(invocations));
  } catch (error) {
    log(env, "warn", "enqueue failed; the sweeper will send these when due", {
      invocations: invocations.map((invocation) => invocation.id),
      error: String(error),
    });
    for (const invocation of invocations) invocation.nextAttemptAt = at;
  }
  const all = pushStatements(db, requests, invocations);
  await runBatch(db, all);
  return { bookmark: d1.getBookmark(), gone, eraseAt };
}

/** Writes one session's push alone, in its own transaction, and queues its deliveries. */
export async function pushToIndex(
  env: Env,
  request: PushRequest,
  known?: ProjectsKnown,
): Promise<PushResult> {
  const { bookmark, gone, eraseAt } = await writePushes(env, request.shard, [request], known);
  const { sessionId } = request.target;
  if (gone.has(sessionId)) return { gone: true };
  return { version: request.changes.version, bookmark, eraseAt: eraseAt.get(sessionId) ?? null };
}
