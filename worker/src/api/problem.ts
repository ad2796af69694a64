import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../app-env.ts";
import { ApiError, type ErrorStatus, STATUS_TITLES } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { indexUnavailable, isIndexUnavailable } from "../lib/unavailable.ts";
import { isPrivateKeyText } from "../protocol/public-keys.ts";
import type { Problem } from "../schemas/common.ts";
import { LIMITS } from "../schemas/limits.ts";

const PROBLEM_TYPES: Record<ErrorStatus, string> = {
  400: "invalid-request",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  409: "conflict",
  410: "gone",
  413: "body-too-large",
  415: "unsupported-media-type",
  422: "idempotency-key-reused",
  429: "rate-limited",
  500: "internal-error",
  503: "unavailable",
};

/** Longest string echoed back in `errors[].value`; a longer one is cut. */
const MAX_ECHOED_LENGTH = 200;

/**
 * Only short scalars are echoed: an object or a 20,000-deep array cannot be serialised safely,
 * and no part of a private key pasted by mistake ever leaves again.
 */
function echoed(value: unknown): unknown {
  if (typeof value === "string" && isPrivateKeyText(value)) return undefined;
  if (typeof value === "string")
    return value.length > MAX_ECHOED_LENGTH ? `${value.slice(0, MAX_ECHOED_LENGTH)}…` : value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  return undefined;
}

export function problemResponse(c: Context<AppEnv>, error: ApiError): Response {
  const body: Problem & Record<string, unknown> = {
    ...error.more?.members,
    type: `/docs#problem-${error.more?.kind ?? PROBLEM_TYPES[error.status]}`,
    title: STATUS_TITLES[error.status],
    status: error.status,
    detail: error.detail,
    instance: c.req.path,
    request_id: c.get("requestId") ?? "",
    ...(error.errors
      ? { errors: error.errors.map((problem) => ({ ...problem, value: echoed(problem.value) })) }
      : {}),
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      "content-type": "application/problem+json",
      "x-request-id": body.request_id,
      ...error.headers,
    },
  });
}

/** Whatever was thrown, as an ApiError; anything unexpected is logged and becomes a plain 500. */
export function toApiError(error: unknown, c: Context<AppEnv>): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException && error.status === 400) {
    return new ApiError(400, error.message, [{ location: "body", message: error.message }]);
  }
  if (error instanceof HTTPException && error.status === 413)
    return bodyTooLarge(LIMITS.maxBodyBytes);
  if (error instanceof HTTPException && error.status === 415) return notJson(c);
  if (isIndexUnavailable(error)) {
    log(c.env, "warn", "D1 unavailable; answered 503", {
      request_id: c.get("requestId"),
      path: c.req.path,
      error: error instanceof Error ? error.message : String(error),
    });
    return indexUnavailable();
  }
  log(c.env, "error", "unexpected error", {
    request_id: c.get("requestId"),
    path: c.req.path,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return new ApiError(
    500,
    "Something went wrong on our side; the request id identifies it in our logs",
  );
}

export const bodyTooLarge = (maxBytes: number) =>
  new ApiError(413, `The request body is larger than ${Math.floor(maxBytes / 1024)} KiB`);

/** A body sent as anything but JSON; the route's media type gate says so with a 415. */
function notJson(c: Context<AppEnv>): ApiError {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  return new ApiError(
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
