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

const WHEN: Partial<Record<ErrorStatus, string>> = {
  400: "Invalid JSON, wrong types, unknown fields or constraint violations; `errors` names each",
  401: "Missing, unknown, revoked or expired API key (the same answer for each)",
  404: "Unknown path, or a resource outside the key's project",
  409: "The action conflicts with the session's state, or a request with the same Idempotency-Key is still running",
  413: `Body over ${LIMITS.maxBodyBytes / 1024} KiB`,
  415: "A body that is not application/json",
  422: "The Idempotency-Key was used for a request with another body",
  429: "Project rate limit exceeded; wait for `Retry-After` seconds",
  503: "Attestations are not set up on this service (ATTESTATION_KEYS)",
};

/** The problem+json answers a route can give, documented once. */
export function problems(...statuses: ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: WHEN[status] ?? STATUS_TITLES[status],
        content: { "application/problem+json": { schema: problem } },
      },
    ]),
  );
}

/** What every route under the API key can answer; with a body, 400, 413 and 415 too. */
export const ALWAYS = [401, 429] as const satisfies ErrorStatus[];
export const WITH_BODY = [400, 401, 413, 415, 429] as const satisfies ErrorStatus[];
