import type { WebhookRow } from "../db/webhooks.ts";
import type { Webhook } from "../schemas/webhooks.ts";

/** A webhook on the wire: everything but its secret. */
export function webhookView(row: WebhookRow): Webhook {
  return {
    id: row.id,
    session_id: row.sessionId,
    url: row.url,
    method: row.method,
    headers: row.headers,
    events: row.events,
    retries: row.retries,
    initial_backoff: row.initialBackoff,
    backoff_multiplier: row.backoffMultiplier,
    enabled: row.enabled,
    livemode: row.livemode,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
