import type { SessionRow } from "../db/sessions.ts";
import type { EventType } from "../db/webhooks.ts";
import type { SessionStatus } from "../protocol/messages.ts";
import { publicKeyView } from "./key-view.ts";

/** An event a change causes, before it is written: its type and its payload. */
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

/** The session's personal data is gone: the event names it, and says nothing else. */
export const sessionRedacted = (session: SessionRow, at: string): PlannedEvent => ({
  type: "redacted",
  payload: { ...sessionPayload({ ...session, externalId: null }), redacted_at: at },
});
