import { type Database, insertInChunks } from "../db/client.ts";
import type { SessionRow } from "../db/sessions.ts";
import { events, type InvocationRow, type WebhookRow, webhookInvocations } from "../db/webhooks.ts";
import { outboxRows, type PlannedEvent, subscribers } from "../domain/events.ts";
import type { WebhookMessage } from "./queue.ts";

/**
 * What a session transition adds to its D1 batch: the events and their invocations. Queue
 * `messages` once the batch has committed.
 */
export async function sessionOutbox(
  db: Database,
  session: SessionRow,
  planned: PlannedEvent[],
  now: Date,
  preloaded?: WebhookRow[],
) {
  if (planned.length === 0) return { statements: [], messages: [] };
  const listeners = preloaded ?? (await subscribers(db, session.projectId, session.id));
  const rows = outboxRows(
    { projectId: session.projectId, sessionId: session.id, entity: `${session.kind}_session` },
    planned,
    listeners,
    now,
  );
  return {
    statements: outboxStatements(db, rows),
    messages: firstAttempts(rows.invocations),
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

/** The queue messages for invocations that have not been attempted yet. */
export function firstAttempts(invocations: InvocationRow[]): WebhookMessage[] {
  return invocations.map((row) => ({ invocation_id: row.id, attempt: 1 }));
}
