import type { ConnectionRow, SessionRow } from "../db/sessions.ts";
import {
  decideFinish,
  finishEvents,
  lapsedEvent,
  type ProvenKey,
} from "../domain/connection-rules.ts";
import { expectedAccounts } from "../domain/forges.ts";
import type { ConnectionReport, ConnectionStart } from "../domain/session-commands.ts";
import type { Env } from "../env.ts";
import { newId, newSignatureChallenge } from "../lib/ids.ts";
import type { FinishConnectionResponse } from "../protocol/messages.ts";
import { proofRulesOf } from "./proof-inputs.ts";
import {
  type HeldConnection,
  indexRowOf,
  type SessionStore,
  type SessionWriter,
} from "./session-store.ts";

/**
 * How a connection's life is written into its session's object: opened, finished as its bridge
 * reported, closed with nothing kept (late, or its session closed), or lapsed (its bridge went
 * quiet). Each writes through the transition it is given (session-store.ts).
 */

export function newConnection(
  session: SessionRow,
  method: ConnectionRow["method"],
  start: ConnectionStart,
  at: Date,
): ConnectionRow {
  return {
    id: newId("con", at.getTime()),
    sessionId: session.id,
    method,
    ipAddress: start.ipAddress,
    clientVersion: start.clientVersion,
    createdAt: at.toISOString(),
    closedAt: null,
    confirmed: null,
    outcome: "in_progress",
    refusals: [],
    version: 0,
  };
}

/** A connection that ends after it lapsed or its session closed keeps nothing. */
export function finishClosed(
  write: SessionWriter,
  session: SessionRow,
  connection: HeldConnection,
  at: Date,
): FinishConnectionResponse {
  const expired = session.status === "expired" || connection.outcome === "expired";
  const outcome = expired ? "expired" : "closed";
  if (connection.outcome === "in_progress")
    write.changeConnections([connection.id], {
      outcome,
      closedAt: at.toISOString(),
      leaseUntil: null,
    });
  return {
    outcome,
    session_status: session.status,
    keys: [],
    failed_attempts: session.failedAttempts,
    max_attempts: session.maxAttempts,
    remaining_keys: 0,
    expected_accounts: [],
  };
}

/**
 * Decides and writes how a connection ended: its outcome, the keys it recorded, the configured
 * keys it verified, and the events. A signature proof that counted uses up the challenge.
 */
export function recordFinish(
  env: Env,
  store: SessionStore,
  write: SessionWriter,
  session: SessionRow,
  connection: HeldConnection,
  report: {
    proven: ProvenKey[];
    offered: number;
    refusals: ConnectionReport["refusals"];
    confirmed: boolean | null;
    interrupted?: boolean;
    counters: Map<string, number>;
    at: Date;
  },
): FinishConnectionResponse {
  const now = report.at.toISOString();
  const given = store.given();
  const decision = decideFinish({
    session,
    rules: proofRulesOf(session, given, connection.rules),
    mustConfirm: connection.rules.mustConfirm,
    configured: given.keys,
    collected: store.recordedFingerprints(),
    proven: report.proven,
    lastCounters: report.counters,
    offered: report.offered,
    confirmed: report.confirmed,
    interrupted: report.interrupted,
    now: report.at,
  });
  const recorded = decision.record.map((key) => ({
    id: newId("ck"),
    connectionId: connection.id,
    sessionId: session.id,
    ...key,
    createdAt: now,
  }));
  const finished = {
    outcome: decision.outcome,
    closedAt: now,
    confirmed: connection.rules.mustConfirm ? report.confirmed === true : null,
    refusals: report.refusals,
    leaseUntil: null,
  };
  const changes = { ...decision.sessionChanges };
  const counted = decision.outcome === "collected" || decision.outcome === "verified";
  if (connection.method === "signature" && counted)
    changes.signatureChallenge = newSignatureChallenge();
  write.changeConnections([connection.id], finished);
  write.addConnectionKeys(recorded);
  write.verifyKeys(
    decision.newlyVerified.map((key) => key.id),
    now,
  );
  write.events(
    finishEvents(session, { ...connection, ...finished }, decision, recorded, given.keys),
    report.at,
  );
  write.session(changes);
  return {
    outcome: decision.outcome,
    session_status: decision.sessionChanges.status ?? session.status,
    keys: decision.keys,
    failed_attempts: decision.sessionChanges.failedAttempts ?? session.failedAttempts,
    max_attempts: session.maxAttempts,
    remaining_keys: decision.remainingKeys,
    expected_accounts: expectedAccounts(env, given.keys),
  };
}

/**
 * Connections whose bridge went quiet end as disconnected when their lease ended, each with its
 * `connection_interrupted` event; the session goes on.
 */
export function closeLapsed(
  store: SessionStore,
  write: SessionWriter,
  session: SessionRow,
  now: Date,
) {
  for (const held of store.lapsed(now.getTime())) {
    const endedAt = new Date(held.leaseUntil ?? now.getTime());
    const closed = {
      outcome: "disconnected" as const,
      closedAt: endedAt.toISOString(),
      leaseUntil: null,
    };
    write.changeConnections([held.id], closed);
    write.events([lapsedEvent(session, { ...indexRowOf(held), ...closed })], endedAt);
  }
}
