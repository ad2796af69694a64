import { lt } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { database } from "../db/client.ts";
import { bridgeNonces } from "../db/sessions.ts";
import { ApiError } from "../lib/errors.ts";
import { SIGNATURE_WINDOW_SECONDS, verifySignedRequest } from "../protocol/request-signing.ts";

const unauthorized = () => new ApiError(401, "A valid bridge signature is required");

/** Only the bridge, holding BRIDGE_SECRET (or the previous one during a rotation), gets through. */
export const requireBridgeSignature = createMiddleware<AppEnv>(async (c, next) => {
  const secrets = [c.env.BRIDGE_SECRET ?? "", c.env.BRIDGE_SECRET_PREVIOUS ?? ""];
  if (!secrets.some(Boolean)) throw unauthorized();
  const url = new URL(c.req.url);
  const check = await verifySignedRequest(
    secrets,
    { method: c.req.method, path: url.pathname + url.search, body: await c.req.text() },
    c.req.raw.headers,
  );
  if (!check.ok) throw unauthorized();
  const db = database(c.env.DB);
  const now = new Date();
  // A nonce is remembered for as long as its timestamp could still be accepted.
  const expiresAt = new Date(
    (check.timestamp + SIGNATURE_WINDOW_SECONDS) * 1000 + 1000,
  ).toISOString();
  const [fresh] = await db.batch([
    db
      .insert(bridgeNonces)
      .values({ nonce: check.nonce, expiresAt })
      .onConflictDoNothing()
      .returning(),
    db.delete(bridgeNonces).where(lt(bridgeNonces.expiresAt, now.toISOString())),
  ]);
  if (fresh.length === 0) throw unauthorized();
  await next();
});
