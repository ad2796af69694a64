import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { database } from "../db/client.ts";
import { shardDb } from "../db/databases.ts";
import { authenticateApiKey, recordApiKeyUse, shouldRecordUse } from "../domain/api-keys.ts";
import { ApiError } from "../lib/errors.ts";
import { bodyTooLarge } from "./problem.ts";
import { admit } from "./rate-limit-leases.ts";

export const API_KEY_HEADER = "x-api-key";
const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/**
 * Who may call is decided here, where the API is mounted: missing, unknown, revoked and expired
 * keys all get the same 401, and every handler below reads the caller's project off `c.var`.
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const plaintext = c.req.header(API_KEY_HEADER);
  const now = new Date();
  // Keys are read from the directory near the caller; what the request reads of its project's
  // shard is opened at its bookmark (api/bookmarks.ts), once the caller is known and admitted.
  const directory = database(c.env.DIRECTORY.withSession("first-unconstrained"));
  const auth = plaintext ? await authenticateApiKey(directory, plaintext, now) : null;
  if (!auth) {
    throw new ApiError(401, `A valid API key is required in the ${API_KEY_HEADER} header`);
  }
  // Best effort: a use not recorded while D1 is away is recorded by the next request.
  if (shouldRecordUse(auth.key, now))
    c.executionCtx.waitUntil(recordApiKeyUse(directory, auth.key, now).catch(() => undefined));
  c.set("apiKey", auth);
  c.set("project", {
    // The shard's primary until readNearCaller opens the request's session at its bookmark.
    db: shardDb(c.env, auth.shard),
    directory,
    shard: auth.shard,
    env: c.env,
    projectId: auth.key.projectId,
    livemode: auth.key.livemode,
    now,
  });
  await next();
});

/**
 * The project-wide limit, counted by one Durable Object per project and mode, which grants each
 * isolate a few requests at a time (api/rate-limit-leases.ts says how exact that is). Test
 * traffic has a bucket of its own: a test suite never spends what live requests need.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limit = Number(c.env.RATE_LIMIT_PER_MINUTE) || DEFAULT_RATE_LIMIT_PER_MINUTE;
  const { projectId, livemode } = c.var.project;
  const decision = await admit(c.env, livemode ? projectId : `${projectId}:test`, limit);
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

/** Refuses a body over `maxSize` bytes with a 413 before it is read. */
export const limitBodyTo = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw bodyTooLarge(maxSize);
    },
  });
