import { z } from "zod";

/**
 * Validation messages as sentences a person reads ("timeout must be at least 60"), for every
 * schema that does not give its own: the API's problems and the web app's forms both show them.
 * Installed once, when the schemas load (schemas/common.ts imports this module).
 */

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  date: "a date",
  null: "null",
};

const FORMAT_NAMES: Record<string, string> = {
  url: "a URL",
  email: "an email address",
  datetime: "an RFC 3339 date and time, such as 2030-01-01T00:00:00Z",
  date: "a date, such as 2030-01-01",
  uuid: "a UUID",
};

/** The field the issue is about, as the API names it: `timeout`, `keys[0].public_key`. */
function fieldOf(path: readonly PropertyKey[] | undefined): string | null {
  if (!path || path.length === 0) return null;
  return path.reduce<string>(
    (name, segment) =>
      typeof segment === "number"
        ? `${name}[${segment}]`
        : name
          ? `${name}.${String(segment)}`
          : String(segment),
    "",
  );
}

/** "must be at least 60", "must be at most 3 characters long", "must have at most 2 items". */
function bound(origin: string | undefined, words: string, limit: unknown) {
  const count = Number(limit);
  switch (origin) {
    case "string":
      return `must be ${words} ${count} character${count === 1 ? "" : "s"} long`;
    case "array":
    case "set":
      return `must have ${words} ${count} item${count === 1 ? "" : "s"}`;
    default:
      return `must be ${words} ${String(limit)}`;
  }
}

export function sentenceFor(issue: Issue): string | undefined {
  const field = fieldOf(issue.path);
  const subject = field ?? "The value";
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return `${subject} is required`;
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      return `${subject} must be ${expected}`;
    }
    case "too_small": {
      if ((issue.origin === "string" || issue.origin === "array") && Number(issue.minimum) === 1)
        return `${subject} must not be empty`;
      const words = issue.inclusive === false ? "more than" : "at least";
      return `${subject} ${bound(issue.origin, words, issue.minimum)}`;
    }
    case "too_big": {
      const words = issue.inclusive === false ? "less than" : "at most";
      return `${subject} ${bound(issue.origin, words, issue.maximum)}`;
    }
    case "invalid_value":
      return `${subject} must be ${issue.values.length === 1 ? "" : "one of "}${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_format":
      return `${subject} must be ${FORMAT_NAMES[issue.format] ?? `in ${issue.format} format`}`;
    case "not_multiple_of":
      return `${subject} must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return `${subject} is not one of the accepted forms`;
    default:
      return undefined;
  }
}

z.config({ customError: (issue) => sentenceFor(issue) });
