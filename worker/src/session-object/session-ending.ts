import { eq } from "drizzle-orm";
import { shardDb } from "../db/databases.ts";
import { type SessionRow, sessions } from "../db/sessions.ts";
import {
  erasureOf,
  erasureStatements,
  projectSettingsOf,
  RETIREMENT_MAY_WAIT,
  retireAfterMs,
} from "../domain/retention.ts";
import { isOpen } from "../domain/session-rules.ts";
import type { Env } from "../env.ts";
import { type ErasedHow, forgetIdempotentAnswers } from "../idempotency/idempotency-object.ts";
import { log } from "../lib/log.ts";
import { isIndexUnavailable } from "../lib/unavailable.ts";
import type { IndexFeed } from "./index-feed.ts";
import type { SessionStore } from "./session-store.ts";

const ERASED: ErasedHow = "erased at the end of its retention";

/** How early, by the object's clock, an alarm may run for the time it was set for. */
const ALARM_CLOCK_SLACK_MS = 1_000;

/** A retired session read back is kept this long, for the calls that come with it, then retires. */
export const READ_BACK_HELD_MS = 60_000;

/**
 * How a closed session's object ends (§19): it retires 15 minutes after the session
 * closed (or at its expiry's alarm, when that comes soon after: retirementMayWaitFor), once D1
 * has all of it (its storage deleted, the session read back from D1 if asked for again), and the
 * session is erased everywhere when its project's retention runs out.
 */
export class SessionEnding {
  readonly #env: Env;
  readonly #storage: DurableObjectStorage;
  readonly #store: SessionStore;
  readonly #feed: IndexFeed;
  readonly #closeWatchers: (reason: string) => void;
  /** When this instance read its session back from the index (0: it did not). */
  #readBackAt = 0;
  /**
   * When the closed session is erased (ms): its project's retention, counted from its close.
   * Held in memory, not written (a row a proof): an instance that lost it works it out again from
   * D1 at its next alarm, a read.
   */
  #eraseAt: number | null = null;

  constructor(
    env: Env,
    storage: DurableObjectStorage,
    store: SessionStore,
    feed: IndexFeed,
    closeWatchers: (reason: string) => void,
  ) {
    this.#env = env;
    this.#storage = storage;
    this.#store = store;
    this.#feed = feed;
    this.#closeWatchers = closeWatchers;
  }

  /**
   * The object holds its session again, read back from D1: it is kept a minute, then retires,
   * unless its erasure comes first (`eraseAt`, worked out from the same read).
   */
  readBack(eraseAt: number | null) {
    this.#readBackAt = Date.now();
    this.#eraseAt = eraseAt;
  }

  /**
   * When the alarm must come for the session's ending: its retirement and, once closed, its
   * erasure (a time not worked out yet is worked out soon).
   */
  deadlines(session: SessionRow): number[] {
    const retireAt = this.#retireAt(session);
    if (retireAt === null) return [];
    return this.#eraseAt === null ? [retireAt] : [retireAt, this.#eraseAt];
  }

  /**
   * An alarm already set for `alarm` that may retire the closed session instead of one set for its
   * retirement: one at or after the retirement time, and at most RETIREMENT_MAY_WAIT graces after
   * it. At close the object's alarm is still its expiry, set at create (an hour by default, 15
   * minutes of grace in production): keeping it retires a proof's object up to 45 minutes later,
   * its storage kept meanwhile, and saves the alarm a proof that moving it would write.
   */
  retirementMayWaitFor(session: SessionRow, alarm: number): boolean {
    const retireAt = this.#retireAt(session);
    return (
      retireAt !== null &&
      alarm >= retireAt &&
      alarm <= retireAt + RETIREMENT_MAY_WAIT * retireAfterMs(this.#env)
    );
  }

  /**
   * Works out when the closed session is erased, after the push that told D1 it closed: its
   * alarm is then set once, for whichever comes first. The shard's writer says (`told`, from the
   * project's row it read for the push), else it is a D1 read of its own. Not known (D1 away, an
   * object restarted since), the retirement's alarm works it out.
   */
  async learnEraseAt(told?: number | null): Promise<void> {
    const session = this.#store.session();
    if (this.#eraseAt !== null || !session || isOpen(session)) return;
    // The writer answered for a session still open when pushed: the push of its close will say.
    if (told === null) return;
    if (told !== undefined) {
      this.#eraseAt = told;
      return;
    }
    try {
      await this.#erasure(session);
    } catch (error) {
      if (!isIndexUnavailable(error)) throw error;
    }
  }

  /** When the session is erased, from its project's settings in its shard (null: no shard). */
  async #erasure(session: SessionRow): Promise<number | null> {
    const shard = this.#store.shard();
    if (!shard) return null;
    const settings = await projectSettingsOf(this.#env, shard, session.projectId);
    this.#eraseAt = erasureOf(this.#env, session, settings).eraseAt;
    return this.#eraseAt;
  }

  /**
   * A project's erasure (its deletion, "delete all test data"): erased here and in its shard if
   * this object holds it, else in the shard only.
   */
  async erase(projectId: string, sessionId: string, shard: string): Promise<void> {
    const session = this.#store.session();
    if (session?.id === sessionId) return this.#erase(session);
    // A retired object holds nothing, and is not filled again to be emptied.
    const db = shardDb(this.#env, shard);
    await db.batch(erasureStatements(db, [sessionId]));
    await forgetIdempotentAnswers(this.#env, projectId, sessionId, ERASED);
  }

  /**
   * A closed session past its project's retention, or whose project (or test data) was deleted,
   * is erased. Its alarm (its retirement's, as a rule) reads the project's settings again first, so
   * a retention changed since the session closed counts. True when it was erased.
   */
  async eraseIfDue(now: number): Promise<boolean> {
    const session = this.#store.session();
    // An open one is not erased by time: one whose project went is refused at its next push.
    if (!session || isOpen(session) || !this.#store.shard()) return false;
    try {
      const at = await this.#erasure(session);
      if (at === null || at > now) return false;
      await this.#erase(session);
      return true;
    } catch (error) {
      if (!isIndexUnavailable(error)) throw error;
      return false; // D1 is away: the alarm tries again
    }
  }

  /**
   * D1 refused the session's push because what it holds was erased there (its project or test
   * data deleted, or past its retention: index-push.ts): the object forgets it too, so it
   * answers 404 from now on and never pushes it again.
   */
  async forgetErased() {
    const session = this.#store.session();
    if (!session && !this.#store.deleted()) return;
    // The answer of the create that made it (kept for its Idempotency-Key) goes with it: a repeat
    // is told 410, never shown the session again. Should that fail, the object keeps the session
    // and its next push, refused again, tries again.
    if (session) await forgetIdempotentAnswers(this.#env, session.projectId, session.id, "deleted");
    await this.#forget("The session no longer exists");
    log(this.#env, "info", "session object erased: its session was erased from the index", {});
  }

  /**
   * At its retirement, whether D1 has the session's last change, when this instance does not
   * know (what D1 acknowledged is kept in memory, and an object idle 15 minutes has been
   * restarted): the session's row in its shard says by its version, a row read, where pushing it
   * all again to find out was a writer request, an empty transaction and an alarm written.
   */
  async confirmIndexed(now: number): Promise<void> {
    const session = this.#store.session();
    const shard = this.#store.shard();
    const retireAt = session ? this.#retireAt(session) : null;
    if (!session || !shard || retireAt === null || retireAt > now + ALARM_CLOCK_SLACK_MS) return;
    if (!this.#feed.behind()) return;
    try {
      const [row] = await shardDb(this.#env, shard)
        .select({ version: sessions.version })
        .from(sessions)
        .where(eq(sessions.id, session.id))
        .limit(1);
      if (row && row.version >= this.#store.version()) this.#feed.acknowledged(row.version);
    } catch (error) {
      if (!isIndexUnavailable(error)) throw error;
    }
  }

  /**
   * A closed session the index has all of, past its retirement time, or a deleted one whose
   * deletion the index has: the object deletes its own storage, its alarm with it. True when it did.
   */
  async retireIfDone(now: number): Promise<boolean> {
    // A push under way may be the one D1 still lacks: its answer decides, not its being there.
    await this.#feed.settled();
    // A deleted session's tombstone goes once D1 has the deletion: nothing of it is left.
    if (this.#store.deleted()) {
      if (this.#feed.behind()) return false;
      await this.#forget("The session was deleted");
      return true;
    }
    const session = this.#store.session();
    const retireAt = session ? this.#retireAt(session) : null;
    // The alarm set for the retirement may wake a moment before it by the object's clock: it
    // retires then, not after another alarm (a row written and a request, each billed).
    if (retireAt === null || retireAt > now + ALARM_CLOCK_SLACK_MS || this.#feed.behind())
      return false;
    // A user still at the bridge (a prompt after the session closed) keeps the object: its
    // report is answered from here, not from a copy read back.
    if (this.#store.inProgress(now).length > 0) return false;
    await this.#forget("The session is over");
    return true;
  }

  /** When a closed session's object may delete its storage; null while the session is open. */
  #retireAt(session: SessionRow): number | null {
    if (isOpen(session) || !session.completedAt) return null;
    const closedAt = Date.parse(session.completedAt);
    return Math.max(closedAt + retireAfterMs(this.#env), this.#readBackAt + READ_BACK_HELD_MS);
  }

  /** Everything of the session goes: D1's rows (events and deliveries too), then this storage. */
  async #erase(session: SessionRow) {
    // A push landing after the erasure would put rows back.
    await this.#feed.settled();
    const shard = this.#store.shard();
    if (shard) {
      const db = shardDb(this.#env, shard);
      await db.batch(erasureStatements(db, [session.id]));
    }
    await forgetIdempotentAnswers(this.#env, session.projectId, session.id, ERASED);
    await this.#forget("The session was erased");
    log(this.#env, "info", "session erased after its retention", { session_id: session.id });
  }

  async #forget(reason: string) {
    this.#closeWatchers(reason);
    await this.#storage.deleteAll();
    this.#store.forget();
    this.#readBackAt = 0;
    this.#eraseAt = null;
  }
}
