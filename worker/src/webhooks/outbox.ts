import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import { type Database, insertInChunks } from "../db/client.ts";
import type { SessionRow } from "../db/sessions.ts";
import { events, type InvocationRow, webhookInvocations } from "../db/webhooks.ts";
import { outboxRows, type PlannedEvent, subscribers } from "../domain/events.ts";
import type { Env } from "../env.ts";

export interface WebhookMessage {
  invocation_id: string;
}

/** Queues accept at most 100 messages per sendBatch. */
const QUEUE_BATCH_LIMIT = 100;
/** Invocations not on the queue this long after they were written are sent by the sweeper. */
export const OUTBOX_GRACE_MS = 30_000;

/**
 * What a session transition adds to its D1 batch: the events and their invocations. Call
 * `enqueue` with `invocationIds` once the batch has committed.
 */
export async function sessionOutbox(
  db: Database,
  session: SessionRow,
  planned: PlannedEvent[],
  now: Date,
) {
  if (planned.length === 0) return { statements: [], invocationIds: [] };
  const listeners = await subscribers(db, session.projectId, session.id);
  const rows = outboxRows(
    { projectId: session.projectId, sessionId: session.id, entity: `${session.kind}_session` },
    planned,
    listeners,
    now,
  );
  return {
    statements: outboxStatements(db, rows),
    invocationIds: rows.invocations.map((row) => row.id),
  };
}

export function outboxStatements(
  db: Database,
  rows: { events: (typeof events.$inferInsert)[]; invocations: InvocationRow[] },
) {
  return [
    ...insertInChunks(db, events, rows.events),
    ...insertInChunks(db, webhookInvocations, rows.invocations),
  ];
}

/**
 * Puts invocations on the queue and marks them enqueued. If this fails after the batch committed,
 * the events and invocations are safe in D1 and the sweeper sends them later.
 */
export async function enqueue(
  env: Env,
  db: Database,
  invocationIds: string[],
  delaySeconds?: number,
) {
  for (let start = 0; start < invocationIds.length; start += QUEUE_BATCH_LIMIT) {
    const ids = invocationIds.slice(start, start + QUEUE_BATCH_LIMIT);
    await env.WEBHOOK_QUEUE.sendBatch(
      ids.map((id) => ({
        body: { invocation_id: id } satisfies WebhookMessage,
        contentType: "json" as const,
        delaySeconds,
      })),
    );
    await db
      .update(webhookInvocations)
      .set({ enqueuedAt: new Date().toISOString() })
      .where(inArray(webhookInvocations.id, ids));
  }
}

/** Best effort after a commit: a failure here only delays delivery until the next sweep. */
export async function enqueueQuietly(env: Env, db: Database, invocationIds: string[]) {
  if (invocationIds.length === 0) return;
  try {
    await enqueue(env, db, invocationIds);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "warn",
        message: "enqueue failed; the sweeper will retry",
        error: String(error),
      }),
    );
  }
}

/** Runs from the cron trigger: sends invocations whose enqueue never happened. */
export async function sweepOutbox(env: Env, db: Database, now = new Date()) {
  const stranded = await db
    .select({ id: webhookInvocations.id })
    .from(webhookInvocations)
    .where(
      and(
        isNull(webhookInvocations.enqueuedAt),
        eq(webhookInvocations.status, "pending"),
        lt(webhookInvocations.createdAt, new Date(now.getTime() - OUTBOX_GRACE_MS).toISOString()),
      ),
    )
    .limit(500);
  await enqueue(
    env,
    db,
    stranded.map((row) => row.id),
  );
  return stranded.length;
}
