import type { SessionRow } from "../db/sessions.ts";
import type { SessionKind, SessionStatus } from "../protocol/messages.ts";

/** The answer of a session transition: the new state, or why it was refused. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 404 | 409; detail: string; location?: string };

export const refused = (status: 400 | 404 | 409, detail: string, location?: string) =>
  ({ ok: false, status, detail, location }) as const;

/** Which session a caller means; a session outside it does not exist for that caller. */
export interface SessionScope {
  sessionId: string;
  projectId: string;
  kind: SessionKind;
  /** A key of the other mode finds nothing: 404, never 403. */
  livemode: boolean;
}

export function inScope(
  session: SessionRow | undefined,
  scope: SessionScope,
): session is SessionRow {
  // The whole id: an object is found by the id's last characters, which other ids can share.
  return (
    session !== undefined &&
    session.id === scope.sessionId &&
    session.projectId === scope.projectId &&
    session.kind === scope.kind &&
    session.livemode === scope.livemode
  );
}

/** A session accepts connections and changes until it is closed; closing sets `completed_at`. */
export function isOpen(session: SessionRow): boolean {
  return session.completedAt === null;
}

/** `POST .../complete/`: only a multi-connection session, only while open. */
export function completionStatus(session: SessionRow): Outcome<SessionStatus> {
  if (!session.multiConnection) {
    return refused(
      409,
      "Only a multi-connection session can be completed; this one completes by itself",
    );
  }
  if (!isOpen(session))
    return refused(409, `The session is already closed (status ${session.status})`);
  if (session.kind === "collect") return { ok: true, value: "completed" };
  return { ok: true, value: session.verifiedAt !== null ? "verified" : "failed" };
}

/** Expiry closes an open session; a verified one keeps its result. */
export function expiryStatus(session: SessionRow): SessionStatus {
  return session.status === "verified" ? "verified" : "expired";
}

export function patchRefusal(session: SessionRow, maxAttempts: number | undefined) {
  if (!isOpen(session))
    return refused(409, `Only an open session can be changed (status ${session.status})`);
  if (maxAttempts !== undefined && maxAttempts <= session.failedAttempts) {
    return refused(
      400,
      `max_attempts must be greater than the ${session.failedAttempts} failed attempts already made`,
      "body.max_attempts",
    );
  }
  return null;
}
