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
  return { ...decision, remaining: decision.remaining - 1 };
}
