/** Cloudflare Queues delay a message by at most 12 hours; longer waits are taken in steps. */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 60 * 60;

/** No single wait is longer than 30 days, however steep the configured backoff. */
export const MAX_RETRY_DELAY_SECONDS = 30 * 24 * 60 * 60;

/** Delay before retry `n` (1-based): initial_backoff × backoff_multiplier^(n-1) seconds. */
export function backoffSeconds(initialBackoff: number, multiplier: number, retry: number): number {
  return Math.min(Math.round(initialBackoff * multiplier ** (retry - 1)), MAX_RETRY_DELAY_SECONDS);
}

/** A receiver's Retry-After (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The wait before the next attempt: the backoff, or the receiver's Retry-After when longer. */
export function nextDelaySeconds(
  webhook: { initialBackoff: number; backoffMultiplier: number },
  retry: number,
  retryAfter: number | null,
): number {
  const backoff = backoffSeconds(webhook.initialBackoff, webhook.backoffMultiplier, retry);
  return Math.min(Math.max(backoff, retryAfter ?? 0), MAX_RETRY_DELAY_SECONDS);
}

/** An attempt in flight holds its invocation this long past the receiver's own timeout. */
const LEASE_MARGIN_SECONDS = 15;

export function leaseSeconds(timeoutSeconds: number): number {
  return timeoutSeconds + LEASE_MARGIN_SECONDS;
}

/**
 * How long past its due time an invocation with no attempt in flight waits before the sweeper
 * sends it again: long enough that a queued message normally arrives first.
 */
export const DEFAULT_SWEEP_GRACE_SECONDS = 60;
