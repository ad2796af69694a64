import type { z } from "zod";
import { type ErrorStatus, STATUS_TITLES } from "../lib/errors.ts";
import { problem } from "../schemas/common.ts";
import { LIMITS } from "../schemas/limits.ts";

/** A JSON response of `schema`, for a route's `responses`. */
export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A JSON request body of `schema`; a body that may be left out is taken as `{}`. */
export const jsonBody = <T extends z.ZodType>(schema: T, required = true) => ({
  body: { content: { "application/json": { schema } }, required },
});

/**
 * What each problem status means where nothing more specific is said. Routes name only the
 * answers their own domain gives (409 for a state conflict, 503 for attestations); the answers
 * the middleware gives every operation are added to the document where it is built
 * (openapi-document.ts), so no route can forget one.
 */
export const WHEN: Partial<Record<ErrorStatus, string>> = {
  400: "Invalid JSON, wrong types, unknown fields, constraint violations, or a malformed header (`keyproof-bookmark`, `Idempotency-Key`); `errors` names each",
  401: "Missing, unknown, revoked or expired API key (the same answer for each)",
  404: "No such resource in the key's project (a path id that cannot exist is a 404 too)",
  409: "A request with the same Idempotency-Key is still running; retry once it has answered",
  410: "The first request with this Idempotency-Key made a session since redacted or deleted: its answer is no longer kept, and the key stays used",
  413: `Body over ${LIMITS.maxBodyBytes / 1024} KiB`,
  415: "A body that is not application/json",
  422: "The Idempotency-Key was used for a request with another body",
  429: "Project rate limit exceeded; wait for `Retry-After` seconds",
  503: "The service's index database cannot be reached just now; retry after `Retry-After` seconds (with the same `Idempotency-Key`, a POST is never done twice)",
};

/** The problem+json answers a route itself can give, with what they mean there. */
export function problems(answers: Partial<Record<ErrorStatus, string>>) {
  return Object.fromEntries(
    Object.entries(answers).map(([status, description]) => [
      status,
      {
        description: description ?? STATUS_TITLES[Number(status) as ErrorStatus],
        content: { "application/problem+json": { schema: problem } },
      },
    ]),
  );
}
