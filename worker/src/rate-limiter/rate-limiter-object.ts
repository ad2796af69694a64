import { DurableObject } from "cloudflare:workers";
import {
  checkSlidingWindow,
  consumeSlidingWindow,
  HitLog,
  leaseSlidingWindow,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitDecision,
  type RateLimitLease,
  type SpentGrant,
  settleGrants,
} from "../domain/rate-limit.ts";
import type { Env } from "../env.ts";
import { meteredAlarm, meteredStorage, metering } from "../lib/meter.ts";

/** Where the log is kept: one entry of the object's own storage, with the window it counts. */
const LOG_KEY = "hits";
interface KeptLog {
  runs: [number, number][];
  windowMs: number;
}

/**
 * One instance per counted thing (a project, an address, an account), so a limit holds for it
 * as a whole. The log is kept in the object's storage at each change, not only in memory: an
 * object idle for some seconds is evicted, and a new instance must find every hit still in its
 * window, or the limit would be granted afresh after every pause. Once the window holds nothing,
 * an alarm deletes the entry: the object keeps nothing that has expired.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #hits: HitLog;
  /** The window this object's hits are counted over (each use of the class has its own). */
  #windowMs = RATE_LIMIT_WINDOW_MS;
  /** When the alarm that empties the storage is set for (null: none). */
  #sweepAt: number | null = null;
  readonly #storage: DurableObjectStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#storage = metering(env) ? meteredStorage(ctx.storage, "rate limiter") : ctx.storage;
    const kept = this.#storage.kv.get<KeptLog>(LOG_KEY);
    this.#hits = HitLog.of(kept?.runs);
    this.#windowMs = kept?.windowMs ?? RATE_LIMIT_WINDOW_MS;
    // An entry kept from before the eviction has its alarm set already.
    if (kept) this.#sweepAt = Number.POSITIVE_INFINITY;
  }

  /** Counts one hit if it fits. */
  async consume(limit: number, windowMs?: number): Promise<RateLimitDecision> {
    const decision = consumeSlidingWindow(this.#hits, limit, Date.now(), windowMs);
    if (decision.allowed) this.#keep(windowMs);
    return decision;
  }

  /**
   * Grants up to `count` hits for an isolate to spend within `leaseMs` (`quietLeaseMs` while the
   * window is at most half full), after putting the hits of its `spent` grants where they were
   * spent (api/rate-limit-leases.ts).
   */
  async lease(
    limit: number,
    count: number,
    leaseMs: number,
    quietLeaseMs = leaseMs,
    spent: SpentGrant[] = [],
  ): Promise<RateLimitLease> {
    const now = Date.now();
    settleGrants(this.#hits, spent, now, Math.max(leaseMs, quietLeaseMs));
    const lease = leaseSlidingWindow(this.#hits, limit, count, now, { leaseMs, quietLeaseMs });
    if (lease.granted > 0 || spent.length > 0) this.#keep();
    return lease;
  }

  /** Whether one more hit would fit, without counting it. */
  async check(limit: number, windowMs?: number): Promise<RateLimitDecision> {
    return checkSlidingWindow(this.#hits, limit, Date.now(), windowMs);
  }

  /** Counts one hit whether or not it fits (a failure that already happened). */
  async record(windowMs?: number): Promise<void> {
    checkSlidingWindow(this.#hits, Number.POSITIVE_INFINITY, Date.now(), windowMs);
    this.#hits.add(Date.now());
    this.#keep(windowMs);
  }

  /** The window is over: what it held has expired, and the entry goes once nothing is left. */
  override alarm(): Promise<void> {
    return meteredAlarm(async () => {
      this.#hits.expire(Date.now() - this.#windowMs);
      this.#sweepAt = null;
      if (this.#hits.total === 0) this.#storage.kv.delete(LOG_KEY);
      else this.#keep(this.#windowMs);
    });
  }

  /**
   * Keeps the log, and an alarm for when its window is over. A grant's hits are logged at its
   * end (up to a lease ahead), so the alarm counts from the latest hit. An alarm already set is
   * left where it is, however many hits came since: each set is a row written, and an alarm
   * that finds hits still in the window sets the next one (one a window, not one a grant).
   */
  #keep(windowMs = RATE_LIMIT_WINDOW_MS) {
    this.#windowMs = windowMs;
    const runs = this.#hits.runsNow();
    this.#storage.kv.put<KeptLog>(LOG_KEY, { runs, windowMs });
    if (this.#sweepAt !== null) return;
    const latest = runs.at(-1)?.[0] ?? Date.now();
    this.#sweepAt = latest + windowMs;
    void this.#storage.setAlarm(this.#sweepAt);
  }
}
