import type { ConnectionRow, SessionKeyRow, SessionRow } from "../db/sessions.ts";
import type { ConnectionResult, RefusalReason } from "../protocol/messages.ts";
import type { ParsedPublicKey } from "../protocol/public-keys.ts";
import { keyPayload, type PlannedEvent, sessionPayload, statusChanged } from "./events.ts";
import { isOpen } from "./session-rules.ts";

/** Why a new connection cannot start, or null when it can. */
export function connectionRefusal(
  session: SessionRow,
  activeConnections: number,
): RefusalReason | null {
  if (!isOpen(session)) {
    if (session.status === "pending") return "expired";
    return session.status as RefusalReason;
  }
  if (!session.multiConnection && activeConnections > 0) return "busy";
  return null;
}

export interface FinishInput {
  session: SessionRow;
  /** `must_confirm` as it stood when the connection opened. */
  mustConfirm: boolean;
  configured: SessionKeyRow[];
  /** SHA-256 fingerprints already collected in this session. */
  collected: Set<string>;
  proven: ParsedPublicKey[];
  /** Distinct keys offered, including ones never proven because they were not expected. */
  offered: number;
  confirmed: boolean | null;
  now: string;
}

export interface FinishDecision {
  outcome: ConnectionResult;
  /** Keys to store on the connection. */
  record: ParsedPublicKey[];
  /** Configured keys proven for the first time. */
  newlyVerified: SessionKeyRow[];
  sessionChanges: Partial<SessionRow>;
  keys: { sha256: string; algorithm: string; bits: number; new: boolean }[];
  remainingKeys: number;
}

function uniqueByFingerprint(keys: ParsedPublicKey[]): ParsedPublicKey[] {
  return [...new Map(keys.map((key) => [key.publicKeySha256, key])).values()];
}

/** What a finished connection changes, per the transition table in docs/sessions.md. */
export function decideFinish(input: FinishInput): FinishDecision {
  const { session, now } = input;
  const proven = uniqueByFingerprint(input.proven);
  const declined = input.mustConfirm && input.confirmed !== true;
  const summary = (key: ParsedPublicKey, isNew: boolean) => ({
    sha256: key.publicKeySha256,
    algorithm: key.publicKeyAlgorithm,
    bits: key.publicKeyBits,
    new: isNew,
  });
  // Every finished connection changes the session's record, so updated_at always moves.
  const base = {
    record: [],
    newlyVerified: [],
    sessionChanges: { updatedAt: now },
    keys: [],
    remainingKeys: 0,
  };

  if (session.kind === "collect") {
    if (proven.length === 0) return { ...base, outcome: "no_key" };
    if (declined) return { ...base, outcome: "declined" };
    const fresh = proven.filter((key) => !input.collected.has(key.publicKeySha256));
    const sessionChanges: Partial<SessionRow> = { updatedAt: now };
    if (!session.multiConnection)
      Object.assign(sessionChanges, { status: "completed", completedAt: now });
    return {
      ...base,
      outcome: "collected",
      record: fresh,
      sessionChanges,
      keys: proven.map((key) => summary(key, fresh.includes(key))),
    };
  }

  const byFingerprint = new Map(input.configured.map((key) => [key.publicKeySha256, key]));
  const matched = proven.filter((key) => byFingerprint.has(key.publicKeySha256));
  const unverifiedBefore = input.configured.filter((key) => key.verifiedAt === null);
  if (declined || matched.length === 0) {
    const failedAttempts = session.failedAttempts + 1;
    const sessionChanges: Partial<SessionRow> = { failedAttempts, updatedAt: now };
    if (session.status === "pending" && failedAttempts >= session.maxAttempts) {
      Object.assign(sessionChanges, { status: "failed", completedAt: now });
    }
    const anyOffered = proven.length > 0 || input.offered > 0;
    const outcome = matched.length > 0 ? "declined" : anyOffered ? "no_match" : "no_key";
    return { ...base, outcome, sessionChanges, remainingKeys: unverifiedBefore.length };
  }

  const newlyVerified = matched
    .map((key) => byFingerprint.get(key.publicKeySha256))
    .filter((key): key is SessionKeyRow => key !== undefined && key.verifiedAt === null);
  const remainingKeys = unverifiedBefore.length - newlyVerified.length;
  const sessionChanges: Partial<SessionRow> = { updatedAt: now };
  if (session.status === "pending" && (!session.matchAllKeys || remainingKeys === 0)) {
    Object.assign(sessionChanges, { status: "verified", verifiedAt: now });
    if (!session.multiConnection) sessionChanges.completedAt = now;
  }
  return {
    ...base,
    outcome: "verified",
    record: matched,
    newlyVerified,
    sessionChanges,
    keys: matched.map((key) =>
      summary(
        key,
        newlyVerified.some((v) => v.publicKeySha256 === key.publicKeySha256),
      ),
    ),
    remainingKeys,
  };
}

function connectionPayload(session: SessionRow, connectionId: string) {
  return { ...sessionPayload(session), [`${session.kind}_connection_id`]: connectionId };
}

export function newConnectionEvent(session: SessionRow, connection: ConnectionRow): PlannedEvent {
  return {
    type: "new_connection",
    payload: {
      ...connectionPayload(session, connection.id),
      ip_address: connection.ipAddress,
      client_version: connection.clientVersion,
    },
  };
}

/** The events a finished connection emits, in the order a receiver should see them. */
export function finishEvents(
  session: SessionRow,
  connectionId: string,
  decision: FinishDecision,
  recorded: (ParsedPublicKey & { id: string })[],
): PlannedEvent[] {
  const planned: PlannedEvent[] = [];
  const base = connectionPayload(session, connectionId);
  if (session.kind === "collect") {
    for (const key of recorded)
      planned.push({ type: "key_collected", payload: { ...base, key: keyPayload(key) } });
  }
  const changes = decision.sessionChanges;
  if (changes.failedAttempts !== undefined) {
    planned.push({
      type: "failed_attempt",
      payload: {
        ...base,
        outcome: decision.outcome,
        failed_attempts: changes.failedAttempts,
        max_attempts: session.maxAttempts,
      },
    });
  }
  if (changes.status === "verified") {
    planned.push({ type: "verified", payload: { ...base, keys: recorded.map(keyPayload) } });
  }
  if (changes.status !== undefined && changes.status !== session.status)
    planned.push(statusChanged(session, changes.status));
  return planned;
}
