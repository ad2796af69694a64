import { DurableObject } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { type Database, database, insertInChunks } from "../db/client.ts";
import {
  connectionKeys,
  connections,
  type SessionKeyRow,
  type SessionRow,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import { connectionRefusal, decideFinish, REFUSAL_MESSAGES } from "../domain/connection-rules.ts";
import { type ParsedPublicKey, parsePublicKeyBlob } from "../domain/public-keys.ts";
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
import { decodeBase64Strict } from "../lib/encoding.ts";
import { newId } from "../lib/ids.ts";
import type {
  ConnectionStatusResponse,
  FinishConnectionResponse,
  OpenConnectionResponse,
} from "../schemas/internal.ts";

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

const SESSION_ID_KEY = "session_id";
/** Storage key prefix of connections in progress; the value is when their lease runs out (ms). */
const ACTIVE_PREFIX = "active:";
/**
 * A connection holds its place for the bridge's 30 s auth deadline plus the 120 s confirmation
 * prompt and a margin; a bridge that dies mid-connection frees the session after this.
 */
export const CONNECTION_LEASE_MS = 180_000;

export interface ConnectionStart {
  ipAddress: string;
  clientVersion: string;
}

/**
 * One instance per session (named by the session id). Every change of the session runs here, one
 * at a time, so concurrent requests see each other's results and conflicting ones get 409.
 * D1 stays the source of truth that the API reads; this object orders the writes and owns expiry.
 */
export class SessionObject extends DurableObject<Env> {
  readonly #db: Database;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = database(env.DB);
  }

  async create(session: SessionRow, keys: SessionKeyRow[]): Promise<SessionRow> {
    return this.#serialized(async () => {
      this.ctx.storage.kv.put(SESSION_ID_KEY, session.id);
      await this.#db.batch([
        this.#db.insert(sessions).values(session),
        ...insertInChunks(this.#db, sessionKeys, keys),
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
      const updated = await this.#write(session.id, { ...patch, updatedAt: now });
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
      const updated = await this.#write(session.id, {
        status: status.value,
        completedAt: now,
        updatedAt: now,
      });
      await this.ctx.storage.deleteAlarm();
      return { ok: true, value: updated };
    });
  }

  async remove(scope: SessionScope): Promise<Outcome<null>> {
    return this.#serialized(async () => {
      const session = await this.#load(scope.sessionId);
      if (!inScope(session, scope)) return notFound();
      // Connections and keys go with the session (ON DELETE CASCADE).
      await this.#db.delete(sessions).where(eq(sessions.id, session.id));
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      return { ok: true, value: null };
    });
  }

  async openConnection(sessionId: string, start: ConnectionStart): Promise<OpenConnectionResponse> {
    return this.#serialized(async () => {
      const session = await this.#load(sessionId);
      if (!session)
        return { accepted: false, reason: "unknown", message: REFUSAL_MESSAGES.unknown };
      const now = new Date();
      const active = await this.#activeConnections(now);
      const refusal = connectionRefusal(session, active.length);
      if (refusal) return { accepted: false, reason: refusal, message: REFUSAL_MESSAGES[refusal] };
      const connectionId = newId("con", now.getTime());
      await this.#db.insert(connections).values({
        id: connectionId,
        sessionId,
        ipAddress: start.ipAddress,
        clientVersion: start.clientVersion,
        createdAt: now.toISOString(),
        outcome: "in_progress",
      });
      this.ctx.storage.kv.put(ACTIVE_PREFIX + connectionId, now.getTime() + CONNECTION_LEASE_MS);
      const expected =
        session.kind === "verify"
          ? await this.#db
              .select({ sha256: sessionKeys.publicKeySha256 })
              .from(sessionKeys)
              .where(eq(sessionKeys.sessionId, sessionId))
          : [];
      return {
        accepted: true,
        session_id: sessionId,
        connection_id: connectionId,
        kind: session.kind,
        multi_key: session.multiKey,
        must_confirm: session.mustConfirm,
        ssh_banner: session.sshBanner,
        ssh_message: session.sshMessage,
        expired_at: session.expiredAt,
        expected_fingerprints: expected.map((key) => key.sha256),
      };
    });
  }

  async finishConnection(
    sessionId: string,
    connectionId: string,
    report: { keys: string[]; keysOffered: number; confirmed: boolean | null },
  ): Promise<FinishConnectionResponse | null> {
    return this.#serialized(async () => {
      const session = await this.#load(sessionId);
      const [connection] = await this.#db
        .select()
        .from(connections)
        .where(and(eq(connections.id, connectionId), eq(connections.sessionId, sessionId)))
        .limit(1);
      if (!session || !connection) return null;
      this.ctx.storage.kv.delete(ACTIVE_PREFIX + connectionId);
      const now = new Date().toISOString();
      const unchanged = {
        session_status: session.status,
        keys: [],
        failed_attempts: session.failedAttempts,
        max_attempts: session.maxAttempts,
        remaining_keys: 0,
      };
      if (connection.outcome !== "in_progress" || !isOpen(session)) {
        const outcome =
          session.status === "expired" || connection.outcome === "expired" ? "expired" : "closed";
        if (connection.outcome === "in_progress") {
          await this.#db
            .update(connections)
            .set({ outcome, closedAt: now })
            .where(eq(connections.id, connectionId));
        }
        const reason =
          outcome === "expired" ? "expired" : (session.status as keyof typeof REFUSAL_MESSAGES);
        return {
          ...unchanged,
          outcome,
          message: REFUSAL_MESSAGES[reason] ?? REFUSAL_MESSAGES.completed,
        };
      }
      const [configured, collected] = await this.#db.batch([
        this.#db.select().from(sessionKeys).where(eq(sessionKeys.sessionId, sessionId)),
        this.#db
          .select({ sha256: connectionKeys.publicKeySha256 })
          .from(connectionKeys)
          .where(eq(connectionKeys.sessionId, sessionId)),
      ]);
      const decision = decideFinish({
        session,
        configured,
        collected: new Set(collected.map((key) => key.sha256)),
        proven: await parseBlobs(report.keys),
        offered: report.keysOffered,
        confirmed: report.confirmed,
        now,
      });
      const writes = [
        this.#db
          .update(connections)
          .set({
            outcome: decision.outcome,
            closedAt: now,
            confirmed: session.mustConfirm ? report.confirmed === true : null,
          })
          .where(eq(connections.id, connectionId)),
        this.#db.update(sessions).set(decision.sessionChanges).where(eq(sessions.id, sessionId)),
        ...insertInChunks(
          this.#db,
          connectionKeys,
          decision.record.map((key) => ({
            id: newId("ck"),
            connectionId,
            sessionId,
            ...key,
            createdAt: now,
          })),
        ),
        ...(decision.newlyVerified.length > 0
          ? [
              this.#db
                .update(sessionKeys)
                .set({ verifiedAt: now })
                .where(
                  inArray(
                    sessionKeys.id,
                    decision.newlyVerified.map((key) => key.id),
                  ),
                ),
            ]
          : []),
      ] as const;
      await this.#db.batch(writes);
      if (decision.sessionChanges.completedAt) await this.ctx.storage.deleteAlarm();
      return {
        outcome: decision.outcome,
        session_status: decision.sessionChanges.status ?? session.status,
        keys: decision.keys,
        message: null,
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

  override async alarm(): Promise<void> {
    await this.#serialized(async () => {
      const sessionId = this.ctx.storage.kv.get<string>(SESSION_ID_KEY);
      if (!sessionId) return;
      const session = await this.#load(sessionId);
      if (!session || !isOpen(session)) return;
      const now = new Date();
      if (Date.parse(session.expiredAt) > now.getTime()) {
        // Expiry moved later after this alarm was scheduled.
        await this.ctx.storage.setAlarm(Date.parse(session.expiredAt));
        return;
      }
      const at = now.toISOString();
      await this.#write(session.id, {
        status: expiryStatus(session),
        completedAt: at,
        updatedAt: at,
      });
      // Connections still in progress end as expired; the bridge tells their users.
      const active = [...this.ctx.storage.kv.list<number>({ prefix: ACTIVE_PREFIX })].map(
        ([key]) => key,
      );
      await this.#closeConnections(active, "expired", at);
    });
  }

  /** Connections whose lease is still running; lapsed ones are closed as disconnected. */
  async #activeConnections(now: Date): Promise<string[]> {
    const active: string[] = [];
    const lapsed: string[] = [];
    for (const [key, leaseEnd] of this.ctx.storage.kv.list<number>({ prefix: ACTIVE_PREFIX })) {
      (leaseEnd > now.getTime() ? active : lapsed).push(key);
    }
    await this.#closeConnections(lapsed, "disconnected", now.toISOString());
    return active;
  }

  async #closeConnections(storageKeys: string[], outcome: "expired" | "disconnected", at: string) {
    if (storageKeys.length === 0) return;
    const ids = storageKeys.map((key) => key.slice(ACTIVE_PREFIX.length));
    await this.#db
      .update(connections)
      .set({ outcome, closedAt: at })
      .where(and(inArray(connections.id, ids), eq(connections.outcome, "in_progress")));
    for (const key of storageKeys) this.ctx.storage.kv.delete(key);
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

  async #write(sessionId: string, changes: Partial<SessionRow>): Promise<SessionRow> {
    const [updated] = await this.#db
      .update(sessions)
      .set(changes)
      .where(eq(sessions.id, sessionId))
      .returning();
    if (!updated) throw new Error(`session ${sessionId} vanished during a transition`);
    return updated;
  }
}

const notFound = () => refused(404, "Session not found", "path.session_id");

async function parseBlobs(blobs: string[]): Promise<ParsedPublicKey[]> {
  const keys: ParsedPublicKey[] = [];
  for (const text of blobs) {
    const blob = decodeBase64Strict(text);
    if (!blob) continue;
    try {
      keys.push(await parsePublicKeyBlob(blob));
    } catch {
      // The bridge only sends keys it parsed and verified; anything else is dropped, not trusted.
    }
  }
  return keys;
}
