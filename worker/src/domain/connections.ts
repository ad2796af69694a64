import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import type { Env } from "../env.ts";
import { bridgeUnauthorized } from "../internal/require-signature.ts";
import { notFound } from "../lib/errors.ts";
import type {
  ConnectionProgressRequest,
  FinishConnectionRequest,
  OpenConnectionRequest,
  OpenConnectionResponse,
} from "../protocol/messages.ts";
import type { BridgeNonce } from "../session-object/seen-nonces.ts";

/** What the bridge's calls receive: no project, the bridge acts for the SSH user. */
export interface BridgeContext {
  db: Database;
  env: Env;
  /** The call's nonce: the session's Durable Object refuses it a second time. */
  nonce: BridgeNonce;
}

/** A replayed call gets the same 401 as a bad signature. */
function refuseReplay<T>(result: T | "replayed"): T {
  if (result === "replayed") throw bridgeUnauthorized();
  return result;
}

const sessionObject = (ctx: BridgeContext, sessionId: string) =>
  ctx.env.SESSIONS.get(ctx.env.SESSIONS.idFromName(sessionId));

/**
 * Which session an identifier names, remembered by the isolate: it never changes, and a deleted
 * session's Durable Object answers "unknown" itself.
 */
const sessionIds = new Map<string, string>();
const MAX_REMEMBERED_IDENTIFIERS = 10_000;

async function sessionIdOf(db: Database, identifier: string): Promise<string | null> {
  const remembered = sessionIds.get(identifier);
  if (remembered) return remembered;
  const [session] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.connectionIdentifier, identifier))
    .limit(1);
  if (!session) return null;
  if (sessionIds.size >= MAX_REMEMBERED_IDENTIFIERS)
    sessionIds.delete(sessionIds.keys().next().value ?? "");
  sessionIds.set(identifier, session.id);
  return session.id;
}

export async function openConnection(
  ctx: BridgeContext,
  request: OpenConnectionRequest,
): Promise<OpenConnectionResponse> {
  const sessionId = await sessionIdOf(ctx.db, request.connection_identifier.toLowerCase());
  if (!sessionId) return { accepted: false, reason: "unknown" };
  return refuseReplay(
    await sessionObject(ctx, sessionId).openConnection(
      sessionId,
      { ipAddress: request.ip_address, clientVersion: request.client_version },
      ctx.nonce,
    ),
  );
}

export async function finishConnection(
  ctx: BridgeContext,
  connectionId: string,
  request: FinishConnectionRequest,
) {
  const result = refuseReplay(
    await sessionObject(ctx, request.session_id).finishConnection(
      request.session_id,
      connectionId,
      {
        keys: request.keys,
        keysOffered: request.keys_offered,
        refusals: request.refusals,
        confirmed: request.confirmed,
      },
      ctx.nonce,
    ),
  );
  if (!result) throw notFound("Connection", "path.connection_id", connectionId);
  return result;
}

export async function connectionProgress(
  ctx: BridgeContext,
  connectionId: string,
  request: ConnectionProgressRequest,
) {
  refuseReplay(
    await sessionObject(ctx, request.session_id).connectionProgress(
      connectionId,
      request.confirming,
      ctx.nonce,
    ),
  );
  return { ok: true as const };
}

export async function connectionStatus(ctx: BridgeContext, sessionId: string) {
  const status = await sessionObject(ctx, sessionId).connectionStatus(sessionId);
  if (!status) throw notFound("Session", "query.session_id", sessionId);
  return status;
}
