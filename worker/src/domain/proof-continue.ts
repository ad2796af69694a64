import type { Env } from "../env.ts";
import { seal, unseal } from "../lib/sealed.ts";

/**
 * The hosted proof page's way back to the integrator (SPEC §14, §16): the page shows no return
 * URL and no attestation. The browser that had the page open while the proof happened follows
 * `/p/<identifier>/continue` once, and is sent to the `return_url` with the result.
 *
 * That browser is known by a watch token: served with the page while the user is not done yet,
 * in an HttpOnly cookie scoped to the page's path, it says when the page was opened, sealed by
 * the Worker (lib/sealed.ts). Continuing needs a token from before the user got done, and
 * works once per session (the session's object remembers it), within CONTINUE_WINDOW_MS.
 */

export const WATCH_COOKIE = "kp_watch";
/** How long after the user got done the continue step works (an attestation's lifetime). */
export const CONTINUE_WINDOW_MS = 10 * 60_000;
/** A watch token is kept by the browser this long at most (a session lives up to 30 days). */
export const WATCH_COOKIE_MAX_AGE_SECONDS = 31 * 24 * 60 * 60;

const PURPOSE = "proof page watch token";

/** A token saying this browser had the proof page of `identifier` open at `now`. */
export function watchToken(
  env: Pick<Env, "BRIDGE_SECRET" | "BRIDGE_SECRET_PREVIOUS">,
  identifier: string,
  now: number,
) {
  return seal(env, PURPOSE, `${identifier}:${now}`);
}

/** When the browser holding `token` opened the page of `identifier`; null if it is not ours. */
export async function watchingSince(
  env: Pick<Env, "BRIDGE_SECRET" | "BRIDGE_SECRET_PREVIOUS">,
  identifier: string,
  token: string | undefined,
): Promise<number | null> {
  const payload = await unseal(env, PURPOSE, token);
  const [forIdentifier, time = ""] = (payload ?? "").split(":");
  return forIdentifier === identifier && /^\d{1,16}$/.test(time) ? Number(time) : null;
}

/** Why a continue step is not taken: each has its own sentence on the page. */
export type ContinueRefusal = "no_return_url" | "not_done" | "not_watched" | "too_late" | "used";
