import { z } from "zod";

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
    items: z.array(item),
    total: z.int().describe("Items matching the filters"),
    offset: z.int(),
    limit: z.int(),
    has_more: z.boolean(),
  });
}

export const problemError = z.object({
  location: z.string().describe("Where the problem is, e.g. `body.keys[0].public_key`"),
  message: z.string(),
  value: z.unknown().optional(),
});

export const problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string(),
    request_id: z.string(),
    errors: z.array(problemError).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details (application/problem+json)" });

export type Problem = z.infer<typeof problem>;
export type ProblemError = z.infer<typeof problemError>;
