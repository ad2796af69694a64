import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import type { Env } from "../env.ts";
import { notFound } from "../lib/errors.ts";
import type {
  ConnectionProgressRequest,
  FinishConnectionRequest,
  OpenConnectionRequest,
  OpenConnectionResponse,
} from "../protocol/messages.ts";

/** What the bridge's calls receive: no project, the bridge acts for the SSH user. */
export interface BridgeContext {
  db: Database;
  env: Env;
}

const sessionObject = (ctx: BridgeContext, sessionId: string) =>
  ctx.env.SESSIONS.get(ctx.env.SESSIONS.idFromName(sessionId));

export async function openConnection(
  ctx: BridgeContext,
  request: OpenConnectionRequest,
): Promise<OpenConnectionResponse> {
  const [session] = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.connectionIdentifier, request.connection_identifier.toLowerCase()))
    .limit(1);
  if (!session) return { accepted: false, reason: "unknown" };
  return sessionObject(ctx, session.id).openConnection(session.id, {
    ipAddress: request.ip_address,
    clientVersion: request.client_version,
  });
}

export async function finishConnection(
  ctx: BridgeContext,
  connectionId: string,
  request: FinishConnectionRequest,
) {
  const result = await sessionObject(ctx, request.session_id).finishConnection(
    request.session_id,
    connectionId,
    { keys: request.keys, keysOffered: request.keys_offered, confirmed: request.confirmed },
  );
  if (!result) throw notFound("Connection", "path.connection_id", connectionId);
  return result;
}

export async function connectionProgress(
  ctx: BridgeContext,
  connectionId: string,
  request: ConnectionProgressRequest,
) {
  await sessionObject(ctx, request.session_id).connectionProgress(connectionId, request.confirming);
  return { ok: true as const };
}

export async function connectionStatus(ctx: BridgeContext, sessionId: string) {
  const status = await sessionObject(ctx, sessionId).connectionStatus(sessionId);
  if (!status) throw notFound("Session", "query.session_id", sessionId);
  return status;
}
