export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request would be allowed (0 when allowed). */
  retryAfter: number;
}

/**
 * Sliding-window log: at most `limit` requests in any rolling window. `hits` holds the times of
 * the accepted requests still inside the window, oldest first; it is updated in place.
 */
export function consumeSlidingWindow(
  hits: number[],
  limit: number,
  now: number,
): RateLimitDecision {
  const windowStart = now - RATE_LIMIT_WINDOW_MS;
  let expired = 0;
  while (expired < hits.length && (hits[expired] ?? 0) <= windowStart) expired++;
  hits.splice(0, expired);
  if (hits.length >= limit) {
    const oldestThatMustLeave = hits[hits.length - limit] ?? now;
    const retryAfter = Math.max(
      1,
      Math.ceil((oldestThatMustLeave + RATE_LIMIT_WINDOW_MS - now) / 1000),
    );
    return { allowed: false, limit, remaining: 0, retryAfter };
  }
  hits.push(now);
  return { allowed: true, limit, remaining: limit - hits.length, retryAfter: 0 };
}
