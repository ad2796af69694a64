import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { admit } from "../../api/rate-limit-leases.ts";
import type { AppEnv } from "../../app-env.ts";
import {
  WATCH_COOKIE,
  WATCH_COOKIE_MAX_AGE_SECONDS,
  watcherOf,
  watchToken,
} from "../../domain/proof-continue.ts";
import { userDone } from "../../domain/proof-status.ts";
import { sessionObject } from "../../domain/session-address.ts";
import { proofLinks, sshCommand } from "../../domain/session-views.ts";
import type { Env } from "../../env.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { isConnectionIdentifier } from "../../lib/ids.ts";
import { budgetOf } from "../../protocol/ip-addresses.ts";
import {
  WATCHER_ADDRESS_HEADER,
  WATCHER_IDENTIFIER_HEADER,
} from "../../session-object/session-object.ts";
import {
  ContinueRefusedPage,
  type HostKeyFingerprint,
  ProofNotFoundPage,
  ProofPage,
} from "../pages/proof-page.tsx";

/** Requests for proof pages (page, status, live channel, continue) per client address a minute. */
export const PROOF_PAGE_REQUESTS_PER_ADDRESS = 120;

/**
 * The session a proof page is for, and its status, from the session's object (no D1): unknown,
 * deleted and expired ones have no page.
 */
async function pageOf(env: Env, identifier: string) {
  if (!isConnectionIdentifier(identifier)) return null;
  const ref = { identifier };
  const page = await sessionObject(env, ref).proofPage(ref);
  if (!page) return null;
  const { session } = page;
  const expired =
    session.status === "expired" ||
    (session.status === "pending" && Date.parse(session.expiredAt) <= Date.now());
  return expired ? null : page;
}

/**
 * `SSH_HOST_KEY_FINGERPRINTS`: comma-separated, each `SHA256:...` or, named as `ssh` names it on
 * first contact, `ED25519 SHA256:...`.
 */
export function hostKeyFingerprints(setting: string | undefined): HostKeyFingerprint[] {
  return (setting ?? "")
    .split(",")
    .map((entry) => entry.trim().split(/\s+/))
    .filter((words) => words[0])
    .map((words) =>
      words.length > 1
        ? { type: words[0], fingerprint: words.slice(1).join(" ") }
        : { fingerprint: words[0] as string },
    );
}

/** Anyone can ask for any identifier: each client address gets a bounded number of requests. */
const perAddress = createMiddleware<AppEnv>(async (c, next) => {
  const address = budgetOf(clientAddress(c.req.raw.headers, c.env));
  const decision = await admit(c.env, `proof-pages:${address}`, PROOF_PAGE_REQUESTS_PER_ADDRESS);
  if (!decision.allowed)
    return c.text("Too many requests; try again in a minute.", 429, {
      "retry-after": String(decision.retryAfter),
    });
  await next();
});

/** The watch cookie lives on the page's own path: each session's page has its own. */
const watchCookiePath = (identifier: string) => `/p/${identifier}`;
const watchCookieName = (c: Context<AppEnv>) =>
  new URL(c.req.url).protocol === "https:" ? `__Secure-${WATCH_COOKIE}` : WATCH_COOKIE;

/**
 * Whether this browser may continue once the user is done: it holds a watch token of this page,
 * or is given one now, while the user is not done yet (domain/proof-continue.ts).
 */
async function watching(c: Context<AppEnv>, identifier: string, done: boolean) {
  const held = getCookie(c, watchCookieName(c));
  if ((await watcherOf(c.env, identifier, held)) !== null) return true;
  if (done) return false;
  setCookie(c, watchCookieName(c), await watchToken(c.env, identifier, Date.now()), {
    path: watchCookiePath(identifier),
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    maxAge: WATCH_COOKIE_MAX_AGE_SECONDS,
  });
  return true;
}

/** The hosted proof page and its live channel; public, by connection identifier. */
export const proofRoutes = new Hono<AppEnv>()
  .use(perAddress)
  .get("/:identifier", async (c) => {
    const identifier = c.req.param("identifier").toLowerCase();
    const page = await pageOf(c.env, identifier);
    c.header("cache-control", "no-store");
    if (!page) return c.html(<ProofNotFoundPage />, 404);
    const { session, status } = page;
    return c.html(
      <ProofPage
        kind={session.kind}
        identifier={identifier}
        sshCommand={sshCommand(c.env, identifier)}
        signCommand={proofLinks(c.env, session).sign_command}
        banner={session.sshBanner}
        livemode={session.livemode}
        hostKeyFingerprints={hostKeyFingerprints(c.env.SSH_HOST_KEY_FINGERPRINTS)}
        status={status}
        watching={await watching(c, identifier, userDone(session, status.keys.length))}
      />,
    );
  })
  .get("/:identifier/status", async (c) => {
    // For a page that got no live channel: the same status, asked for every few seconds.
    const page = await pageOf(c.env, c.req.param("identifier").toLowerCase());
    c.header("cache-control", "no-store");
    if (!page) return c.json({ error: "No such session" }, 404);
    return c.json(page.status);
  })
  .get("/:identifier/continue", async (c) => {
    // Once for each browser that watched the proof: to the return URL, with the result.
    const identifier = c.req.param("identifier").toLowerCase();
    c.header("cache-control", "no-store");
    if (!isConnectionIdentifier(identifier)) return c.html(<ProofNotFoundPage />, 404);
    const watcher = await watcherOf(c.env, identifier, getCookie(c, watchCookieName(c)));
    const ref = { identifier };
    const outcome =
      watcher === null
        ? ({ refused: "not_watched" } as const)
        : await sessionObject(c.env, ref).continueTo(ref, watcher, Date.now());
    if (!outcome) return c.html(<ProofNotFoundPage />, 404);
    if ("url" in outcome) return c.redirect(outcome.url, 303);
    return c.html(<ContinueRefusedPage reason={outcome.refused} identifier={identifier} />, 409);
  })
  .get("/:identifier/live", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
      return c.text("This is the proof page's WebSocket.", 426);
    const identifier = c.req.param("identifier").toLowerCase();
    if (!(await pageOf(c.env, identifier))) return c.text("No such session", 404);
    // Only what the object must know goes in: nothing the client sent besides the upgrade.
    const headers = new Headers({
      upgrade: "websocket",
      [WATCHER_ADDRESS_HEADER]: clientAddress(c.req.raw.headers, c.env),
      [WATCHER_IDENTIFIER_HEADER]: identifier,
    });
    for (const name of ["sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol"]) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    const upgraded = await sessionObject(c.env, { identifier }).fetch(
      new Request(c.req.url, { headers }),
    );
    // A fresh response: the one from the Durable Object has headers nothing may add to.
    return new Response(upgraded.body, { status: upgraded.status, webSocket: upgraded.webSocket });
  });
