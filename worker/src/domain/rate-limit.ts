export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request would be allowed (0 when allowed). */
  retryAfter: number;
}

/**
 * The hits inside a window, oldest first, as runs: a time and how many hits it holds. A lease of
 * many hits is one run, so what a call costs follows the calls made in the window, not the limit
 * (a log of one entry a hit, sorted at each lease, took 14 ms a lease at 240,000 a
 * minute, 0.13 ms at 600).
 */
export class HitLog {
  readonly #times: number[] = [];
  readonly #counts: number[] = [];
  #total = 0;

  /** The log as it can be kept: its runs, oldest first. */
  runsNow(): [time: number, count: number][] {
    return this.#times.map((time, run) => [time, this.#counts[run] ?? 0]);
  }

  /** A log of the runs `runsNow` gave (an unreadable value is an empty log). */
  static of(runs: unknown): HitLog {
    const log = new HitLog();
    if (!Array.isArray(runs)) return log;
    for (const run of runs)
      if (Array.isArray(run) && Number.isFinite(run[0]) && Number.isInteger(run[1]))
        log.add(run[0] as number, run[1] as number);
    return log;
  }

  /** Hits in the log. */
  get total(): number {
    return this.#total;
  }

  /** Runs in the log: what a call's work grows with. */
  get runs(): number {
    return this.#times.length;
  }

  /** `count` hits at `at`, in time order (a lease's are logged ahead, after any made now). */
  add(at: number, count = 1) {
    if (count <= 0) return;
    let position = this.#times.length;
    while (position > 0 && (this.#times[position - 1] ?? 0) > at) position--;
    if (position > 0 && this.#times[position - 1] === at)
      this.#counts[position - 1] = (this.#counts[position - 1] ?? 0) + count;
    else {
      this.#times.splice(position, 0, at);
      this.#counts.splice(position, 0, count);
    }
    this.#total += count;
  }

  /** Takes back `count` of the hits logged at `at`; false (and nothing taken) if it holds fewer. */
  remove(at: number, count: number): boolean {
    const run = this.#times.lastIndexOf(at);
    const held = this.#counts[run] ?? 0;
    if (run < 0 || held < count) return false;
    if (held === count) {
      this.#times.splice(run, 1);
      this.#counts.splice(run, 1);
    } else this.#counts[run] = held - count;
    this.#total -= count;
    return true;
  }

  /** Forgets the hits made at or before `at`. */
  expire(at: number) {
    let runs = 0;
    while (runs < this.#times.length && (this.#times[runs] ?? 0) <= at) {
      this.#total -= this.#counts[runs] ?? 0;
      runs++;
    }
    this.#times.splice(0, runs);
    this.#counts.splice(0, runs);
  }

  /** The time of the `n`th oldest hit (from 1). */
  nthOldest(n: number): number | undefined {
    let seen = 0;
    for (const [run, time] of this.#times.entries()) {
      seen += this.#counts[run] ?? 0;
      if (seen >= n) return time;
    }
    return undefined;
  }
}

/** Whether one more hit fits in the window, without counting it. */
export function checkSlidingWindow(
  hits: HitLog,
  limit: number,
  now: number,
  windowMs = RATE_LIMIT_WINDOW_MS,
): RateLimitDecision {
  hits.expire(now - windowMs);
  if (hits.total >= limit) {
    // One more fits once every hit up to this one has left the window.
    const oldestThatMustLeave = hits.nthOldest(hits.total - limit + 1) ?? now;
    const retryAfter = Math.max(1, Math.ceil((oldestThatMustLeave + windowMs - now) / 1000));
    return { allowed: false, limit, remaining: 0, retryAfter };
  }
  return { allowed: true, limit, remaining: limit - hits.total, retryAfter: 0 };
}

/**
 * Sliding-window log: at most `limit` hits in any rolling window. `hits` holds the accepted hits
 * still inside the window; it is updated in place.
 */
export function consumeSlidingWindow(
  hits: HitLog,
  limit: number,
  now: number,
  windowMs = RATE_LIMIT_WINDOW_MS,
): RateLimitDecision {
  const decision = checkSlidingWindow(hits, limit, now, windowMs);
  if (!decision.allowed) return decision;
  hits.add(now);
  return { ...decision, remaining: decision.remaining - 1 };
}

/** A grant of hits an isolate may spend by itself until `until` (ms). */
export interface RateLimitLease extends RateLimitDecision {
  granted: number;
  until: number;
}

/** What an isolate did with a grant it no longer holds, told at its next lease. */
export interface SpentGrant {
  /** The grant's `until`: where its hits were logged. */
  until: number;
  granted: number;
  /** The hits it spent, as runs: a time (rounded up to the second, never past `until`) and a count. */
  spent: [number, number][];
}

/**
 * Puts a grant's hits where they were spent: its hits logged at its end are taken back, and the
 * ones spent are logged at the (rounded-up) times they were. A hit is never logged earlier than it
 * was made, so the limit still holds; unspent hits are free again. A grant whose hits have left
 * the window already (or that the log never held) changes nothing.
 */
export function settleGrants(
  hits: HitLog,
  grants: SpentGrant[],
  now: number,
  longestLeaseMs: number,
) {
  for (const grant of grants) {
    const spent = grant.spent.filter(
      ([at, count]) => count > 0 && at <= grant.until && at >= grant.until - longestLeaseMs,
    );
    const total = spent.reduce((sum, [, count]) => sum + count, 0);
    if (total > grant.granted || !hits.remove(grant.until, grant.granted)) continue;
    for (const [at, count] of spent) hits.add(Math.min(at, now), count);
  }
}

/** How long a lease may be spent: `leaseMs`, or `quietLeaseMs` while the window is quiet. */
export interface LeaseLength {
  leaseMs: number;
  /** The lease when the window holds at most half the limit, this grant included. */
  quietLeaseMs?: number;
}

/**
 * Grants up to `count` hits at once, to be spent within the lease. They are logged as if made at
 * the end of the lease, the latest they can be spent, so each counts in the window for at least as
 * long as the hit it stands for: the limit is never exceeded, however the grants are spent. The
 * isolate tells at its next lease when it spent them (settleGrants); hits of a grant never told
 * of stay where they were logged.
 */
export function leaseSlidingWindow(
  hits: HitLog,
  limit: number,
  count: number,
  now: number,
  { leaseMs, quietLeaseMs = leaseMs }: LeaseLength,
  windowMs = RATE_LIMIT_WINDOW_MS,
): RateLimitLease {
  const decision = checkSlidingWindow(hits, limit, now, windowMs);
  if (!decision.allowed) return { ...decision, granted: 0, until: now + leaseMs };
  const granted = Math.min(count, decision.remaining);
  const quiet = hits.total + granted <= limit / 2;
  const until = now + (quiet ? quietLeaseMs : leaseMs);
  hits.add(until, granted);
  return { ...decision, remaining: decision.remaining - granted, granted, until };
}
