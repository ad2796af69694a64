import type { ConnectionRow, SessionRow } from "../db/sessions.ts";
import {
  connectionRefusal,
  decideFinish,
  finishEvents,
  lapsedEvent,
  newConnectionEvent,
  type ProvenKey,
} from "../domain/connection-rules.ts";
import { expectedAccounts } from "../domain/forges.ts";
import type {
  ConnectionReport,
  ConnectionStart,
  SignatureOutcome,
  SignatureSubmission,
} from "../domain/session-commands.ts";
import type { VerifiedSignature } from "../domain/signature-proofs.ts";
import type { Env } from "../env.ts";
import { newId, newSignatureChallenge } from "../lib/ids.ts";
import { fingerprints } from "../protocol/key-material.ts";
import { type OfferedKey, uncountedReasons } from "../protocol/key-outcomes.ts";
import type { FinishConnectionResponse } from "../protocol/messages.ts";
import { judgeKey, judgeProof } from "../protocol/proof-rules.ts";
import { REFUSALS } from "../protocol/terminal.ts";
import { connectionRulesOf, type parseOffered, proofRulesOf } from "./proof-inputs.ts";
import { type HeldConnection, indexRowOf, type SessionStore } from "./session-store.ts";
import type { SessionWriter } from "./session-writer.ts";

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

/** Outcomes a bridge's report decided: the same report again is answered with them. */
const REPORTED = new Set<string>(["collected", "verified", "no_match", "no_key", "declined"]);

/**
 * The bridge reported this connection's end before, and asks again because it never heard the
 * answer (the Worker restarted under it): the answer as recorded then, written nothing again,
 * so the user is told what happened rather than that nothing did. Null when the connection did
 * not end by a report (still in progress, lapsed, expired).
 */
export function reportedBefore(
  env: Env,
  store: SessionStore,
  session: SessionRow,
  connection: HeldConnection,
): FinishConnectionResponse | null {
  if (!REPORTED.has(connection.outcome)) return null;
  const given = store.given();
  const recorded = store.connections().keys.filter((key) => key.connectionId === connection.id);
  const verifiedBy = (sha256: string) =>
    given.keys.some(
      (key) => key.publicKeySha256 === sha256 && key.verifiedAt === connection.closedAt,
    );
  const authorityOwed =
    given.authorities.length > 0 && session.certificateVerifiedAt === null ? 1 : 0;
  return {
    outcome: connection.outcome as FinishConnectionResponse["outcome"],
    session_status: session.status,
    keys: recorded.map((key) => ({
      sha256: key.publicKeySha256,
      algorithm: key.publicKeyAlgorithm,
      bits: key.publicKeyBits,
      certified: key.certificate !== null,
      new: session.kind === "collect" || verifiedBy(key.publicKeySha256),
    })),
    failed_attempts: session.failedAttempts,
    max_attempts: session.maxAttempts,
    remaining_keys: given.keys.filter((key) => key.verifiedAt === null).length + authorityOwed,
    expected_accounts: expectedAccounts(env, given.keys),
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

/** What a signature proof brings to its transaction (session-object.ts `proveBySignature`). */
export interface SignatureProof {
  submission: SignatureSubmission;
  signature: VerifiedSignature;
  /** The signing key as parsed, or why it cannot be used. */
  parsed: ReturnType<typeof parseOffered>;
  /** The signing key with its authenticator's report, when it parsed. */
  signing: ProvenKey[];
  counters: Map<string, number>;
  at: Date;
}

/**
 * A signature sent to the signature URL, recorded as a connection that opened and
 * finished at once, under the session's rules of the moment, having offered the one signing key;
 * refused as `ssh` would be when the session cannot take it, or when another proof used the
 * challenge since it was read (`checked`).
 */
export function recordSignature(
  env: Env,
  store: SessionStore,
  write: SessionWriter,
  checked: SessionRow,
  proof: SignatureProof,
): SignatureOutcome {
  const { submission, signature, parsed, signing, counters, at } = proof;
  const now = store.session();
  if (!now) return { recorded: false, status: 404, detail: REFUSALS.unknown };
  closeLapsed(store, write, now, at);
  const refusal = connectionRefusal(now, store.inProgress(at.getTime()).length);
  if (refusal) return { recorded: false, status: 409, detail: REFUSALS[refusal] };
  if (now.signatureChallenge !== checked.signatureChallenge) {
    const detail =
      "Another proof used this challenge a moment ago; take the command again for a new one.";
    return { recorded: false, status: 409, detail };
  }
  const rules = connectionRulesOf(now);
  const proofRules = proofRulesOf(now, store.given(), rules);
  let offered: OfferedKey = judgeKey(
    proofRules,
    fingerprints(signature.key).publicKeySha256,
    parsed,
  );
  if ("key" in parsed && offered.fate === "unproven")
    offered = judgeProof(proofRules, offered, parsed.key, signature.authenticator);
  const connection = newConnection(now, "signature", submission, at);
  const held = { ...connection, leaseUntil: null, rules, confirming: null };
  write.addConnection(connection, held);
  write.events([newConnectionEvent(now, connection)], at);
  const response = recordFinish(env, store, write, now, held, {
    proven: offered.fate === "proven" ? signing : [],
    offered: 1,
    refusals: uncountedReasons([offered]),
    // Signing the challenge is the act of confirming.
    confirmed: true,
    counters,
    at,
  });
  return {
    recorded: true,
    kind: now.kind,
    response,
    offered,
    sshMessage: now.sshMessage,
    continueUrl: null,
  };
}
