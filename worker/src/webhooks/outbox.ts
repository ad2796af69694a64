import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { type Database, insertInChunks } from "../db/client.ts";
import type { SessionRow } from "../db/sessions.ts";
import { events, type InvocationRow, type WebhookRow, webhookInvocations } from "../db/webhooks.ts";
import { outboxRows, type PlannedEvent, subscribers } from "../domain/events.ts";
import type { Env } from "../env.ts";

export interface WebhookMessage {
  invocation_id: string;
}

/** Queues accept at most 100 messages per sendBatch. */
const QUEUE_BATCH_LIMIT = 100;
/**
 * An invocation still unattempted this long after it was put on the queue is assumed lost (the
 * send failed after its batch committed) and is sent again by the sweeper.
 */
export const OUTBOX_GRACE_MS = 5 * 60_000;

/**
 * What a session transition adds to its D1 batch: the events and their invocations. Call
 * `enqueue` with `invocationIds` once the batch has committed.
 */
export async function sessionOutbox(
  db: Database,
  session: SessionRow,
  planned: PlannedEvent[],
  now: Date,
  preloaded?: WebhookRow[],
) {
  if (planned.length === 0) return { statements: [], invocationIds: [] };
  const listeners = preloaded ?? (await subscribers(db, session.projectId, session.id));
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
 * Puts invocations on the queue. Their `enqueued_at` was written with them, so the hot path
 * needs no second write; if this send fails, the sweeper finds them unattempted and resends.
 */
export async function enqueue(env: Env, invocationIds: string[], delaySeconds?: number) {
  for (let start = 0; start < invocationIds.length; start += QUEUE_BATCH_LIMIT) {
    const ids = invocationIds.slice(start, start + QUEUE_BATCH_LIMIT);
    await env.WEBHOOK_QUEUE.sendBatch(
      ids.map((id) => ({
        body: { invocation_id: id } satisfies WebhookMessage,
        contentType: "json" as const,
        delaySeconds,
      })),
    );
  }
}

/** Best effort after a commit: a failure here only delays delivery until the next sweep. */
export async function enqueueQuietly(env: Env, invocationIds: string[]) {
  if (invocationIds.length === 0) return;
  try {
    await enqueue(env, invocationIds);
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

/** Runs from the cron trigger: resends invocations that were queued long ago and never attempted. */
export async function sweepOutbox(env: Env, db: Database, now = new Date()) {
  const stale = new Date(now.getTime() - OUTBOX_GRACE_MS).toISOString();
  const stranded = await db
    .select({ id: webhookInvocations.id })
    .from(webhookInvocations)
    .where(
      and(
        eq(webhookInvocations.status, "pending"),
        eq(webhookInvocations.attempts, 0),
        or(isNull(webhookInvocations.enqueuedAt), lt(webhookInvocations.enqueuedAt, stale)),
      ),
    )
    .limit(500);
  const ids = stranded.map((row) => row.id);
  if (ids.length === 0) return 0;
  await db
    .update(webhookInvocations)
    .set({ enqueuedAt: now.toISOString() })
    .where(inArray(webhookInvocations.id, ids));
  await enqueue(env, ids);
  return ids.length;
}
