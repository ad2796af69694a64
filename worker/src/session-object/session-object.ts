import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { type Database, database } from "../db/client.ts";
import { type SessionKeyRow, type SessionRow, sessionKeys, sessions } from "../db/sessions.ts";
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
      if (keys.length > 0) {
        await this.#db.batch([
          this.#db.insert(sessions).values(session),
          this.#db.insert(sessionKeys).values(keys),
        ]);
      } else {
        await this.#db.insert(sessions).values(session);
      }
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
    });
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
