import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env.ts";
import type { StoredAnswer } from "../idempotency/idempotency-object.ts";
import { sha256Hex } from "../lib/encoding.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { objectStub } from "../lib/meter.ts";

/**
 * `Idempotency-Key` on a POST: a retry with the same key and body gets the first answer
 * again (`Idempotent-Replayed: true`) instead of a second session or webhook; the same key with
 * another body is a 422; a retry while the first is still running, a 409. Per project, for 24
 * hours; answers of 500 and above are not kept, so a retry runs again, nor those of a request
 * no route takes.
 */
export const IDEMPOTENCY_HEADER = "idempotency-key";
const KEY = /^[\x21-\x7e]{1,255}$/;
/** The headers of a first answer a replay repeats. */
const REPLAYED_HEADERS = ["content-type", "location", "keyproof-bookmark"];

/**
 * Whether a route (not only middleware like this) takes the request: a request no endpoint runs
 * for (a mistyped path) keeps no answer, so its key still works once the path is right.
 */
const routed = (c: Context<AppEnv>) => matchedRoutes(c).some((route) => route.method !== "ALL");

export const idempotent = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (c.req.method !== "POST" || key === undefined || !routed(c)) return next();
  if (!KEY.test(key)) {
    throw badRequest(
      `header.${IDEMPOTENCY_HEADER}`,
      "Idempotency-Key must be 1 to 255 visible ASCII characters",
      key.slice(0, 100),
    );
  }
  const records = objectStub(c.env, c.env.IDEMPOTENCY, c.var.project.projectId);
  // The body is read once here; Hono keeps it for the route's own validation.
  const fingerprint = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
  // Each mode has its own keys: a request never replays the other mode's answer,
  // whatever its key looks like.
  const recorded = `${c.var.project.livemode ? "live" : "test"}:${key}`;
  const admission = await records.admit(recorded, fingerprint);
  if (admission.kind === "mismatch") {
    throw new ApiError(
      422,
      "This Idempotency-Key was used for another request; use a new key for a new request",
      [
        {
          location: `header.${IDEMPOTENCY_HEADER}`,
          message: "Used for another request",
          value: key,
        },
      ],
    );
  }
  if (admission.kind === "running") {
    throw new ApiError(
      409,
      "A request with this Idempotency-Key is still running; retry once it has answered",
    );
  }
  if (admission.kind === "replay") {
    const { status, headers, body, erased } = admission.answer;
    if (erased !== undefined) throw new ApiError(410, erased);
    // Through the context, so the replay carries this request's own x-request-id.
    const replayed = { ...headers, "idempotent-replayed": "true" };
    // A 204's stored body is empty, and a 204 may carry none.
    return body
      ? c.body(body, status as ContentfulStatusCode, replayed)
      : c.body(null, status as StatusCode, replayed);
  }
  // A create derives its session's id from this, so a run again after a crash finds it.
  c.set("idempotency", { key: recorded, fingerprint, firstAt: admission.firstAt });
  try {
    await next();
  } finally {
    const response = c.res;
    const kept: StoredAnswer | null =
      response.status >= 500
        ? null
        : {
            status: response.status,
            headers: Object.fromEntries(
              REPLAYED_HEADERS.flatMap((name) => {
                const value = response.headers.get(name);
                return value === null ? [] : [[name, value]];
              }),
            ),
            body: await response.clone().text(),
          };
    await records.settle(recorded, kept);
  }
});
