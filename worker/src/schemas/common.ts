import { z } from "zod";
import "./sentences.ts";

/** Largest page a list returns; larger `limit` values are capped, not rejected. */
export const MAX_PAGE_SIZE = 100;

export const timestamp = z.iso.datetime().describe("RFC 3339 UTC timestamp");

export const listQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0).describe("Items to skip (≥ 0)"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(MAX_PAGE_SIZE)
    .transform((limit) => Math.min(limit, MAX_PAGE_SIZE))
    .describe(`Page size (≥ 1, default and maximum ${MAX_PAGE_SIZE}; larger values are capped)`),
});

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item).describe("This page, newest first"),
    total: z.int().describe("Items matching the filters"),
    offset: z.int().describe("Items skipped"),
    limit: z.int().describe("The page size used (requests above 100 are capped)"),
    has_more: z.boolean().describe("Whether another page follows"),
  });
}

export const problemError = z.object({
  location: z
    .string()
    .describe("Where the problem is: `body.keys[0].public_key`, `query.limit`, `path.session_id`"),
  message: z.string().describe("What is wrong there"),
  value: z.unknown().optional().describe("The value given, when it is short enough to repeat"),
});

export const problem = z
  .object({
    type: z.string().describe("`/docs#problem-<kind>`: where this kind of problem is described"),
    title: z.string().describe("The HTTP status text"),
    status: z.int().describe("The HTTP status"),
    detail: z.string().describe("What went wrong, in a sentence"),
    instance: z.string().describe("The request path"),
    request_id: z.string().describe("Quote it when asking about this request"),
    errors: z.array(problemError).optional().describe("Each field that can be named"),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details (application/problem+json)" });

export type Problem = z.infer<typeof problem>;
export type ProblemError = z.infer<typeof problemError>;
