import { DurableObject } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Database, database, insertInChunks } from "../db/client.ts";
import {
  type ConnectionRow,
  connectionKeys,
  connections,
  type SessionKeyRow,
  type SessionRow,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import { type WebhookRow, webhooks } from "../db/webhooks.ts";
import {
  connectionRefusal,
  decideFinish,
  finishEvents,
  newConnectionEvent,
} from "../domain/connection-rules.ts";
import { type PlannedEvent, statusChanged } from "../domain/events.ts";
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
import { newId } from "../lib/ids.ts";
import type {
  ConnectionStatusResponse,
  FinishConnectionResponse,
  OpenConnectionResponse,
} from "../protocol/messages.ts";
import { type ParsedPublicKey, parsePublicKeyBlob } from "../protocol/public-keys.ts";
import { decodeBase64Strict } from "../protocol/ssh-wire.ts";
import { sessionOutbox, subscribersOfSession } from "../webhooks/outbox.ts";
import { enqueueQuietly } from "../webhooks/queue.ts";
import { ConnectionLeases } from "./connection-leases.ts";

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
    | "expiredAt"
  >
>;

export interface ConnectionStart {
  ipAddress: string;
  clientVersion: string;
}

export interface ConnectionReport {
  keys: string[];
  keysOffered: number;
  confirmed: boolean | null;
}

const SESSION_ID_KEY = "session_id";

/**
 * One instance per session (named by the session id). Every change of the session runs here, one
 * at a time, so concurrent requests see each other's results and conflicting ones get 409.
 * D1 stays the source of truth that the API reads; this object orders the writes, writes each
 * change's events in the same batch (the outbox), and owns expiry.
 */
export class SessionObject extends DurableObject<Env> {
  readonly #db: Database;
  readonly #leases: ConnectionLeases;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = database(env.DB);
    this.#leases = new ConnectionLeases(ctx.storage.kv);
  }

  async create(
    session: SessionRow,
    keys: SessionKeyRow[],
    hooks: WebhookRow[],
  ): Promise<SessionRow> {
    return this.#serialized(async () => {
      this.ctx.storage.kv.put(SESSION_ID_KEY, session.id);
      await this.#db.batch([
        this.#db.insert(sessions).values(session),
        ...insertInChunks(this.#db, sessionKeys, keys),
        ...insertInChunks(this.#db, webhooks, hooks),
      ]);
      await this.ctx.storage.setAlarm(Date.parse(session.expiredAt));
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
      if (patch.expiredAt !== undefined)
        await this.ctx.storage.setAlarm(Date.parse(patch.expiredAt));
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
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      return { ok: true, value: null };
    });
  }

  override async alarm(): Promise<void> {
    await this.#serialized(async () => {
      const sessionId = this.ctx.storage.kv.get<string>(SESSION_ID_KEY);
      const session = sessionId ? await this.#load(sessionId) : undefined;
      if (!session || !isOpen(session)) return;
      const now = new Date();
      if (Date.parse(session.expiredAt) > now.getTime()) {
        // Expiry moved later after this alarm was scheduled.
        await this.ctx.storage.setAlarm(Date.parse(session.expiredAt));
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

  async openConnection(sessionId: string, start: ConnectionStart): Promise<OpenConnectionResponse> {
    return this.#serialized(async () => {
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
        ipAddress: start.ipAddress,
        clientVersion: start.clientVersion,
        createdAt: now.toISOString(),
        closedAt: null,
        confirmed: null,
        outcome: "in_progress",
      };
      this.#leases.take(connection.id, now.getTime(), { mustConfirm: session.mustConfirm });
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
      };
    });
  }

  async finishConnection(
    sessionId: string,
    connectionId: string,
    report: ConnectionReport,
  ): Promise<FinishConnectionResponse | null> {
    return this.#serialized(async () => {
      const { session, connection, configured, collected, listeners } = await this.#snapshot(
        sessionId,
        connectionId,
      );
      if (!session || !connection) return null;
      const rules = this.#leases.rules(connectionId) ?? { mustConfirm: session.mustConfirm };
      this.#leases.release(connectionId);
      const now = new Date().toISOString();
      if (connection.outcome !== "in_progress" || !isOpen(session)) {
        return this.#finishClosed(session, connection, now);
      }
      const decision = decideFinish({
        session,
        mustConfirm: rules.mustConfirm,
        configured,
        collected,
        proven: parseBlobs(report.keys),
        offered: report.keysOffered,
        confirmed: report.confirmed,
        now,
      });
      const recorded = decision.record.map((key) => ({
        id: newId("ck"),
        connectionId,
        sessionId,
        ...key,
        createdAt: now,
      }));
      const confirmed = rules.mustConfirm ? report.confirmed === true : null;
      const verifiedKeys = decision.newlyVerified.map((key) => key.id);
      await this.#transition(
        session,
        decision.sessionChanges,
        finishEvents(session, connectionId, decision, recorded),
        [
          this.#db
            .update(connections)
            .set({ outcome: decision.outcome, closedAt: now, confirmed })
            .where(eq(connections.id, connectionId)),
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
        listeners,
      );
      if (decision.sessionChanges.completedAt) await this.ctx.storage.deleteAlarm();
      return {
        outcome: decision.outcome,
        session_status: decision.sessionChanges.status ?? session.status,
        keys: decision.keys,
        failed_attempts: decision.sessionChanges.failedAttempts ?? session.failedAttempts,
        max_attempts: session.maxAttempts,
        remaining_keys: decision.remainingKeys,
      };
    });
  }

  async connectionStatus(sessionId: string): Promise<ConnectionStatusResponse | null> {
    const session = await this.#load(sessionId);
    if (!session) return null;
    return { open: isOpen(session), status: session.status, expired_at: session.expiredAt };
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
    return row;
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
   * Everything a connection transition reads, in one D1 round trip: the session, its configured
   * keys, the fingerprints collected so far, the webhooks listening, and the connection.
   */
  async #snapshot(sessionId: string, connectionId = "") {
    const [[session], configured, collected, listeners, [connection]] = await this.#db.batch([
      this.#db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1),
      this.#db.select().from(sessionKeys).where(eq(sessionKeys.sessionId, sessionId)),
      this.#db
        .select({ sha256: connectionKeys.publicKeySha256 })
        .from(connectionKeys)
        .where(eq(connectionKeys.sessionId, sessionId)),
      subscribersOfSession(this.#db, sessionId),
      this.#db
        .select()
        .from(connections)
        .where(and(eq(connections.id, connectionId), eq(connections.sessionId, sessionId)))
        .limit(1),
    ]);
    return {
      session,
      configured,
      collected: new Set(collected.map((key) => key.sha256)),
      listeners,
      connection,
    };
  }
}

const notFound = () => refused(404, "Session not found", "path.session_id");

function parseBlobs(blobs: string[]): ParsedPublicKey[] {
  const keys: ParsedPublicKey[] = [];
  for (const text of blobs) {
    const blob = decodeBase64Strict(text);
    if (!blob) continue;
    try {
      keys.push(parsePublicKeyBlob(blob));
    } catch {
      // The bridge only sends keys it parsed and verified; anything else is dropped, not trusted.
    }
  }
  return keys;
}
