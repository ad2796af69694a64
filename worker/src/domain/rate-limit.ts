export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request would be allowed (0 when allowed). */
  retryAfter: number;
}

/** Forgets the hits that left the window; `hits` is oldest first and is changed in place. */
function expire(hits: number[], now: number, windowMs: number) {
  let expired = 0;
  while (expired < hits.length && (hits[expired] ?? 0) <= now - windowMs) expired++;
  hits.splice(0, expired);
}

/** Whether one more hit fits in the window, without counting it. */
export function checkSlidingWindow(
  hits: number[],
  limit: number,
  now: number,
  windowMs = RATE_LIMIT_WINDOW_MS,
): RateLimitDecision {
  expire(hits, now, windowMs);
  if (hits.length >= limit) {
    const oldestThatMustLeave = hits[hits.length - limit] ?? now;
    const retryAfter = Math.max(1, Math.ceil((oldestThatMustLeave + windowMs - now) / 1000));
    return { allowed: false, limit, remaining: 0, retryAfter };
  }
  return { allowed: true, limit, remaining: limit - hits.length, retryAfter: 0 };
}

/**
 * Sliding-window log: at most `limit` hits in any rolling window. `hits` holds the times of the
 * accepted hits still inside the window, oldest first; it is updated in place.
 */
export function consumeSlidingWindow(
  hits: number[],
  limit: number,
  now: number,
  windowMs = RATE_LIMIT_WINDOW_MS,
): RateLimitDecision {
  const decision = checkSlidingWindow(hits, limit, now, windowMs);
  if (!decision.allowed) return decision;
  hits.push(now);
  // A lease's hits are logged ahead (leaseSlidingWindow); the log stays in time order.
  if ((hits.at(-2) ?? 0) > now) hits.sort((a, b) => a - b);
  return { ...decision, remaining: decision.remaining - 1 };
}

/** A grant of hits an isolate may spend by itself until `until` (ms). */
export interface RateLimitLease extends RateLimitDecision {
  granted: number;
  until: number;
}

/**
 * Grants up to `count` hits at once, to be spent within `leaseMs`. They are logged as if made
 * at the end of the lease, the latest they can be spent, so each counts in the window for at
 * least as long as the hit it stands for: the limit is never exceeded, however the grants are
 * spent. Hits granted but not spent are lost for the window (the cost of not asking each time).
 */
export function leaseSlidingWindow(
  hits: number[],
  limit: number,
  count: number,
  now: number,
  leaseMs: number,
  windowMs = RATE_LIMIT_WINDOW_MS,
): RateLimitLease {
  const decision = checkSlidingWindow(hits, limit, now, windowMs);
  const until = now + leaseMs;
  if (!decision.allowed) return { ...decision, granted: 0, until };
  const granted = Math.min(count, decision.remaining);
  // Kept in time order: a grant logged in the future is the newest entry.
  for (let i = 0; i < granted; i++) hits.push(until);
  hits.sort((a, b) => a - b);
  return { ...decision, remaining: decision.remaining - granted, granted, until };
}
