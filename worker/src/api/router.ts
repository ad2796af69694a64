import { OpenAPIHono } from "@hono/zod-openapi";
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../lib/errors.ts";
import { problemErrors } from "./validate.ts";

const LOCATION_PREFIX: Partial<Record<keyof ValidationTargets, string>> = {
  json: "body",
  query: "query",
  param: "path",
  header: "header",
};

/** Every failed validation becomes one problem+json 400 naming each field, through `onError`. */
function throwProblem(result: {
  success: boolean;
  target: keyof ValidationTargets;
  error?: { issues: z.core.$ZodIssue[] };
  /** The input that was validated (the validator passes it on failure too). */
  data?: unknown;
}) {
  if (result.success || !result.error) return;
  const prefix = LOCATION_PREFIX[result.target] ?? result.target;
  const errors = problemErrors(prefix, result.error, result.data);
  const detail =
    errors.length === 1
      ? (errors[0]?.message ?? "Invalid request")
      : `The request has ${errors.length} problems; see errors`;
  throw new ApiError(400, detail, errors);
}

/** A router whose routes are their own API description (`createRoute` + `app.openapi`). */
export const apiRouter = () =>
  new OpenAPIHono<AppEnv>({ strict: false, defaultHook: (result) => throwProblem(result) });

/** The same validation for routes that are not part of the public API (the bridge's). */
export const validate = <Target extends keyof ValidationTargets, Schema extends z.core.$ZodType>(
  target: Target,
  schema: Schema,
) => zValidator(target, schema, (result) => throwProblem({ ...result, target }));
