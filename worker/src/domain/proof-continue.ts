import type { Env } from "../env.ts";
import { randomBase32 } from "../lib/ids.ts";
import { seal, unseal } from "../lib/sealed.ts";

/**
 * The hosted proof page's way back to the integrator (§16): the page shows no return
 * URL and no attestation. The browser that had the page open while the proof happened follows
 * `/p/<identifier>/continue` once, and is sent to the `return_url` with the result.
 *
 * That browser is known by a watch token: served with the page while the user is not done yet,
 * in an HttpOnly cookie scoped to the page's path, it says when the page was opened and names the
 * browser (a random id), sealed by the Worker (lib/sealed.ts). Continuing needs a token from
 * before the user got done, within CONTINUE_WINDOW_MS, and works once per token (the session's
 * object remembers each token used): every browser that watched may continue once, so whoever
 * else opened the page early cannot use up the user's own step. Which of them is the integrator's
 * user is for the integrator's `state` in the return URL to say.
 */

export const WATCH_COOKIE = "kp_watch";
/** How long after the user got done the continue step works (an attestation's lifetime). */
export const CONTINUE_WINDOW_MS = 10 * 60_000;
/** A watch token is kept by the browser this long at most (a session lives up to 30 days). */
export const WATCH_COOKIE_MAX_AGE_SECONDS = 31 * 24 * 60 * 60;

const PURPOSE = "proof page watch token";

/** Characters of a watch token's browser id: 80 bits, unique among a page's watchers. */
const WATCHER_ID_LENGTH = 16;

/** A token saying a browser (a new id) had the proof page of `identifier` open at `now`. */
export function watchToken(
  env: Pick<Env, "BRIDGE_SECRET" | "BRIDGE_SECRET_PREVIOUS">,
  identifier: string,
  now: number,
) {
  return seal(env, PURPOSE, `${identifier}:${now}:${randomBase32(WATCHER_ID_LENGTH)}`);
}

/** A browser that watched a proof page: since when, and its id. */
export interface Watcher {
  since: number;
  id: string;
}

/** Who holds `token` and when they opened the page of `identifier`; null if it is not ours. */
export async function watcherOf(
  env: Pick<Env, "BRIDGE_SECRET" | "BRIDGE_SECRET_PREVIOUS">,
  identifier: string,
  token: string | undefined,
): Promise<Watcher | null> {
  const payload = await unseal(env, PURPOSE, token);
  const [forIdentifier, time = "", id = ""] = (payload ?? "").split(":");
  const valid =
    forIdentifier === identifier && /^\d{1,16}$/.test(time) && /^[0-9a-z]{16}$/.test(id);
  return valid ? { since: Number(time), id } : null;
}

/** Why a continue step is not taken: each has its own sentence on the page. */
export type ContinueRefusal = "no_return_url" | "not_done" | "not_watched" | "too_late" | "used";
