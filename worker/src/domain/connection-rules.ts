import type { ConnectionRow, SessionKeyRow, SessionRow } from "../db/sessions.ts";
import type { ConnectionResult, RefusalReason } from "../protocol/messages.ts";
import {
  keyStanding,
  type ProofRules,
  presenceRefusal,
  provenSecurityKey,
} from "../protocol/proof-rules.ts";
import type { ParsedPublicKey } from "../protocol/public-keys.ts";
import type { AuthenticatorData } from "../protocol/signatures.ts";
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

/** A key the bridge proved, with what its security key reported (null for other keys). */
export interface ProvenKey {
  key: ParsedPublicKey;
  authenticator: AuthenticatorData | null;
}

export interface FinishInput {
  session: SessionRow;
  /** The rules as they stood when the connection opened. */
  rules: ProofRules;
  /** `must_confirm` as it stood when the connection opened. */
  mustConfirm: boolean;
  configured: SessionKeyRow[];
  /** SHA-256 fingerprints already collected in this session. */
  collected: Set<string>;
  proven: ProvenKey[];
  /** The last counter recorded in this project for each proven security key, by fingerprint. */
  lastCounters: Map<string, number>;
  /** Distinct keys offered, including ones never proven because they were not expected. */
  offered: number;
  confirmed: boolean | null;
  /** The bridge cut the connection short (it is restarting): not the user's doing. */
  interrupted?: boolean;
  now: Date;
}

export interface FinishDecision {
  outcome: ConnectionResult;
  /** Keys to store on the connection. */
  record: ParsedPublicKey[];
  /** Configured keys proven for the first time. */
  newlyVerified: SessionKeyRow[];
  sessionChanges: Partial<SessionRow>;
  keys: { sha256: string; algorithm: string; bits: number; certified: boolean; new: boolean }[];
  remainingKeys: number;
}

interface CountedKey {
  key: ParsedPublicKey;
  /** One of the session's configured keys (or any key, when collecting). */
  expected: boolean;
  /** Certified by one of the session's trusted CAs. */
  trusted: boolean;
}

/**
 * The proven keys that count under the connection's rules (the bridge asked the same questions;
 * this is the record's own check), each once, a certificate preferred over its bare key.
 */
function countedKeys(input: FinishInput): CountedKey[] {
  const counted = new Map<string, CountedKey>();
  for (const { key, authenticator } of input.proven) {
    const standing = keyStanding(input.rules, key);
    if (!standing.counts || presenceRefusal(input.rules, key, authenticator)) continue;
    const lastCounter = input.lastCounters.get(key.publicKeySha256) ?? null;
    const securityKey = authenticator
      ? provenSecurityKey(key, authenticator, lastCounter)
      : key.securityKey;
    const earlier = counted.get(key.publicKeySha256);
    if (earlier?.key.certificate && !key.certificate) continue;
    counted.set(key.publicKeySha256, {
      key: { ...key, securityKey },
      expected: standing.expected,
      trusted: standing.trusted || earlier?.trusted === true,
    });
  }
  return [...counted.values()];
}

/** What a finished connection changes, per the transition table in docs/sessions.md. */
export function decideFinish(input: FinishInput): FinishDecision {
  const { session } = input;
  const now = input.now.toISOString();
  const counted = countedKeys(input);
  const proven = counted.map(({ key }) => key);
  const declined = input.mustConfirm && input.confirmed !== true;
  const summary = (key: ParsedPublicKey, isNew: boolean) => ({
    sha256: key.publicKeySha256,
    algorithm: key.publicKeyAlgorithm,
    bits: key.publicKeyBits,
    certified: key.certificate !== null,
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

  // Cut before anything counted, or before the user answered: nobody failed or declined.
  if (input.interrupted && (counted.length === 0 || declined))
    return { ...base, outcome: "interrupted" };

  if (session.kind === "collect") {
    if (proven.length === 0) return { ...base, outcome: "no_key" };
    if (declined) return { ...base, outcome: "declined" };
    const isNew = (key: ParsedPublicKey) => !input.collected.has(key.publicKeySha256);
    // A key collected before is kept once more only when its counter went back: a cloned key
    // must show up, though the session already holds the key.
    const record = proven.filter(
      (key) => isNew(key) || key.securityKey?.counter_regressed === true,
    );
    const sessionChanges: Partial<SessionRow> = { updatedAt: now };
    if (!session.multiConnection)
      Object.assign(sessionChanges, { status: "completed", completedAt: now });
    return {
      ...base,
      outcome: "collected",
      record,
      sessionChanges,
      keys: proven.map((key) => summary(key, isNew(key))),
    };
  }

  const byFingerprint = new Map(input.configured.map((key) => [key.publicKeySha256, key]));
  // Trusted CAs count as one more key to prove, until a certificate from one has been.
  const authorityOwed =
    input.rules.authorities.length > 0 && session.certificateVerifiedAt === null;
  const unverifiedBefore =
    input.configured.filter((key) => key.verifiedAt === null).length + (authorityOwed ? 1 : 0);
  // A client that offered no key at all (a mistyped `-i` path, an empty agent) tried nothing:
  // it is told how to offer one, and no attempt is used up.
  if (input.proven.length === 0 && input.offered === 0 && !input.interrupted)
    return { ...base, outcome: "no_key", remainingKeys: unverifiedBefore };
  if (declined || counted.length === 0) {
    const failedAttempts = session.failedAttempts + 1;
    const sessionChanges: Partial<SessionRow> = { failedAttempts, updatedAt: now };
    if (session.status === "pending" && failedAttempts >= session.maxAttempts) {
      Object.assign(sessionChanges, { status: "failed", completedAt: now });
    }
    const anyOffered = input.proven.length > 0 || input.offered > 0;
    const outcome = counted.length > 0 ? "declined" : anyOffered ? "no_match" : "no_key";
    return { ...base, outcome, sessionChanges, remainingKeys: unverifiedBefore };
  }

  const newlyVerified = counted
    .map(({ key }) => byFingerprint.get(key.publicKeySha256))
    .filter((key): key is SessionKeyRow => key !== undefined && key.verifiedAt === null);
  const authorityNow = authorityOwed && counted.some(({ trusted }) => trusted);
  const remainingKeys = unverifiedBefore - newlyVerified.length - (authorityNow ? 1 : 0);
  const sessionChanges: Partial<SessionRow> = { updatedAt: now };
  if (authorityNow) sessionChanges.certificateVerifiedAt = now;
  if (session.status === "pending" && (!session.matchAllKeys || remainingKeys === 0)) {
    Object.assign(sessionChanges, { status: "verified", verifiedAt: now });
    if (!session.multiConnection) sessionChanges.completedAt = now;
  }
  const isNew = ({ key, trusted }: CountedKey) =>
    (trusted && authorityNow) ||
    newlyVerified.some((v) => v.publicKeySha256 === key.publicKeySha256);
  return {
    ...base,
    outcome: "verified",
    record: proven,
    newlyVerified,
    sessionChanges,
    keys: counted.map((entry) => summary(entry.key, isNew(entry))),
    remainingKeys,
  };
}

/**
 * A connection whose bridge never reported before its lease ended (the bridge died): closed as
 * `disconnected` at the lease's end, with nothing kept and no attempt counted.
 */
export function lapsedEvent(session: SessionRow, connection: ConnectionRow): PlannedEvent {
  return {
    type: "connection_interrupted",
    payload: { ...connectionPayload(session, connection), reason: "disconnected" },
  };
}

function connectionPayload(session: SessionRow, connection: ConnectionRow) {
  return {
    ...sessionPayload(session),
    [`${session.kind}_connection_id`]: connection.id,
    method: connection.method,
  };
}

export function newConnectionEvent(session: SessionRow, connection: ConnectionRow): PlannedEvent {
  return {
    type: "new_connection",
    payload: {
      ...connectionPayload(session, connection),
      ip_address: connection.ipAddress,
      client_version: connection.clientVersion,
    },
  };
}

/**
 * The events a finished connection emits, in the order a receiver should see them. A verified
 * key names the forge account of the configured key it matched (`source`), from `configured`.
 */
export function finishEvents(
  session: SessionRow,
  connection: ConnectionRow,
  decision: FinishDecision,
  recorded: (ParsedPublicKey & { id: string })[],
  configured: readonly Pick<SessionKeyRow, "publicKeySha256" | "source">[] = [],
): PlannedEvent[] {
  const planned: PlannedEvent[] = [];
  const base = connectionPayload(session, connection);
  if (session.kind === "collect") {
    for (const key of recorded)
      planned.push({ type: "key_collected", payload: { ...base, key: keyPayload(key) } });
  }
  if (decision.outcome === "interrupted")
    planned.push({ type: "connection_interrupted", payload: { ...base, reason: "restarting" } });
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
    const sourceOf = new Map(configured.map((key) => [key.publicKeySha256, key.source]));
    const keys = recorded.map((key) => ({
      ...keyPayload(key),
      source: sourceOf.get(key.publicKeySha256) ?? null,
    }));
    planned.push({ type: "verified", payload: { ...base, keys } });
  }
  if (changes.status !== undefined && changes.status !== session.status)
    planned.push(statusChanged(session, changes.status));
  return planned;
}
