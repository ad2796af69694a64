import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../app-env.ts";
import { clientAddress } from "../lib/client-address.ts";
import { ApiError } from "../lib/errors.ts";
import { isPrivateKeyText } from "../protocol/public-keys.ts";
import { chosenTheme, cookieName } from "./auth.ts";

/** What every page is drawn with: who is signed in, where, its CSRF token and flash. */
export interface PageContext {
  csrf: string;
  account?: { email: string } | undefined;
  project?: { id: string; name: string } | undefined;
  /** Inside a project: which data its pages show, with the switch to the other. */
  livemode?: boolean | undefined;
  /** The page's own path, to mark where it sits in the navigation. */
  path?: string | undefined;
  flash?: { error?: string | undefined; notice?: string | undefined };
  /** The colour theme chosen in this browser; undefined follows the device. */
  theme?: "light" | "dark" | undefined;
}

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

/**
 * A form as the user left it, and what was wrong with it, for showing it again: every value they
 * typed but those in `forget` (passwords and private keys are never sent back), each problem by
 * the field it is about (`body.keys[0].public_key` is the `keys` field), and the rest for the top.
 */
export interface FormState {
  values: Record<string, string | string[]>;
  errors: Record<string, string>;
  /** Problems that are about no one field. */
  general: string[];
}

export function formState(
  form: Record<string, FormValue>,
  error: unknown,
  forget: string[] = [],
): FormState {
  if (!(error instanceof ApiError)) throw error;
  const values: FormState["values"] = {};
  for (const [name, value] of Object.entries(form)) {
    if (forget.includes(name) || name === "_csrf") continue;
    if (Array.isArray(value)) values[name.replace(/\[\]$/, "")] = allValues(form, name);
    // A private key pasted by mistake is never sent back, not even to its owner's page.
    else if (typeof value === "string" && !isPrivateKeyText(value))
      values[name] = value.replace(/\r\n?/g, "\n");
  }
  const errors: Record<string, string> = {};
  const general: string[] = [];
  // Only a 400 is about what was typed: anything else (a forge that cannot be reached, a 503)
  // is said above the form, and no field is blamed for it.
  const problems =
    error.status === 400 && error.errors ? error.errors : [{ location: "", message: error.detail }];
  for (const problem of problems) {
    const [, field, index] = /^body\.([a-z_]+)(?:\[(\d+)\])?/.exec(problem.location) ?? [];
    if (!field) {
      general.push(problem.message);
      continue;
    }
    // One of several entries in a field (a pasted key, an account): say which.
    const message =
      index === undefined
        ? problem.message
        : `${ENTRY_NAMES[field] ?? "Entry"} ${Number(index) + 1}: ${problem.message}`;
    errors[field] = errors[field] ? `${errors[field]}; ${message}` : message;
  }
  return { values, errors, general };
}

/** What one entry of a list field is called when it is the one with the problem. */
const ENTRY_NAMES: Record<string, string> = {
  keys: "Key",
  certificate_authorities: "Key",
  keys_from: "Account",
  events: "Event",
  webhooks: "Webhook",
};

/** A value to show in a field: what the user typed, or the page's own. */
export function typedValue(form: FormState | undefined, name: string, fallback = ""): string {
  const value = form?.values[name];
  return typeof value === "string" ? value : fallback;
}

/** Whether a checkbox was left checked (or is by default, when the form is new). */
export function checkedIn(form: FormState | undefined, name: string, fallback = false): boolean {
  if (!form) return fallback;
  const value = form.values[name];
  return Array.isArray(value) ? value.length > 0 : value === "on";
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

const FLASH_COOKIE = "kp_flash";

/**
 * Post/redirect/get: success and failure both land on a page, with a banner. The banner's text
 * rides in a short-lived cookie, never in the URL (which history, logs and referrers keep). A
 * secret the form made (a new API key) is shown by that page once: reloading it, or opening it
 * later, shows nothing.
 */
export function redirectWith(
  c: Context<AppEnv>,
  path: string,
  flash: { error?: string; notice?: string },
  shownOnce?: ShownOnceSecret,
) {
  if (shownOnce) keepShownOnce(c, shownOnce);
  if (flash.error || flash.notice)
    setCookie(c, cookieName(c, FLASH_COOKIE), encodeURIComponent(JSON.stringify(flash)), {
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
      path: "/",
      maxAge: 60,
    });
  return c.redirect(path, 303);
}

const SHOWN_ONCE_COOKIE = "kp_once";
/** Seconds a secret waits for the page that shows it (the redirect is followed at once). */
const SHOWN_ONCE_SECONDS = 120;

/** A secret a form made that its page shows once: a new API key, an invitation link. */
export interface ShownOnceSecret {
  projectId: string;
  newKey?: { name: string; plaintext: string };
  invitationLink?: string;
  webhookSecret?: { url: string; secret: string };
}

/**
 * The cookie that carries a secret a form made (see `redirectWith`) to the page that shows it
 * once: HttpOnly, short-lived, and deleted by that page.
 */
function keepShownOnce(c: Context<AppEnv>, secret: ShownOnceSecret) {
  setCookie(c, cookieName(c, SHOWN_ONCE_COOKIE), encodeURIComponent(JSON.stringify(secret)), {
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: "/",
    maxAge: SHOWN_ONCE_SECONDS,
  });
}

/** The secret a form left for this project's page, taken: it is never shown twice. */
export function takeShownOnce(c: Context<AppEnv>, projectId: string): Partial<ShownOnceSecret> {
  const name = cookieName(c, SHOWN_ONCE_COOKIE);
  const value = getCookie(c, name);
  if (!value) return {};
  deleteCookie(c, name, { path: "/", secure: true });
  try {
    const secret = JSON.parse(decodeURIComponent(value)) as ShownOnceSecret;
    if (secret.projectId !== projectId) return {};
    const { projectId: _project, ...shown } = secret;
    return shown;
  } catch {
    return {};
  }
}

/** The banner a redirect left, read once. */
function takeFlash(c: Context<AppEnv>): PageContext["flash"] {
  const name = cookieName(c, FLASH_COOKIE);
  const value = getCookie(c, name);
  if (!value) return {};
  deleteCookie(c, name, { path: "/", secure: true });
  try {
    const flash = JSON.parse(decodeURIComponent(value)) as Record<string, unknown>;
    return {
      error: typeof flash.error === "string" ? flash.error : undefined,
      notice: typeof flash.notice === "string" ? flash.notice : undefined,
    };
  } catch {
    return {};
  }
}

/** What every page's layout needs: the CSRF token, who is signed in, the project, a banner. */
export function pageContext(c: Context<AppEnv>): PageContext {
  return {
    csrf: c.var.csrf,
    account: c.var.account,
    project: c.var.member?.project,
    livemode: c.var.project?.livemode,
    path: c.req.path,
    flash: takeFlash(c),
    theme: chosenTheme(c),
  };
}

/** The browser's address, for per-address limits (lib/client-address.ts says whose word counts). */
export const browserAddress = (c: Context<AppEnv>): string =>
  clientAddress(c.req.raw.headers, c.env);

/** What every sign-in way answers once its limit is reached. */
export const TOO_MANY_ATTEMPTS = "Too many attempts from here. Wait a minute and try again.";
