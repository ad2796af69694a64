import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { database } from "../db/client.ts";
import { authenticateApiKey, recordApiKeyUse, shouldRecordUse } from "../domain/api-keys.ts";
import type { ProjectContext } from "../domain/context.ts";
import { ApiError } from "../lib/errors.ts";

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const API_KEY_HEADER = "x-api-key";
const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** A request that carries a body must say it is JSON. */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const hasBody =
    c.req.raw.body !== null &&
    (c.req.header("content-length") !== "0" || c.req.header("transfer-encoding") !== undefined);
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (hasBody && !JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError(
      415,
      "The request body must be JSON, sent with content-type: application/json",
      [
        {
          location: "header.content-type",
          message: "Expected application/json",
          value: mediaType || null,
        },
      ],
    );
  }
  await next();
});

/** Missing, unknown, revoked and expired keys all get the same 401. */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const plaintext = c.req.header(API_KEY_HEADER);
  const now = new Date();
  const db = database(c.env.DB);
  const auth = plaintext ? await authenticateApiKey(db, plaintext, now) : null;
  if (!auth) {
    throw new ApiError(401, `A valid API key is required in the ${API_KEY_HEADER} header`);
  }
  if (shouldRecordUse(auth.key, now))
    c.executionCtx.waitUntil(recordApiKeyUse(db, auth.key.id, now));
  c.set("auth", auth);
  await next();
});

/** The project-wide limit, counted by one Durable Object per project. */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const projectId = c.get("auth").key.projectId;
  const limit = Number(c.env.RATE_LIMIT_PER_MINUTE) || DEFAULT_RATE_LIMIT_PER_MINUTE;
  const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(projectId));
  const decision = await limiter.consume(limit);
  const headers = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
  };
  if (!decision.allowed) {
    throw new ApiError(
      429,
      `Rate limit of ${decision.limit} requests per minute exceeded for this project`,
      undefined,
      { ...headers, "Retry-After": String(decision.retryAfter) },
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
});

export function projectContext(c: {
  env: AppEnv["Bindings"];
  get(key: "auth"): AppEnv["Variables"]["auth"];
}): ProjectContext {
  return {
    db: database(c.env.DB),
    env: c.env,
    projectId: c.get("auth").key.projectId,
    now: new Date(),
  };
}
