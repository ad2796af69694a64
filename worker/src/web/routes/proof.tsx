import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { database } from "../../db/client.ts";
import { sessions } from "../../db/sessions.ts";
import { proofLinks, sshCommand } from "../../domain/session-views.ts";
import type { Env } from "../../env.ts";
import { clientAddress } from "../../lib/client-address.ts";
import { isConnectionIdentifier } from "../../lib/ids.ts";
import { WATCHER_ADDRESS_HEADER } from "../../session-object/session-object.ts";
import { ProofNotFoundPage, ProofPage } from "../pages/proof-page.tsx";

/** The session a proof page is for: unknown, deleted and expired ones have no page. */
async function sessionOfPage(env: Env, identifier: string) {
  if (!isConnectionIdentifier(identifier)) return null;
  const [session] = await database(env.DB)
    .select()
    .from(sessions)
    .where(eq(sessions.connectionIdentifier, identifier))
    .limit(1);
  const expired =
    !session ||
    session.status === "expired" ||
    (session.status === "pending" && Date.parse(session.expiredAt) <= Date.now());
  return expired ? null : session;
}

const sessionObject = (env: Env, sessionId: string) =>
  env.SESSIONS.get(env.SESSIONS.idFromName(sessionId));

/** The hosted proof page and its live channel (SPEC §14); public, by connection identifier. */
export const proofRoutes = new Hono<AppEnv>()
  .get("/:identifier", async (c) => {
    const identifier = c.req.param("identifier").toLowerCase();
    const session = await sessionOfPage(c.env, identifier);
    const status = session ? await sessionObject(c.env, session.id).proofStatus(session.id) : null;
    c.header("cache-control", "no-store");
    if (!session || !status) return c.html(<ProofNotFoundPage />, 404);
    return c.html(
      <ProofPage
        kind={session.kind}
        identifier={identifier}
        sshCommand={sshCommand(c.env, identifier)}
        signCommand={proofLinks(c.env, session).sign_command}
        banner={session.sshBanner}
        hostKeyFingerprints={(c.env.SSH_HOST_KEY_FINGERPRINTS ?? "")
          .split(",")
          .map((fingerprint) => fingerprint.trim())
          .filter(Boolean)}
        status={status}
      />,
    );
  })
  .get("/:identifier/status", async (c) => {
    // For a page that got no live channel: the same status, asked for every few seconds.
    const session = await sessionOfPage(c.env, c.req.param("identifier").toLowerCase());
    const status = session ? await sessionObject(c.env, session.id).proofStatus(session.id) : null;
    c.header("cache-control", "no-store");
    if (!status) return c.json({ error: "No such session" }, 404);
    return c.json(status);
  })
  .get("/:identifier/live", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
      return c.text("This is the proof page's WebSocket.", 426);
    const session = await sessionOfPage(c.env, c.req.param("identifier").toLowerCase());
    if (!session) return c.text("No such session", 404);
    const request = new Request(c.req.raw);
    request.headers.set(WATCHER_ADDRESS_HEADER, clientAddress(c.req.raw.headers, c.env));
    const upgraded = await sessionObject(c.env, session.id).fetch(request);
    // A fresh response: the one from the Durable Object has headers nothing may add to.
    return new Response(upgraded.body, { status: upgraded.status, webSocket: upgraded.webSocket });
  });
