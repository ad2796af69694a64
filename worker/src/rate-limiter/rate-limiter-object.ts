import { DurableObject } from "cloudflare:workers";
import {
  checkSlidingWindow,
  consumeSlidingWindow,
  HitLog,
  leaseSlidingWindow,
  type RateLimitDecision,
  type RateLimitLease,
  type SpentGrant,
  settleGrants,
} from "../domain/rate-limit.ts";
import type { Env } from "../env.ts";

/**
 * One instance per counted thing (a project, an address, an account), so a limit holds for it
 * as a whole. The log lives in memory: an instance is only evicted after it has been idle for
 * longer than its window, by which time every entry would have expired anyway.
 */
export class RateLimiter extends DurableObject<Env> {
  readonly #hits = new HitLog();

  /** Counts one hit if it fits. */
  async consume(limit: number, windowMs?: number): Promise<RateLimitDecision> {
    return consumeSlidingWindow(this.#hits, limit, Date.now(), windowMs);
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
    return leaseSlidingWindow(this.#hits, limit, count, now, { leaseMs, quietLeaseMs });
  }

  /** Whether one more hit would fit, without counting it. */
  async check(limit: number, windowMs?: number): Promise<RateLimitDecision> {
    return checkSlidingWindow(this.#hits, limit, Date.now(), windowMs);
  }

  /** Counts one hit whether or not it fits (a failure that already happened). */
  async record(windowMs?: number): Promise<void> {
    checkSlidingWindow(this.#hits, Number.POSITIVE_INFINITY, Date.now(), windowMs);
    this.#hits.add(Date.now());
  }
}
