import type { z } from "zod";
import type { ProblemError } from "../schemas/common.ts";

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
    if (issue.code === "invalid_key") {
      // A record's key (a header name) that its own schema refused: say which, and why.
      const key = String(issue.path.at(-1));
      const why = issue.issues.map((inner) => inner.message).join("; ");
      return [
        {
          location: formatLocation(prefix, issue.path),
          message: `"${key.slice(0, 100)}": ${why}`,
          value: key,
        },
      ];
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
