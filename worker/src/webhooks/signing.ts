import { Buffer } from "node:buffer";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 24;

export function newWebhookSecret(): string {
  return (
    WEBHOOK_SECRET_PREFIX +
    Buffer.from(crypto.getRandomValues(new Uint8Array(SECRET_BYTES))).toString("base64")
  );
}

/**
 * Standard Webhooks headers (standardwebhooks.com): the signature is HMAC-SHA256, keyed with the
 * base64-decoded secret, over `id.timestamp.body`, so the `standardwebhooks` package verifies it.
 */
export async function standardWebhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
) {
  const keyBytes = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), "base64");
  const key = await crypto.subtle.importKey(
    "raw",
    keyBytes,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`${id}.${timestamp}.${body}`),
  );
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${Buffer.from(mac).toString("base64")}`,
  };
}
