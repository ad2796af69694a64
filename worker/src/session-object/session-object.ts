import { DurableObject } from "cloudflare:workers";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Database, database, insertInChunks, readTogether } from "../db/client.ts";
import {
  type ConnectionRow,
  connectionKeys,
  connections,
  lastCountersIn,
  type SessionAuthorityRow,
  type SessionKeyRow,
  type SessionRow,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import { type WebhookRow, webhooks } from "../db/webhooks.ts";
import {
  connectionRefusal,
  decideFinish,
  finishEvents,
  newConnectionEvent,
  type ProvenKey,
} from "../domain/connection-rules.ts";
import { type PlannedEvent, statusChanged } from "../domain/events.ts";
import { type ProofStatus, proofStatus } from "../domain/proof-status.ts";
import {
  completionStatus,
  expiryStatus,
  inScope,
  isOpen,
  type Outcome,
  patchRefusal,
  refused,
  type SessionScope,
} from "../domain/session-rules.ts";
import type { Env } from "../env.ts";
import { newId, newSignatureChallenge } from "../lib/ids.ts";
import { fingerprints, PublicKeyError } from "../protocol/key-material.ts";
import {
  type OfferedKey,
  type ProvenKeyView,
  type UncountedReason,
  uncountedReasons,
} from "../protocol/key-outcomes.ts";
import type {
  ConnectionStatusResponse,
  FinishConnectionRequest,
  FinishConnectionResponse,
  OpenConnectionResponse,
  RefusalReason,
} from "../protocol/messages.ts";
import { judgeKey, judgeProof, type Parsed, type ProofRules } from "../protocol/proof-rules.ts";
import { parsePublicKeyBlob } from "../protocol/public-keys.ts";
import type { AuthenticatorData } from "../protocol/signatures.ts";
import { decodeBase64Strict } from "../protocol/ssh-wire.ts";
import { sessionOutbox, subscribersOfSession } from "../webhooks/outbox.ts";
import { enqueueQuietly } from "../webhooks/queue.ts";
import { ConnectionLeases, type ConnectionRules } from "./connection-leases.ts";
import { GivenKeysStore } from "./given-keys.ts";
import { ProofWatchers } from "./proof-watchers.ts";
import { type BridgeNonce, SeenNonces } from "./seen-nonces.ts";

export type SessionPatch = Partial<
  Pick<
    SessionRow,
    | "externalId"
    | "multiKey"
    | "multiConnection"
    | "mustConfirm"
    | "sshBanner"
    | "sshMessage"
    | "matchAllKeys"
    | "maxAttempts"
    | "requireSecurityKey"
    | "requireUserVerification"
    | "expiredAt"
  >
>;

export interface ConnectionStart {
  ipAddress: string;
  clientVersion: string;
}

export interface ConnectionReport {
  keys: FinishConnectionRequest["keys"];
  keysOffered: number;
  refusals: UncountedReason[];
  confirmed: boolean | null;
}

const SESSION_ID_KEY = "session_id";
/** The header by which the proof page's route tells the object who is asking to watch. */
export const WATCHER_ADDRESS_HEADER = "x-keyproof-watcher-address";

/**
 * One instance per session (named by the session id). Every change of the session runs here, one
 * at a time, so concurrent requests see each other's results and conflicting ones get 409.
 * D1 stays the source of truth that the API reads; this object orders the writes, writes each
 * change's events in the same batch (the outbox), and owns expiry.
 */
export class SessionObject extends DurableObject<Env> {
  readonly #db: Database;
  readonly #leases: ConnectionLeases;
  readonly #nonces: SeenNonces;
  readonly #given: GivenKeysStore;
  readonly #watchers: ProofWatchers;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = database(env.DB);
    this.#leases = new ConnectionLeases(ctx.storage.kv);
    this.#nonces = new SeenNonces(ctx.storage.kv);
    this.#given = new GivenKeysStore(ctx.storage.kv);
    this.#watchers = new ProofWatchers(ctx);
  }

  async create(
    session: SessionRow,
    keys: SessionKeyRow[],
    authorities: SessionAuthorityRow[],
    hooks: WebhookRow[],
  ): Promise<SessionRow> {
    return this.#serialized(async () => {
      this.ctx.storage.kv.put(SESSION_ID_KEY, session.id);
      this.#given.put({ configured: keys, authorities });
      await this.#db.batch([
        this.#db.insert(sessions).values(session),
        ...insertInChunks(this.#db, sessionKeys, keys),
        ...insertInChunks(this.#db, sessionAuthorities, authorities),
        ...insertInChunks(this.#db, webhooks, hooks),
      ]);
      await this.#scheduleAlarm(session.expiredAt);
      return session;
    });
  }

  async update(
    scope: SessionScope,
    patch: SessionPatch,
    now: string,
  ): Promise<Outcome<SessionRow>> {
    return this.#serialized(async () => {
      const session = await this.#load(scope.sessionId);
      if (!inScope(session, scope)) return notFound();
      const refusal = patchRefusal(session, patch.maxAttempts);
      if (refusal) return refusal;
      const updated = await this.#transition(session, { ...patch, updatedAt: now }, []);
      if (patch.expiredAt !== undefined) await this.#scheduleAlarm(patch.expiredAt);
      return { ok: true, value: updated };
    });
  }

  async complete(scope: SessionScope, now: string): Promise<Outcome<SessionRow>> {
    return this.#serialized(async () => {
      const session = await this.#load(scope.sessionId);
      if (!inScope(session, scope)) return notFound();
      const status = completionStatus(session);
      if (!status.ok) return status;
      const changes = { status: status.value, completedAt: now, updatedAt: now };
      const updated = await this.#transition(session, changes, [
        statusChanged(session, status.value),
      ]);
      await this.ctx.storage.deleteAlarm();
      return { ok: true, value: updated };
    });
  }

  async remove(scope: SessionScope): Promise<Outcome<null>> {
    return this.#serialized(async () => {
      const session = await this.#load(scope.sessionId);
      if (!inScope(session, scope)) return notFound();
      // Connections, keys and session webhooks go with the session (ON DELETE CASCADE).
      await this.#db.delete(sessions).where(eq(sessions.id, session.id));
      this.#watchers.closeAll("The session was deleted");
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      return { ok: true, value: null };
    });
  }

  /** Expiry, and watchers falling idle: whichever comes first wakes the object. */
  override async alarm(): Promise<void> {
    await this.#serialized(async () => {
      this.#watchers.closeIdle(Date.now());
      const sessionId = this.ctx.storage.kv.get<string>(SESSION_ID_KEY);
      const session = sessionId ? await this.#load(sessionId) : undefined;
      if (!session || !isOpen(session)) return;
      const now = new Date();
      if (Date.parse(session.expiredAt) > now.getTime()) {
        // Not expired yet: a watcher's deadline, or expiry moved later.
        await this.#scheduleAlarm(session.expiredAt);
        return;
      }
      const at = now.toISOString();
      const status = expiryStatus(session);
      // Connections still in progress end as expired; the bridge tells their users.
      const inProgress = this.#closeConnections(this.#leases.releaseAll(), "expired", at);
      const planned = status === session.status ? [] : [statusChanged(session, status)];
      await this.#transition(
        session,
        { status, completedAt: at, updatedAt: at },
        planned,
        inProgress,
      );
    });
  }

  /** Wakes the object at the session's expiry, or sooner when a watcher falls idle first. */
  async #scheduleAlarm(expiredAt: string | null) {
    const times = [expiredAt ? Date.parse(expiredAt) : null, this.#watchers.nextIdleDeadline()];
    const next = times.filter((time): time is number => time !== null);
    if (next.length > 0) await this.ctx.storage.setAlarm(Math.min(...next));
  }

  async openConnection(
    sessionId: string,
    start: ConnectionStart,
    call: BridgeNonce,
  ): Promise<OpenConnectionResponse | "replayed"> {
    return this.#serialized(async () => {
      if (!this.#nonces.admit(call, Date.now())) return "replayed";
      const snapshot = await this.#snapshot(sessionId);
      const { session } = snapshot;
      if (!session) return { accepted: false, reason: "unknown" };
      const now = new Date();
      const { active, lapsed } = this.#leases.sweep(now.getTime());
      const closeLapsed = this.#closeConnections(lapsed, "disconnected", now.toISOString());
      const refusal = connectionRefusal(session, active.length);
      if (refusal) {
        if (closeLapsed.length > 0) await this.#db.batch(closeLapsed as [BatchItem<"sqlite">]);
        return { accepted: false, reason: refusal };
      }
      const connection: ConnectionRow = {
        id: newId("con", now.getTime()),
        sessionId,
        method: "ssh",
        ipAddress: start.ipAddress,
        clientVersion: start.clientVersion,
        createdAt: now.toISOString(),
        closedAt: null,
        confirmed: null,
        outcome: "in_progress",
        refusals: [],
      };
      this.#leases.take(connection.id, now.getTime(), connectionRulesOf(session), start.ipAddress);
      await this.#transition(
        session,
        { updatedAt: now.toISOString() },
        [newConnectionEvent(session, connection)],
        [...closeLapsed, this.#db.insert(connections).values(connection)],
        snapshot.listeners,
      );
      return {
        accepted: true,
        session_id: sessionId,
        connection_id: connection.id,
        kind: session.kind,
        multi_key: session.multiKey,
        must_confirm: session.mustConfirm,
        ssh_banner: session.sshBanner,
        ssh_message: session.sshMessage,
        expired_at: session.expiredAt,
        expected_fingerprints: snapshot.configured.map((key) => key.publicKeySha256),
        authority_fingerprints: snapshot.authorities.map((key) => key.publicKeySha256),
        principal: session.principal,
        require_security_key: session.requireSecurityKey,
        require_user_verification: session.requireUserVerification,
      };
    });
  }

  async finishConnection(
    sessionId: string,
    connectionId: string,
    report: ConnectionReport,
    call: BridgeNonce,
  ): Promise<FinishConnectionResponse | null | "replayed"> {
    return this.#serialized(async () => {
      if (!this.#nonces.admit(call, Date.now())) return "replayed";
      const at = new Date();
      const held = this.#leases.held(connectionId);
      const proven = held ? parseProvenKeys(report.keys, at, held.ipAddress) : [];
      const snapshot = await this.#snapshot(sessionId, {
        connectionId,
        securityKeys: securityKeysOf(proven),
        collected: true,
      });
      const { session, connection } = snapshot;
      if (!session || !connection) return null;
      this.#leases.release(connectionId);
      // A connection whose lease lapsed was closed as disconnected: a late report keeps nothing.
      if (!held || connection.outcome !== "in_progress" || !isOpen(session)) {
        return this.#finishClosed(session, connection, at.toISOString());
      }
      const { response } = await this.#recordFinish(snapshot, session, connection, {
        rules: held.rules,
        proven,
        offered: report.keysOffered,
        refusals: report.refusals,
        confirmed: report.confirmed,
        at,
      });
      return response;
    });
  }

  /**
   * A proof sent as a detached signature (SPEC §13): a connection that opens and finishes at
   * once, under the session's rules of the moment, having offered the one signing key.
   */
  async proveBySignature(sessionId: string, proof: SignatureProof): Promise<SignatureOutcome> {
    return this.#serialized(async () => {
      const at = new Date();
      const parsed = parseOffered(proof.key, at, proof.ipAddress);
      const signing =
        "key" in parsed ? [{ key: parsed.key, authenticator: proof.authenticator }] : [];
      const snapshot = await this.#snapshot(sessionId, {
        securityKeys: securityKeysOf(signing),
        collected: true,
      });
      const { session } = snapshot;
      if (!session) return { recorded: false, reason: "unknown" };
      const { active, lapsed } = this.#leases.sweep(at.getTime());
      // Connections whose bridge never reported end as the SSH path ends them.
      const closeLapsed = this.#closeConnections(lapsed, "disconnected", at.toISOString());
      if (closeLapsed.length > 0) await this.#db.batch(closeLapsed as [BatchItem<"sqlite">]);
      const refusal = connectionRefusal(session, active.length);
      if (refusal) return { recorded: false, reason: refusal };
      if (session.signatureChallenge !== proof.challenge)
        return { recorded: false, reason: "challenge_used" };
      const rules = connectionRulesOf(session);
      const proofRules = proofRulesOf(session, snapshot, rules);
      let offered = judgeKey(proofRules, fingerprints(proof.key).publicKeySha256, parsed);
      if ("key" in parsed && offered.fate === "unproven")
        offered = judgeProof(proofRules, offered, parsed.key, proof.authenticator);
      const connection: ConnectionRow = {
        id: newId("con", at.getTime()),
        sessionId,
        method: "signature",
        ipAddress: proof.ipAddress,
        clientVersion: proof.clientVersion,
        createdAt: at.toISOString(),
        closedAt: null,
        confirmed: null,
        outcome: "in_progress",
        refusals: [],
      };
      const { response } = await this.#recordFinish(snapshot, session, connection, {
        rules,
        proven: offered.fate === "proven" ? signing : [],
        offered: 1,
        refusals: uncountedReasons([offered]),
        // Signing the challenge is the act of confirming.
        confirmed: true,
        at,
      });
      return { recorded: true, response, offered };
    });
  }

  /** The bridge is asking the user to confirm `keys`: the proof page says so. */
  async connectionProgress(
    connectionId: string,
    keys: ProvenKeyView[],
    call: BridgeNonce,
  ): Promise<"replayed" | undefined> {
    if (!this.#nonces.admit(call, Date.now())) return "replayed";
    const sessionId = this.ctx.storage.kv.get<string>(SESSION_ID_KEY);
    this.#leases.markConfirming(connectionId, keys);
    if (sessionId) this.#announce(sessionId);
  }

  /** What the hosted proof page shows; null once the session is gone. */
  async proofStatus(sessionId: string): Promise<ProofStatus | null> {
    const [[session], recent, keys] = await this.#db.batch([
      this.#db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1),
      this.#db
        .select({ outcome: connections.outcome })
        .from(connections)
        .where(eq(connections.sessionId, sessionId))
        .orderBy(desc(connections.id))
        .limit(1),
      this.#db
        .select()
        .from(connectionKeys)
        .where(eq(connectionKeys.sessionId, sessionId))
        .orderBy(connectionKeys.id),
    ]);
    if (!session) return null;
    return proofStatus({
      session,
      connections: recent,
      keys,
      inProgress: this.#leases.inProgress(Date.now()),
    });
  }

  /**
   * The proof page's live channel: a WebSocket that hears every change of the session. The
   * hibernation API keeps watchers without keeping this object awake.
   */
  override async fetch(request: Request): Promise<Response> {
    const sessionId = this.ctx.storage.kv.get<string>(SESSION_ID_KEY);
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !sessionId)
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    const status = await this.proofStatus(sessionId);
    if (!status) return new Response("No such session", { status: 404 });
    const address = request.headers.get(WATCHER_ADDRESS_HEADER) ?? "unknown";
    const admitted = this.#watchers.admit(address, JSON.stringify(status), Date.now());
    if (admitted.status === 101) {
      // The idle deadline of the new watcher may come before anything else wakes the object.
      const current = await this.ctx.storage.getAlarm();
      const idle = this.#watchers.nextIdleDeadline();
      if (idle !== null && (current === null || current > idle))
        await this.ctx.storage.setAlarm(idle);
    }
    return admitted;
  }

  /** Watchers only listen: messages are ignored, and a watcher that keeps sending is closed. */
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    this.#watchers.inbound(socket, message);
  }

  override async webSocketClose(socket: WebSocket, code: number): Promise<void> {
    try {
      socket.close(code === 1005 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }

  async connectionStatus(sessionId: string): Promise<ConnectionStatusResponse | null> {
    const session = await this.#load(sessionId);
    if (!session) return null;
    return { open: isOpen(session), status: session.status, expired_at: session.expiredAt };
  }

  /**
   * Decides and writes how a connection ended: its outcome, the keys it recorded, the configured
   * keys it verified, and the events, in one transition. A signature's connection is written
   * whole here; a signature proof that counted uses up the challenge.
   */
  async #recordFinish(
    snapshot: Snapshot,
    session: SessionRow,
    connection: ConnectionRow,
    report: {
      rules: ConnectionRules;
      proven: ProvenKey[];
      offered: number;
      refusals: UncountedReason[];
      confirmed: boolean | null;
      at: Date;
    },
  ): Promise<{ response: FinishConnectionResponse }> {
    const now = report.at.toISOString();
    const decision = decideFinish({
      session,
      rules: proofRulesOf(session, snapshot, report.rules),
      mustConfirm: report.rules.mustConfirm,
      configured: snapshot.configured,
      collected: snapshot.collected,
      proven: report.proven,
      lastCounters: snapshot.lastCounters,
      offered: report.offered,
      confirmed: report.confirmed,
      now: report.at,
    });
    const recorded = decision.record.map((key) => ({
      id: newId("ck"),
      connectionId: connection.id,
      sessionId: session.id,
      ...key,
      createdAt: now,
    }));
    const finished: ConnectionRow = {
      ...connection,
      outcome: decision.outcome,
      closedAt: now,
      confirmed: report.rules.mustConfirm ? report.confirmed === true : null,
      refusals: report.refusals,
    };
    const bySignature = connection.method === "signature";
    const changes = { ...decision.sessionChanges };
    if (bySignature && (decision.outcome === "collected" || decision.outcome === "verified"))
      changes.signatureChallenge = newSignatureChallenge();
    const verifiedKeys = decision.newlyVerified.map((key) => key.id);
    await this.#transition(
      session,
      changes,
      [
        ...(bySignature ? [newConnectionEvent(session, finished)] : []),
        ...finishEvents(session, finished, decision, recorded),
      ],
      [
        bySignature
          ? this.#db.insert(connections).values(finished)
          : this.#db
              .update(connections)
              .set({
                outcome: finished.outcome,
                closedAt: now,
                confirmed: finished.confirmed,
                refusals: finished.refusals,
              })
              .where(eq(connections.id, connection.id)),
        ...insertInChunks(this.#db, connectionKeys, recorded),
        ...(verifiedKeys.length > 0
          ? [
              this.#db
                .update(sessionKeys)
                .set({ verifiedAt: now })
                .where(inArray(sessionKeys.id, verifiedKeys)),
            ]
          : []),
      ],
      snapshot.listeners,
    );
    this.#given.markVerified(verifiedKeys, now);
    if (decision.sessionChanges.completedAt) await this.ctx.storage.deleteAlarm();
    return {
      response: {
        outcome: decision.outcome,
        session_status: decision.sessionChanges.status ?? session.status,
        keys: decision.keys,
        failed_attempts: decision.sessionChanges.failedAttempts ?? session.failedAttempts,
        max_attempts: session.maxAttempts,
        remaining_keys: decision.remainingKeys,
      },
    };
  }

  /** A connection that ends after its session closed keeps nothing. */
  async #finishClosed(
    session: SessionRow,
    connection: ConnectionRow,
    now: string,
  ): Promise<FinishConnectionResponse> {
    const expired = session.status === "expired" || connection.outcome === "expired";
    const outcome = expired ? "expired" : "closed";
    if (connection.outcome === "in_progress") {
      await this.#db
        .update(connections)
        .set({ outcome, closedAt: now })
        .where(eq(connections.id, connection.id));
    }
    return {
      outcome,
      session_status: session.status,
      keys: [],
      failed_attempts: session.failedAttempts,
      max_attempts: session.maxAttempts,
      remaining_keys: 0,
    };
  }

  /**
   * Writes a change of the session, any related writes and the events it causes in one D1
   * batch, then queues the webhook deliveries (the sweeper resends them if that fails).
   */
  async #transition(
    session: SessionRow,
    changes: Partial<SessionRow>,
    planned: PlannedEvent[],
    related: BatchItem<"sqlite">[] = [],
    listeners?: WebhookRow[],
  ): Promise<SessionRow> {
    const outbox = await sessionOutbox(this.#db, session, planned, new Date(), listeners);
    const [updated] = await this.#db.batch([
      this.#db.update(sessions).set(changes).where(eq(sessions.id, session.id)).returning(),
      ...related,
      ...outbox.statements,
    ]);
    const row = updated[0];
    if (!row) throw new Error(`session ${session.id} vanished during a transition`);
    await enqueueQuietly(this.env, outbox.messages);
    this.#announce(row.id);
    return row;
  }

  /**
   * Tells every open proof page what the session looks like now (nothing when none is open);
   * once the session is over, that was the last word, and the pages are let go.
   */
  #announce(sessionId: string) {
    if (this.#watchers.count === 0) return;
    this.proofStatus(sessionId)
      .then((status) => {
        if (status) this.#watchers.broadcast(JSON.stringify(status), Date.now(), status.final);
      })
      .catch(() => undefined);
  }

  #closeConnections(
    ids: string[],
    outcome: "expired" | "disconnected",
    at: string,
  ): BatchItem<"sqlite">[] {
    if (ids.length === 0) return [];
    return [
      this.#db
        .update(connections)
        .set({ outcome, closedAt: at })
        .where(and(inArray(connections.id, ids), eq(connections.outcome, "in_progress"))),
    ];
  }

  /** Runs transitions strictly one after another, including across their D1 awaits. */
  #serialized<T>(transition: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(transition, transition);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #load(sessionId: string): Promise<SessionRow | undefined> {
    const [session] = await this.#db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionId))
      .limit(1);
    return session;
  }

  /**
   * Everything a connection transition reads, in one D1 round trip: the session, the webhooks
   * listening, and what this transition needs besides (the connection, the fingerprints collected
   * so far, the last counters of `securityKeys`). The configured keys and CAs come from this
   * object's own storage once it has them: only it writes them.
   */
  async #snapshot(
    sessionId: string,
    need: { connectionId?: string; securityKeys?: string[]; collected?: boolean } = {},
  ): Promise<Snapshot> {
    const given = this.#given.get();
    const read = await readTogether(this.#db, {
      session: this.#db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1),
      listeners: subscribersOfSession(this.#db, sessionId),
      ...(given
        ? {}
        : {
            configured: this.#db
              .select()
              .from(sessionKeys)
              .where(eq(sessionKeys.sessionId, sessionId)),
            authorities: this.#db
              .select()
              .from(sessionAuthorities)
              .where(eq(sessionAuthorities.sessionId, sessionId)),
          }),
      ...(need.collected
        ? {
            collected: this.#db
              .select({ sha256: connectionKeys.publicKeySha256 })
              .from(connectionKeys)
              .where(eq(connectionKeys.sessionId, sessionId)),
          }
        : {}),
      ...(need.connectionId
        ? {
            connection: this.#db
              .select()
              .from(connections)
              .where(
                and(eq(connections.id, need.connectionId), eq(connections.sessionId, sessionId)),
              )
              .limit(1),
          }
        : {}),
      ...(need.securityKeys?.length
        ? { counters: lastCountersIn(this.#db, sessionId, need.securityKeys) }
        : {}),
    });
    const [session] = read.session;
    const givenKeys = given ?? {
      configured: read.configured ?? [],
      authorities: read.authorities ?? [],
    };
    if (session && !given) this.#given.put(givenKeys);
    return {
      session,
      ...givenKeys,
      collected: new Set((read.collected ?? []).map((key) => key.sha256)),
      listeners: read.listeners,
      connection: read.connection?.[0],
      lastCounters: new Map(
        (read.counters ?? []).flatMap(({ sha256, counter }) =>
          counter === null ? [] : [[sha256, counter]],
        ),
      ),
    };
  }
}

const notFound = () => refused(404, "Session not found", "path.session_id");

/** The session's rules a connection keeps from open to finish, whatever PATCH does meanwhile. */
const connectionRulesOf = (session: SessionRow): ConnectionRules => ({
  mustConfirm: session.mustConfirm,
  requireSecurityKey: session.requireSecurityKey,
  requireUserVerification: session.requireUserVerification,
});

/** Parses the bridge's report; certificates are judged as of `now`, for the client's address. */
function parseProvenKeys(
  reported: ConnectionReport["keys"],
  now: Date,
  clientAddress: string | null,
): ProvenKey[] {
  const proven: ProvenKey[] = [];
  for (const { key, security_key } of reported) {
    const blob = decodeBase64Strict(key);
    if (!blob) continue;
    try {
      const key = parsePublicKeyBlob(blob, { now, clientAddress });
      proven.push({ key, authenticator: security_key });
    } catch {
      // The bridge only sends keys it parsed and verified; anything else is dropped, not trusted.
    }
  }
  return proven;
}

/** What a proof by detached signature brings to the session (the route verified the signature). */
export interface SignatureProof {
  /** The signing key's blob, as the signature carries it (a key or a certificate). */
  key: Uint8Array;
  /** What a security key reported with the signature; null for other keys. */
  authenticator: AuthenticatorData | null;
  /** The challenge the signature verified over: it must still be the session's. */
  challenge: string;
  ipAddress: string;
  /** The HTTP client, as the connection's `client_version`. */
  clientVersion: string;
}

export type SignatureOutcome =
  | { recorded: false; reason: RefusalReason | "challenge_used" }
  | { recorded: true; response: FinishConnectionResponse; offered: OfferedKey };

/** Everything a connection transition reads, from #snapshot. */
interface Snapshot {
  session: SessionRow | undefined;
  configured: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
  collected: Set<string>;
  listeners: WebhookRow[];
  connection: ConnectionRow | undefined;
  lastCounters: Map<string, number>;
}

/** The session's key rules, with the options a connection opened under. */
function proofRulesOf(
  session: SessionRow,
  given: Pick<Snapshot, "configured" | "authorities">,
  rules: ConnectionRules,
): ProofRules {
  return {
    kind: session.kind,
    expected: given.configured.map((key) => key.publicKeySha256),
    authorities: given.authorities.map((key) => key.publicKeySha256),
    principal: session.principal,
    requireSecurityKey: rules.requireSecurityKey,
    requireUserVerification: rules.requireUserVerification,
  };
}

/** Fingerprints of the security keys among `proven`: their last counters are looked up. */
const securityKeysOf = (proven: ProvenKey[]) =>
  proven.flatMap(({ key }) => (key.securityKey ? [key.publicKeySha256] : []));

/** A signing key as the bridge would judge an offered one: the key, or why it cannot be used. */
function parseOffered(blob: Uint8Array, now: Date, clientAddress: string): Parsed {
  try {
    return { key: parsePublicKeyBlob(blob, { now, clientAddress }) };
  } catch (error) {
    if (error instanceof PublicKeyError) return { refusal: error.code, detail: error.detail };
    return { refusal: "malformed", detail: null };
  }
}
