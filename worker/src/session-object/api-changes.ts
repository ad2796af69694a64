import type { SessionRow } from "../db/sessions.ts";
import { sessionRedacted, statusChanged } from "../domain/events.ts";
import { redactionRefusal } from "../domain/redaction.ts";
import type {
  NewSession,
  ScopedOutcome,
  SessionPatch,
  SessionScope,
  SessionState,
  Written,
} from "../domain/session-commands.ts";
import {
  completionStatus,
  inScope,
  type Outcome,
  patchRefusal,
  refused,
} from "../domain/session-rules.ts";
import type { HeldSession } from "./held-session.ts";
import type { OutboxEvent } from "./session-record.ts";
import type { SessionWriter } from "./session-writer.ts";

/**
 * What the API changes in the session a session's object holds: each change is one
 * local transaction, then pushed to D1 before it is answered, so the caller's next list sees it.
 * A session out of the caller's scope (project and mode) is not found.
 */

export const notFound = () => refused(404, "Session not found", "path.session_id");

/**
 * Holds a new session; "taken" when its name is another session's (a new identifier, then).
 * The same session again (an idempotent create run again after a crash) answers it as held.
 */
export async function createSession(
  held: HeldSession,
  created: NewSession,
): Promise<Written<SessionState | null> | "taken"> {
  const { store } = held;
  const current = store.session();
  if (current?.id === created.session.id) {
    held.pushSoon();
    return { value: held.state(current), bookmark: null };
  }
  if (current || store.deleted()) return "taken";
  store.transition((write) => {
    write.create(created.session, created.shard, created.keys, created.authorities);
    write.keepWebhooks(created.webhooks, created.webhooks.length > 0);
  });
  // Answered now, pushed meanwhile; the push's end sets the alarm for the session's expiry. Until
  // then the alarm is due just after the push: a push lost with the process is made within seconds.
  held.guardPush(0);
  held.pushSoon();
  return { value: null, bookmark: null };
}

export function sessionDetail(held: HeldSession, scope: SessionScope): SessionState | null {
  const session = held.store.session();
  return inScope(session, scope) ? held.state(session) : null;
}

/** An event as a call answers it: its payload as JSON text (what RPC carries of any value). */
export type AnsweredEvent = Omit<OutboxEvent, "payload"> & { payload: string };

/**
 * The session and its events D1 has not acknowledged (a push under way may carry them), for a
 * read that shows the caller's own writes without waiting (domain/own-writes.ts).
 */
export function unacknowledgedEvents(
  held: HeldSession,
  scope: SessionScope,
): { session: SessionRow; events: AnsweredEvent[] } | null {
  const session = held.store.session();
  if (!inScope(session, scope)) return null;
  const events = held.store.eventsSince(held.store.pushed().version);
  return {
    session,
    events: events.map((event) => ({ ...event, payload: JSON.stringify(event.payload) })),
  };
}

/** One transition of the session in the caller's scope; not found out of it. */
function changeInScope(
  held: HeldSession,
  scope: SessionScope,
  change: (session: SessionRow, write: SessionWriter) => Outcome<SessionRow>,
): Outcome<SessionRow> {
  return held.store.transition((write) => {
    const session = held.store.session();
    return inScope(session, scope) ? change(session, write) : notFound();
  });
}

export async function updateSession(
  held: HeldSession,
  scope: SessionScope,
  patch: SessionPatch,
  now: string,
): Promise<ScopedOutcome<SessionState>> {
  const outcome = changeInScope(held, scope, (session, write) => {
    const refusal = patchRefusal(session, patch.maxAttempts);
    if (refusal) return refusal;
    return { ok: true, value: write.session({ ...patch, updatedAt: now }) };
  });
  if (!outcome.ok) return outcome;
  // A new expiry is set by the push's end (written), with whatever else is due.
  return held.written(outcome.value);
}

export async function completeSession(
  held: HeldSession,
  scope: SessionScope,
  now: string,
): Promise<ScopedOutcome<SessionState>> {
  const outcome = changeInScope(held, scope, (session, write) => {
    const status = completionStatus(session);
    if (!status.ok) return status;
    write.events([statusChanged(session, status.value)], new Date(now));
    const changes = { status: status.value, completedAt: now, updatedAt: now };
    return { ok: true, value: write.session(changes) };
  });
  if (!outcome.ok) return outcome;
  return held.written(outcome.value);
}

/**
 * Erases a closed session's personal data here and, with the push, in D1; a second
 * call answers the same. Events D1 does not have yet go in the same push, before the statements
 * that rewrite the session's events there (index-push.ts), so they are redacted with the rest.
 */
export async function redactSession(
  held: HeldSession,
  scope: SessionScope,
  now: string,
): Promise<ScopedOutcome<SessionState>> {
  const { store } = held;
  const session = store.session();
  if (!inScope(session, scope)) return notFound();
  if (session.redactedAt !== null) return held.written(session);
  const refusal = redactionRefusal(session);
  if (refusal) return refusal;
  const redacted = store.transition((write) => {
    write.events([sessionRedacted(session, now)], new Date(now));
    return write.redact(now);
  });
  return held.written(redacted);
}

/**
 * Deletes the session: its rows here at once (a tombstone, which answers 404), D1's (its events
 * too) with the push, after which the object keeps nothing of it (else its alarm retries both).
 */
export async function removeSession(
  held: HeldSession,
  scope: SessionScope,
): Promise<ScopedOutcome<null>> {
  const { store } = held;
  const session = store.session();
  if (!inScope(session, scope)) return notFound();
  store.transition((write) => write.delete());
  held.watchers.closeAll("The session was deleted");
  held.guardPush(0);
  held.pushSoon(() => held.ending.retireIfDone(Date.now()));
  return { ok: true as const, value: { value: null, bookmark: null } };
}
