import { type Context, Hono } from "hono";
import * as z from "zod/mini";
import { validate } from "../api/router.ts";
import type { AppEnv } from "../app-env.ts";
import { directoryDb } from "../db/databases.ts";
import {
  type BridgeContext,
  connectionProgress,
  connectionStatus,
  finishConnection,
  openConnection,
} from "../domain/connections.ts";
import { DEVELOPMENT_ACCOUNT_EMAIL } from "../domain/development-account.ts";
import { seedDevelopmentProject } from "../domain/development-seed.ts";
import {
  connectionProgressRequest,
  finishConnectionRequest,
  openConnectionRequest,
} from "../protocol/messages.ts";
import { requireBridgeSignature } from "./require-signature.ts";

const seedRequest = z.strictObject({
  email: z.literal(DEVELOPMENT_ACCOUNT_EMAIL),
  password: z.string().check(z.minLength(8), z.maxLength(200)),
  resetPassword: z.boolean(),
  projectName: z.string().check(z.maxLength(100)),
});

const bridgeContext = (c: Context<AppEnv>): BridgeContext => ({
  env: c.env,
  nonce: c.var.bridgeNonce,
});

/** The signed endpoints the SSH bridge calls; never in the OpenAPI document, never an API key. */
export const internalRoutes = new Hono<AppEnv>()
  .use(requireBridgeSignature)
  .post("/connections", validate("json", openConnectionRequest), async (c) =>
    c.json(await openConnection(bridgeContext(c), c.req.valid("json"))),
  )
  .post(
    "/connections/:connection_id/finish",
    validate("json", finishConnectionRequest),
    async (c) =>
      c.json(
        await finishConnection(bridgeContext(c), c.req.param("connection_id"), c.req.valid("json")),
      ),
  )
  .post(
    "/connections/:connection_id/progress",
    validate("json", connectionProgressRequest),
    async (c) =>
      c.json(
        await connectionProgress(
          bridgeContext(c),
          c.req.param("connection_id"),
          c.req.valid("json"),
        ),
      ),
  )
  .get("/sessions/:session_id/status", async (c) =>
    c.json(
      await connectionStatus(
        bridgeContext(c),
        c.req.param("session_id"),
        c.req.query("identifier"),
      ),
    ),
  )
  // The bridge's readiness probe: this Worker answers, and holds the bridge's secret.
  .get("/health", (c) => c.json({ ok: true as const }))
  // `npm run seed` while `npm start` runs (scripts/seed.ts): development only, signed like the
  // bridge's calls with the local .dev.vars secret.
  .post("/dev/seed", validate("json", seedRequest), async (c) => {
    if (c.env.ENVIRONMENT !== "development") return c.notFound();
    return c.json(
      await seedDevelopmentProject(c.env, directoryDb(c.env), c.req.valid("json")),
      201,
    );
  });
