import { z } from "zod";
import "./sentences.ts";

/** Largest page a list returns; larger `limit` values are capped, not rejected. */
export const MAX_PAGE_SIZE = 100;

/**
 * How far past a page's end a list counts its `total`: a count walks the index entries it counts,
 * on the shard's primary, at every list, and a project's whole history would be a walk without
 * end. 1,000 keeps a count near a page's own read (a deliveries page counting 10,000 was 1.65×
 * as slow on a loaded shard). A list with more than this beyond its page says
 * `offset + limit + 1,000` (db/paginate.ts, countedPastHorizon); `has_more` is exact either way.
 */
export const TOTAL_COUNTED_PAST_PAGE = 1_000;

export const timestamp = z.iso.datetime().describe("RFC 3339 UTC timestamp");

/**
 * A whole number in a query string (`offset`, `limit`), however large: the document says
 * integer, and the server takes every integer at least `min` (a larger `limit` is capped).
 */
function queryInteger(options: {
  min: number;
  fallback: number;
  cap: number;
  description: string;
}) {
  const { min, fallback, cap } = options;
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return fallback;
      if (!/^\d{1,400}$/.test(text) || Number(text) < min) {
        ctx.addIssue({ code: "custom", message: `Must be a whole number of at least ${min}` });
        return z.NEVER;
      }
      return Math.min(Number(text), cap);
    })
    .meta({ type: "integer", minimum: min, default: fallback, description: options.description });
}

export const listQuery = z.object({
  offset: queryInteger({
    min: 0,
    fallback: 0,
    cap: Number.MAX_SAFE_INTEGER,
    description: "Items to skip (≥ 0)",
  }),
  limit: queryInteger({
    min: 1,
    fallback: MAX_PAGE_SIZE,
    cap: MAX_PAGE_SIZE,
    description: `Page size (≥ 1, default ${MAX_PAGE_SIZE}; any larger value is taken as ${MAX_PAGE_SIZE})`,
  }),
});

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item).describe("This page, newest first"),
    total: z
      .int()
      .describe(
        `Items matching the filters, counted up to ${TOTAL_COUNTED_PAST_PAGE.toLocaleString("en-US")} past this page's end (a list with more shows \`offset + limit + ${TOTAL_COUNTED_PAST_PAGE}\`)`,
      ),
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
