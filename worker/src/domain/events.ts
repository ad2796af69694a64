import { and, eq, inArray, isNull, or } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type SessionRow, sessions } from "../db/sessions.ts";
import {
  type EventRow,
  type EventType,
  type InvocationRow,
  type WebhookRow,
  webhooks,
} from "../db/webhooks.ts";
import { newId } from "../lib/ids.ts";
import type { SessionStatus } from "../protocol/messages.ts";
import { publicKeyView } from "./key-view.ts";

export interface PlannedEvent {
  type: EventType;
  payload: Record<string, unknown>;
}

/** `collect_session_id`, `collect_session_external_id`, ... (or `verify_...`): in every payload. */
export function sessionPayload(session: SessionRow): Record<string, unknown> {
  const prefix = `${session.kind}_session`;
  return {
    [`${prefix}_id`]: session.id,
    [`${prefix}_external_id`]: session.externalId,
    [`${prefix}_connection_identifier`]: session.connectionIdentifier,
  };
}

/** The key record in `key_collected` and `verified` payloads, as the API shows it. */
export const keyPayload = publicKeyView;

export const statusChanged = (session: SessionRow, status: SessionStatus): PlannedEvent => ({
  type: "status_changed",
  payload: { ...sessionPayload(session), status, previous_status: session.status },
});

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

/** The same, found from the session id alone, so it can share a batch with the session's own read. */
export function subscribersOfSession(db: Database, sessionId: string) {
  const projectOfSession = db
    .select({ projectId: sessions.projectId })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return db
    .select()
    .from(webhooks)
    .where(
      and(
        inArray(webhooks.projectId, projectOfSession),
        eq(webhooks.enabled, true),
        or(isNull(webhooks.sessionId), eq(webhooks.sessionId, sessionId)),
      ),
    );
}

export function wantsEvent(webhook: WebhookRow, type: EventType): boolean {
  const wanted = JSON.parse(webhook.events) as EventType[];
  return wanted.length === 0 || wanted.includes(type);
}

/** Event rows and one invocation per (event, interested webhook), to write in one batch. */
export function outboxRows(
  context: { projectId: string; sessionId: string | null; entity: EventRow["entity"] },
  planned: PlannedEvent[],
  listeners: WebhookRow[],
  now: Date,
): { events: EventRow[]; invocations: InvocationRow[] } {
  const at = now.toISOString();
  const eventRows: EventRow[] = [];
  const invocations: InvocationRow[] = [];
  for (const event of planned) {
    const row: EventRow = {
      id: newId("evt", now.getTime()),
      projectId: context.projectId,
      sessionId: context.sessionId,
      entity: context.entity,
      type: event.type,
      payload: JSON.stringify(event.payload),
      createdAt: at,
    };
    eventRows.push(row);
    for (const webhook of listeners.filter((listener) => wantsEvent(listener, event.type))) {
      invocations.push({
        id: newId("whi", now.getTime()),
        webhookId: webhook.id,
        eventId: row.id,
        status: "pending",
        attempts: 0,
        // Due at once: the queue send follows the commit, and the sweeper covers a lost one.
        nextAttemptAt: at,
        leaseUntil: null,
        failureReason: null,
        createdAt: at,
        updatedAt: at,
      });
    }
  }
  return { events: eventRows, invocations };
}
