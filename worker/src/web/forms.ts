import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import { clientAddress } from "../lib/client-address.ts";
import { ApiError } from "../lib/errors.ts";
import type { PageContext } from "./layout.tsx";

type FormValue = string | File | (string | File)[];

/** A text field; browsers send textarea line breaks as CR LF, the API takes LF. */
export function text(form: Record<string, FormValue>, name: string): string {
  const value = form[name];
  return typeof value === "string" ? value.replace(/\r\n?/g, "\n") : "";
}

export function optionalText(form: Record<string, FormValue>, name: string): string | undefined {
  const value = text(form, name).trim();
  return value === "" ? undefined : value;
}

export function checked(form: Record<string, FormValue>, name: string): boolean {
  return text(form, name) === "on";
}

/** A number field; an unreadable one is passed on as-is so validation names it. */
export function optionalNumber(
  form: Record<string, FormValue>,
  name: string,
): number | string | undefined {
  const value = optionalText(form, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

export function allValues(form: Record<string, FormValue>, name: string): string[] {
  const value = form[name] ?? form[`${name}[]`];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (item): item is string => typeof item === "string",
  );
}

/** One message for the flash banner from whatever a form handler threw, naming each field. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  const problems = error.errors ?? [];
  if (problems.length === 0) return error.detail;
  return problems
    .map((problem) => {
      const field = problem.location.replace(/^body\.?/, "");
      return field ? `${field}: ${problem.message}` : problem.message;
    })
    .join("; ");
}

/** Post/redirect/get: success and failure both land on a page, with a banner. */
export function redirectWith(
  c: Context<AppEnv>,
  path: string,
  flash: { error?: string; notice?: string },
) {
  const url = new URL(path, "http://x");
  if (flash.error) url.searchParams.set("error", flash.error);
  if (flash.notice) url.searchParams.set("notice", flash.notice);
  return c.redirect(url.pathname + url.search, 303);
}

/** What every page's layout needs: the CSRF token, who is signed in, the project, a banner. */
export function pageContext(c: Context<AppEnv>): PageContext {
  return {
    csrf: c.var.csrf,
    account: c.var.account,
    project: c.var.member?.project,
    flash: { error: c.req.query("error"), notice: c.req.query("notice") },
  };
}

/** The browser's address, for per-address limits (lib/client-address.ts says whose word counts). */
export const browserAddress = (c: Context<AppEnv>): string =>
  clientAddress(c.req.raw.headers, c.env);
