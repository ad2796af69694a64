import { and, eq, isNull, or } from "drizzle-orm";
import { type Database, insertInChunks } from "../db/client.ts";
import {
  type EventRow,
  type EventType,
  eventRows,
  eventRowsOf,
  type InvocationRow,
  invocationIdOf,
  type WebhookRow,
  webhookInvocations,
  webhooks,
} from "../db/webhooks.ts";
import type { PlannedEvent } from "../domain/events.ts";
import { newId } from "../lib/ids.ts";
import type { Delivery } from "./queue.ts";

/** Events made here (a ping), each a row of its own, and their invocations. */
export function outboxStatements(
  db: Database,
  rows: { events: EventRow[]; invocations: InvocationRow[] },
) {
  const eventRowsOfEvents = rows.events.flatMap(({ id, type, payload, createdAt, ...owner }) =>
    eventRowsOf(owner, [{ id, type, payload, createdAt, row: id }]),
  );
  return [
    ...insertInChunks(db, eventRows, eventRowsOfEvents),
    ...insertInChunks(db, webhookInvocations, rows.invocations),
  ];
}

/**
 * The queue messages for invocations that have not been attempted yet: one a webhook, naming its
 * latest and carrying the others (`also`), oldest first. A push's events for one webhook are one
 * queue message (3 operations billed) however many they are; its sender takes each as its own.
 */
export function firstAttempts(invocations: InvocationRow[]): Delivery[] {
  const byWebhook = new Map<string, string[]>();
  for (const row of invocations.toSorted((a, b) => a.id.localeCompare(b.id)))
    byWebhook.set(row.webhookId, [...(byWebhook.get(row.webhookId) ?? []), row.id]);
  return [...byWebhook.values()].map((ids) => {
    const latest = ids.at(-1) ?? "";
    const also = ids.slice(0, -1);
    return { invocation_id: latest, attempt: 1, ...(also.length > 0 ? { also } : {}) };
  });
}

/** Enabled webhooks that hear about this session: the project's and the session's own. */
export function subscribers(db: Database, projectId: string, sessionId: string | null) {
  const scope =
    sessionId === null
      ? isNull(webhooks.sessionId)
      : or(isNull(webhooks.sessionId), eq(webhooks.sessionId, sessionId));
  return db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), eq(webhooks.enabled, true), scope));
}

export function wantsEvent(webhook: WebhookRow, type: EventType): boolean {
  return webhook.events.length === 0 || webhook.events.includes(type);
}

/** Event rows and one invocation per (event, interested webhook), to write in one batch. */
export function outboxRows(
  context: {
    projectId: string;
    sessionId: string | null;
    entity: EventRow["entity"];
    livemode: boolean;
  },
  planned: PlannedEvent[],
  listeners: WebhookRow[],
  now: Date,
): { events: EventRow[]; invocations: InvocationRow[] } {
  const at = now.toISOString();
  const eventRows: EventRow[] = [];
  const invocations: InvocationRow[] = [];
  for (const event of planned) {
    const id = newId("evt", now.getTime());
    const row: EventRow = {
      id,
      rowId: id,
      position: 0,
      projectId: context.projectId,
      sessionId: context.sessionId,
      entity: context.entity,
      livemode: context.livemode,
      type: event.type,
      payload: event.payload,
      createdAt: at,
    };
    eventRows.push(row);
    for (const webhook of listeners.filter((listener) => wantsEvent(listener, event.type))) {
      invocations.push({
        id: invocationIdOf(row.id, webhook.id),
        webhookId: webhook.id,
        projectId: row.projectId,
        eventId: row.id,
        status: "pending",
        attempts: 0,
        // Due at once: the queue send follows the commit, and the sweeper covers a lost one.
        nextAttemptAt: at,
        leaseUntil: null,
        failureReason: null,
        attemptLog: [],
        createdAt: at,
        updatedAt: at,
      });
    }
  }
  return { events: eventRows, invocations };
}
