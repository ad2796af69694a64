import type { SessionRow } from "../db/sessions.ts";
import { signAttestation } from "../domain/attestations.ts";
import { connectionRefusal, newConnectionEvent } from "../domain/connection-rules.ts";
import { expectedAccounts } from "../domain/forges.ts";
import {
  CONTINUE_WINDOW_MS,
  type ContinueRefusal,
  type Watcher,
} from "../domain/proof-continue.ts";
import { type ProofStatus, userDone } from "../domain/proof-status.ts";
import { consumeSlidingWindow } from "../domain/rate-limit.ts";
import type {
  ConnectionReport,
  ConnectionStart,
  ScopedOutcome,
  SessionScope,
  SessionState,
  SignatureOutcome,
  SignatureSubmission,
  SimulatedStep,
} from "../domain/session-commands.ts";
import { inScope, isOpen, refused } from "../domain/session-rules.ts";
import { proofLinks } from "../domain/session-views.ts";
import { readSignature, SIGNATURE_LIMITS } from "../domain/signature-proofs.ts";
import { simulatedTouch } from "../domain/simulated-keys.ts";
import type { ProvenKeyView } from "../protocol/key-outcomes.ts";
import {
  CONNECTION_LEASE_MS,
  type ConnectionStatusResponse,
  type FinishConnectionResponse,
  type OpenConnectionResponse,
} from "../protocol/messages.ts";
import { REFUSALS } from "../protocol/terminal.ts";
import { continueUrl } from "../schemas/return-url.ts";
import { notFound } from "./api-changes.ts";
import {
  closeLapsed,
  finishClosed,
  newConnection,
  recordFinish,
  recordSignature,
  reportedBefore,
} from "./connection-transitions.ts";
import type { HeldSession } from "./held-session.ts";
import {
  connectionRulesOf,
  parseOffered,
  parseProvenKeys,
  securityKeysOf,
} from "./proof-inputs.ts";

/**
 * What the user does to the session a session's object holds: connections opened, kept alive and
 * finished (the bridge's reports, or a test helper's), a detached signature sent, and the proof
 * page shown and continued. These answer without waiting for D1: the push follows.
 */

/** Key-value entry: when the proof page continued to the return URL (once only). */
const CONTINUED = "continued";

/** A connection opens, as the bridge or a test helper reports it. */
export function openConnection(held: HeldSession, start: ConnectionStart): OpenConnectionResponse {
  const { store } = held;
  const now = new Date();
  const opened = store.transition((write) => {
    const session = store.session();
    if (!session) return { accepted: false as const, reason: "unknown" as const };
    closeLapsed(store, write, session, now);
    const refusal = connectionRefusal(session, store.inProgress(now.getTime()).length);
    if (refusal) return { accepted: false as const, reason: refusal };
    const connection = newConnection(session, "ssh", start, now);
    write.addConnection(connection, {
      leaseUntil: now.getTime() + CONNECTION_LEASE_MS,
      rules: connectionRulesOf(session),
    });
    write.events([newConnectionEvent(session, connection)], now);
    write.session({ updatedAt: now.toISOString() });
    return { accepted: true as const, session, connection };
  });
  if (!opened.accepted) return opened;
  held.afterChange();
  const { session, connection } = opened;
  const given = store.given();
  return {
    accepted: true,
    session_id: session.id,
    connection_id: connection.id,
    kind: session.kind,
    multi_key: session.multiKey,
    must_confirm: session.mustConfirm,
    ssh_banner: session.sshBanner,
    ssh_message: session.sshMessage,
    expired_at: session.expiredAt,
    expected_fingerprints: given.keys.map((key) => key.publicKeySha256),
    expected_accounts: expectedAccounts(held.env, given.keys),
    authority_fingerprints: given.authorities.map((key) => key.publicKeySha256),
    principal: session.principal,
    require_security_key: session.requireSecurityKey,
    require_user_verification: session.requireUserVerification,
  };
}

/** A connection finishes, as the bridge or a test helper reports it; null if unknown here. */
export async function finishConnection(
  held: HeldSession,
  connectionId: string,
  report: ConnectionReport,
): Promise<FinishConnectionResponse | null> {
  const { store } = held;
  const connectionHeld = store.connection(connectionId);
  const session = store.session();
  if (!session || !connectionHeld) return null;
  const before = reportedBefore(held.env, store, session, connectionHeld);
  if (before) return before;
  const at = new Date();
  const proven =
    connectionHeld.outcome === "in_progress"
      ? parseProvenKeys(report.keys, at, connectionHeld.ipAddress)
      : [];
  const counters = await held.counters(session, securityKeysOf(proven));
  const response = store.transition((write) => {
    const now = store.session();
    const connection = store.connection(connectionId);
    if (!now || !connection) return null;
    // A connection that lapsed, or whose session closed, keeps nothing of a late report.
    const lapsed = connection.leaseUntil === null || connection.leaseUntil <= at.getTime();
    if (connection.outcome !== "in_progress" || lapsed || !isOpen(now))
      return finishClosed(write, now, connection, at);
    return recordFinish(held.env, store, write, now, connection, {
      proven,
      offered: report.keysOffered,
      refusals: report.refusals,
      confirmed: report.confirmed,
      interrupted: report.interrupted === true,
      counters,
      at,
    });
  });
  held.afterChange();
  return response;
}

/**
 * The connection's bridge says it lives: its place is held for another lease. With `keys`, the
 * bridge is asking the user to confirm them, and the proof page says so.
 */
export function keepConnection(
  held: HeldSession,
  connectionId: string,
  keys: ProvenKeyView[] | undefined,
) {
  const renewed = held.store.renewLease(connectionId, Date.now() + CONNECTION_LEASE_MS);
  if (renewed && keys) {
    held.store.markConfirming(connectionId, keys);
    held.announce();
  }
}

export function connectionStatus(held: HeldSession): ConnectionStatusResponse | null {
  const session = held.store.session();
  if (!session) return null;
  return { open: isOpen(session), status: session.status, expired_at: session.expiredAt };
}

/**
 * The proof page's continue step (domain/proof-continue.ts): the `return_url` with the result,
 * once for each browser that had the page open before the user got done (`watcher`).
 */
export async function continueTo(
  held: HeldSession,
  watcher: Watcher,
  now: number,
): Promise<{ url: string } | { refused: ContinueRefusal } | null> {
  const session = held.store.session();
  if (!session) return null;
  if (!session.returnUrl) return { refused: "no_return_url" };
  const { keys } = held.store.connections();
  if (!userDone(session, keys.length)) return { refused: "not_done" };
  const doneAt = session.completedAt
    ? Date.parse(session.completedAt)
    : Math.min(...keys.map((key) => Date.parse(key.createdAt)));
  if (watcher.since >= doneAt) return { refused: "not_watched" };
  if (now - doneAt > CONTINUE_WINDOW_MS) return { refused: "too_late" };
  // Once per browser that watched: another's use takes nothing from this one's.
  const kv = held.storage.kv;
  const used = `${CONTINUED}:${watcher.id}`;
  if (kv.get(used) !== undefined) return { refused: "used" };
  kv.put(used, now);
  const attestation = isOpen(session)
    ? ((await signAttestation(held.env, held.state(session)))?.token ?? null)
    : await held.endingAttestation(session);
  return {
    url: continueUrl(session.returnUrl, {
      sessionId: session.id,
      status: session.status,
      attestation,
    }),
  };
}

/** What the hosted proof page shows, and the session it is for; null once there is none. */
export async function proofPage(
  held: HeldSession,
): Promise<{ session: SessionRow; status: ProofStatus } | null> {
  const session = held.store.session();
  return session ? { session, status: await held.proofStatus(session) } : null;
}

/**
 * A proof sent as a detached signature: checked here against the session's own
 * challenge, then recorded as a connection that opened and finished at once, under the
 * session's rules of the moment, having offered the one signing key.
 */
export async function proveBySignature(
  held: HeldSession,
  submission: SignatureSubmission,
): Promise<SignatureOutcome> {
  const { store } = held;
  const session = store.session();
  if (!session) return { recorded: false, status: 404, detail: REFUSALS.unknown };
  const limit = consumeSlidingWindow(held.signatureHits, SIGNATURE_LIMITS.perSession, Date.now());
  if (!limit.allowed) {
    return {
      recorded: false,
      status: 429,
      detail: `Too many signatures sent; try again in ${limit.retryAfter} seconds.`,
      retryAfter: limit.retryAfter,
    };
  }
  // A closed session is the news, whatever was sent.
  const closed = connectionRefusal(session, 0);
  if (closed) return { recorded: false, status: 409, detail: REFUSALS[closed] };
  const signature = readSignature(submission.armored, session.signatureChallenge);
  if ("problem" in signature) return { recorded: false, status: 400, detail: signature.problem };
  const at = new Date();
  const parsed = parseOffered(signature.key, at, submission.ipAddress);
  const signing =
    "key" in parsed ? [{ key: parsed.key, authenticator: signature.authenticator }] : [];
  const counters = await held.counters(session, securityKeysOf(signing));
  const outcome = store.transition((write) =>
    recordSignature(held.env, store, write, session, {
      submission,
      signature,
      parsed,
      signing,
      counters,
      at,
    }),
  );
  if (!outcome.recorded) return outcome;
  held.afterChange();
  // The user continues on the proof page, in the browser that watched the proof.
  const after = store.session();
  const status = after ? await held.proofStatus(after) : null;
  const page = after ? proofLinks(held.env, after).proof_url : null;
  return { ...outcome, continueUrl: status?.continues ? page : null };
}

/**
 * A test session driven as a user would drive it: a connection opened and finished
 * through the same steps as the bridge's, or its expiry brought forward and run as the alarm runs
 * it. A live session is not found; the session's own rules answer the rest.
 */
export async function simulate(
  held: HeldSession,
  scope: SessionScope,
  step: SimulatedStep,
): Promise<ScopedOutcome<SessionState>> {
  const { store } = held;
  const session = store.session();
  if (!inScope(session, scope) || session.livemode) return notFound();
  if (step.kind === "expire") {
    if (!isOpen(session))
      return refused(409, `The session is already closed (status ${session.status})`);
    const now = new Date();
    store.transition((write) => write.session({ expiredAt: now.toISOString() }));
    held.expireIfDue(now);
    return held.written(store.session() ?? session);
  }
  if (step.confirmed === false && !session.mustConfirm)
    return refused(
      409,
      "Only a session with must_confirm asks its user to confirm, so there is nothing to decline",
    );
  const opened = openConnection(held, step.start);
  if (!opened.accepted) return refused(409, REFUSALS[opened.reason]);
  const keys =
    step.keys === "configured"
      ? store.given().keys.map((key) => ({
          key: key.publicKeySsh.split(" ")[1] ?? "",
          security_key: key.securityKey ? simulatedTouch() : null,
        }))
      : step.keys;
  await finishConnection(held, opened.connection_id, {
    keys,
    keysOffered: Math.max(keys.length, step.keysOffered),
    refusals: step.refusals,
    confirmed: session.mustConfirm ? step.confirmed !== false : null,
  });
  return held.written(store.session() ?? session);
}
