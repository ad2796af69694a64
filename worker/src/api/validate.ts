import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { ApiError } from "../lib/errors.ts";
import type { ProblemError } from "../schemas/common.ts";

const LOCATION_PREFIX: Partial<Record<keyof ValidationTargets, string>> = {
  json: "body",
  query: "query",
  param: "path",
  header: "header",
};

function formatLocation(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (location, segment) =>
      typeof segment === "number" ? `${location}[${segment}]` : `${location}.${String(segment)}`,
    prefix,
  );
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/** Every zod issue as a problem error; an unknown field gets its own location. */
export function problemErrors(
  prefix: string,
  error: { issues: z.core.$ZodIssue[] },
  input: unknown,
): ProblemError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        location: formatLocation(prefix, [...issue.path, key]),
        message: `Unknown field "${key}"`,
        value: valueAt(input, [...issue.path, key]),
      }));
    }
    return [
      {
        location: formatLocation(prefix, issue.path),
        message: issue.message,
        value: valueAt(input, issue.path),
      },
    ];
  });
}

/** `@hono/zod-validator` that throws, so every failure flows through the one `onError`. */
export const validate = <Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) =>
  zValidator(target, schema, (result) => {
    if (result.success) return;
    const errors = problemErrors(LOCATION_PREFIX[target] ?? target, result.error, result.data);
    const detail =
      errors.length === 1
        ? (errors[0]?.message ?? "Invalid request")
        : `The request has ${errors.length} problems; see errors`;
    throw new ApiError(400, detail, errors);
  });
