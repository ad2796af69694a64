import type { Env } from "../env.ts";
import { log } from "../lib/log.ts";
import { objectStub } from "../lib/meter.ts";
import { countMetric } from "../lib/metrics.ts";
import { isIndexUnavailable } from "../lib/unavailable.ts";
import type { PushRequest, PushResult } from "./index-push.ts";
import type { SessionStore } from "./session-store.ts";

/** A push that failed is made again this long after (the alarm), until D1 takes it. */
export const PUSH_RETRY_MS = 5_000;
/**
 * A change from the bridge or a signer goes to D1 this long after: a proof's open and finish
 * usually share one push. (API writes push at once, and wait for it.)
 */
export const PUSH_DELAY_MS = 300;

/** A bookmark that, sent back, asks for nothing (api/bookmarks.ts). */
const ASKS_NOTHING = "first-unconstrained";
/** What a read at least as fresh as D1's primary opens its session with. */
const READ_THE_PRIMARY = "first-primary";

/** What the object does around each push. */
export interface FeedHooks {
  /**
   * After each push, or a failed one: the object sets its alarm for what is left. `eraseAt`: when
   * the session is erased, as the shard's writer worked it out (undefined when it did not).
   */
  afterPush: (eraseAt?: number | null) => Promise<void>;
  /** D1 refused the push as erased there: the object forgets the session too. */
  erased: () => Promise<void>;
}

/**
 * How a session's object feeds D1, the project-wide index: whatever D1 has not
 * acknowledged, pushed by index-push.ts. Pushes may overlap (an API write does not wait behind a
 * push the bridge started): each is idempotent, a row only replaces an older version, and the
 * acknowledged version only moves forward. A push that fails because D1 is away is made again by
 * the object's alarm. One D1 refuses on its merits (a constraint, a bug) would be refused again:
 * it is logged as an error, counted (`index_push_refused`) and not retried until the session
 * changes again, and nobody waits for it (a bookmark naming the session reads on without it).
 */
export class IndexFeed {
  readonly #env: Env;
  readonly #store: SessionStore;
  readonly #hooks: FeedHooks;
  /** Pushes to D1 under way. */
  readonly #inFlight = new Set<Promise<PushResult>>();
  /** The version whose push D1 refused on its merits (memory only): not pushed again as it is. */
  #refused = 0;

  constructor(env: Env, store: SessionStore, hooks: FeedHooks) {
    this.#env = env;
    this.#store = store;
    this.#hooks = hooks;
  }

  /** D1 has not acknowledged every change yet, and may still take them. */
  behind(): boolean {
    const version = this.#store.version();
    return this.#store.pushed().version < version && this.#refused < version;
  }

  /** A push is under way. */
  pushing(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Once every push under way has landed or failed. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  /** D1 has the session up to `version` already (read back from it), or has nothing (0). */
  acknowledged(version: number) {
    this.#store.acknowledge({ version, bookmark: this.#store.pushed().bookmark });
  }

  /**
   * Pushes now and answers D1's bookmark after it; null (and the alarm retries) if D1 failed.
   * One refused as erased asks for nothing: the object holds nothing any more.
   */
  async pushNow(): Promise<string | null> {
    try {
      const result = await this.push();
      return result.gone ? ASKS_NOTHING : result.bookmark;
    } catch (error) {
      // D1 away is expected now and then: one line, no stack; anything else is a bug to find.
      const away = isIndexUnavailable(error);
      log(this.#env, "warn", "push to D1 failed; the alarm retries", {
        error: String(error),
        ...(away ? {} : { stack: (error as Error).stack }),
      });
      await this.#hooks.afterPush();
      return null;
    }
  }

  /**
   * D1's bookmark once it has every change so far: after the pushes under way (an edge write's),
   * without a push of its own when they brought it; null (and the alarm retries) if D1 failed.
   */
  /** D1's bookmark after every change so far, when D1 has them all and it is known; else null. */
  inD1(): string | null {
    if (this.behind() || this.pushing()) return null;
    return this.#store.pushed().bookmark;
  }

  async caughtUp(): Promise<string | null> {
    await this.settled();
    if (this.behind()) return this.pushNow();
    // D1 has it all, but this instance never heard its bookmark: the primary is that fresh.
    return this.#store.pushed().bookmark ?? READ_THE_PRIMARY;
  }

  /**
   * Sends D1 what it has not acknowledged yet. The alarm is set for a retry after a push that
   * failed, not before each one: a push lost with the process (a deploy mid-push) is made by the
   * object's next alarm or change.
   */
  push(): Promise<PushResult> {
    const push = this.#pushPending();
    this.#inFlight.add(push);
    // Before any caller's own handlers run: a caller that failed sees no push under way.
    const done = () => this.#inFlight.delete(push);
    void push.then(done, done);
    return push;
  }

  async #pushPending(): Promise<PushResult> {
    const store = this.#store;
    // A deletion goes after every push before it: one that landed later would insert the row again.
    if (store.deleted()) await this.settled();
    const pushed = store.pushed();
    const webhooks = store.newWebhooks();
    if (pushed.version >= store.version() && webhooks.length === 0) return pushed;
    // Refused as it is: nobody waits for what D1 will not take.
    if (this.#refused >= store.version())
      return { ...pushed, bookmark: pushed.bookmark ?? ASKS_NOTHING };
    const changes = store.changesSince(pushed.version);
    const session = changes.session ?? store.session();
    const shard = store.shard();
    let result: PushResult;
    try {
      result =
        session && shard
          ? await pushThroughWriter(this.#env, shard, {
              target: {
                projectId: session.projectId,
                sessionId: session.id,
                kind: session.kind,
                livemode: session.livemode,
                createdAt: session.createdAt,
                completedAt: session.completedAt,
              },
              changes,
              newWebhooks: webhooks,
            })
          : { version: changes.version, bookmark: null };
    } catch (error) {
      // Only D1's own refusal stops the retries: anything else (D1 away, the writer unreachable,
      // a fault) is made again by the alarm.
      if (!(error instanceof RefusedPushError) || !session) throw error;
      this.#refuse(session, changes.version, error);
      await this.#hooks.afterPush();
      return { ...pushed, bookmark: pushed.bookmark ?? ASKS_NOTHING };
    }
    if (result.gone) {
      await this.#hooks.erased();
      return result;
    }
    // Read again: an overlapping push may have landed meanwhile. Both only move forward.
    const now = store.pushed();
    const newer = (a: string | null, b: string | null) => (a && (!b || a > b) ? a : b);
    store.acknowledge(
      {
        version: Math.max(result.version, now.version),
        bookmark: newer(result.bookmark, now.bookmark),
      },
      webhooks.length > 0,
    );
    await this.#hooks.afterPush(result.eraseAt);
    return result;
  }

  /** D1 refused the session's push on its merits: said once, counted, and not made again as it is. */
  #refuse(session: { id: string; projectId: string }, version: number, error: unknown) {
    this.#refused = version;
    countMetric(this.#env, "index_push_refused", { project_id: session.projectId });
    log(
      this.#env,
      "error",
      "D1 refused a session's push; it is not retried until the session changes",
      {
        session_id: session.id,
        project_id: session.projectId,
        version,
        error: String(error),
      },
    );
  }
}

/**
 * The writer a shard's pushes go through (index-writer.ts): one per shard, named after it, so no
 * object is shared by every project.
 */
export const indexWriter = (env: Env, shard: string) => objectStub(env, env.INDEX_WRITER, shard);

/** A push D1 refused on its merits: trying it again as it is would be refused again. */
class RefusedPushError extends Error {}

/** A push through its shard's writer; its failure thrown here as the error it was there. */
async function pushThroughWriter(
  env: Env,
  shard: string,
  request: Omit<PushRequest, "shard">,
): Promise<PushResult> {
  const outcome = await indexWriter(env, shard).push({ ...request, shard });
  if (!outcome.ok)
    throw outcome.refused ? new RefusedPushError(outcome.message) : new Error(outcome.message);
  return outcome.result;
}
