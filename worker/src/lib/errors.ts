import type { ProblemError } from "../schemas/common.ts";

export const STATUS_TITLES = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
} as const;

export type ErrorStatus = keyof typeof STATUS_TITLES;

/** RFC 9457's extension: a problem type of its own and members beside the standard ones. */
export interface ProblemMore {
  kind: string;
  members?: Record<string, unknown>;
}

/** The one error every layer throws; `onError` turns it into application/problem+json. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly detail: string;
  readonly errors: ProblemError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** A kind of problem more precise than its status's (`/docs#problem-<kind>`), and its members. */
  readonly more: ProblemMore | undefined;

  constructor(
    status: ErrorStatus,
    detail: string,
    errors?: ProblemError[],
    headers?: Record<string, string>,
    more?: ProblemMore,
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
    this.more = more;
  }
}

export const notFound = (what: string, location?: string, value?: unknown) =>
  new ApiError(
    404,
    `${what} not found`,
    location ? [{ location, message: `${what} not found`, value }] : undefined,
  );

export const conflict = (detail: string) => new ApiError(409, detail);

export const badRequest = (location: string, message: string, value?: unknown) =>
  new ApiError(400, message, [{ location, message, value }]);
