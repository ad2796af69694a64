import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { sessionObject } from "../../domain/session-address.ts";
import { proofLinks, sshCommand } from "../../domain/session-views.ts";
import type { Env } from "../../env.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { isConnectionIdentifier } from "../../lib/ids.ts";
import {
  WATCHER_ADDRESS_HEADER,
  WATCHER_IDENTIFIER_HEADER,
} from "../../session-object/session-object.ts";
import { type HostKeyFingerprint, ProofNotFoundPage, ProofPage } from "../pages/proof-page.tsx";

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

/** The hosted proof page and its live channel (SPEC §14); public, by connection identifier. */
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

export const proofRoutes = new Hono<AppEnv>()
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
        hostKeyFingerprints={hostKeyFingerprints(c.env.SSH_HOST_KEY_FINGERPRINTS)}
        status={status}
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
  .get("/:identifier/live", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
      return c.text("This is the proof page's WebSocket.", 426);
    const identifier = c.req.param("identifier").toLowerCase();
    if (!(await pageOf(c.env, identifier))) return c.text("No such session", 404);
    const request = new Request(c.req.raw);
    request.headers.set(WATCHER_ADDRESS_HEADER, clientAddress(c.req.raw.headers, c.env));
    request.headers.set(WATCHER_IDENTIFIER_HEADER, identifier);
    const upgraded = await sessionObject(c.env, { identifier }).fetch(request);
    // A fresh response: the one from the Durable Object has headers nothing may add to.
    return new Response(upgraded.body, { status: upgraded.status, webSocket: upgraded.webSocket });
  });
