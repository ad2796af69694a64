import type { EventRow, InvocationRow, WebhookRow } from "../db/webhooks.ts";
import { fetchFailure } from "../lib/fetch-failure.ts";
import { standardWebhookHeaders } from "./signing.ts";

/** The first KiB of a receiver's answer is kept with each attempt. */
export const RESPONSE_PREFIX_BYTES = 1024;
export const DEFAULT_DELIVERY_TIMEOUT_SECONDS = 15;

export interface AttemptResult {
  requestTime: string;
  durationMs: number;
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  retryAfter: string | null;
}

/** The JSON every delivery carries (docs/webhooks.md, "Delivery"). */
export function envelope(
  webhook: WebhookRow,
  invocation: InvocationRow,
  event: EventRow,
  attempt: number,
  now: Date,
) {
  return {
    entity: event.entity,
    id: event.sessionId ?? webhook.id,
    event: event.type,
    event_id: event.id,
    livemode: event.livemode,
    webhook_id: webhook.id,
    webhook_invocation_id: invocation.id,
    trigger_time: event.createdAt,
    request_time: now.toISOString(),
    attempt,
    payload: event.payload,
  };
}

async function readPrefix(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_PREFIX_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, RESPONSE_PREFIX_BYTES));
}

/** One signed request to the receiver; never throws, the outcome is in the result. */
export async function sendAttempt(
  webhook: WebhookRow,
  invocationId: string,
  body: string,
  now: Date,
  timeoutSeconds: number,
): Promise<AttemptResult> {
  const started = Date.now();
  const signed = await standardWebhookHeaders(
    webhook.secret,
    invocationId,
    Math.floor(now.getTime() / 1000),
    body,
  );
  const base = {
    requestTime: now.toISOString(),
    statusCode: null,
    responseBody: null,
    retryAfter: null,
  };
  const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
  try {
    const response = await fetch(webhook.url, {
      method: webhook.method.toUpperCase(),
      headers: {
        ...webhook.headers,
        ...signed,
        "content-type": "application/json",
        "user-agent": "keyproof-webhooks/1",
      },
      body,
      redirect: "manual",
      signal: deadline,
    });
    const responseBody = await readPrefix(response);
    return {
      ...base,
      durationMs: Date.now() - started,
      statusCode: response.status,
      responseBody,
      error: response.ok ? null : `HTTP ${response.status}`,
      retryAfter: response.headers.get("retry-after"),
    };
  } catch (error) {
    const host = URL.canParse(webhook.url) ? new URL(webhook.url).host : "The receiver";
    return {
      ...base,
      durationMs: Date.now() - started,
      error: `${host} ${fetchFailure(error, deadline, timeoutSeconds)}`,
    };
  }
}
