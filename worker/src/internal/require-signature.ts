import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../lib/errors.ts";
import { SIGNATURE_WINDOW_SECONDS, verifySignedRequest } from "../protocol/request-signing.ts";

export const bridgeUnauthorized = () => new ApiError(401, "A valid bridge signature is required");

/**
 * Only the bridge, holding BRIDGE_SECRET (or the previous one during a rotation), gets through.
 * Replays are refused where a call would change something: its session's Durable Object remembers
 * the nonce (session-object/seen-nonces.ts). Calls that only read answer a replay the same again.
 */
export const requireBridgeSignature = createMiddleware<AppEnv>(async (c, next) => {
  const secrets = [c.env.BRIDGE_SECRET ?? "", c.env.BRIDGE_SECRET_PREVIOUS ?? ""];
  if (!secrets.some(Boolean)) throw bridgeUnauthorized();
  const url = new URL(c.req.url);
  const check = await verifySignedRequest(
    secrets,
    { method: c.req.method, path: url.pathname + url.search, body: await c.req.text() },
    c.req.raw.headers,
  );
  if (!check.ok) throw bridgeUnauthorized();
  // A nonce is remembered for as long as its timestamp could still be accepted.
  c.set("bridgeNonce", {
    nonce: check.nonce,
    expiresAt: (check.timestamp + SIGNATURE_WINDOW_SECONDS) * 1000 + 1000,
  });
  await next();
});
