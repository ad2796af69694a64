import type { Env } from "../env.ts";
import { bridgeUnauthorized } from "../internal/require-signature.ts";
import { notFound } from "../lib/errors.ts";
import { isConnectionIdentifier } from "../lib/ids.ts";
import type {
  ConnectionProgressRequest,
  FinishConnectionRequest,
  OpenConnectionRequest,
  OpenConnectionResponse,
} from "../protocol/messages.ts";
import type { BridgeNonce } from "../session-object/seen-nonces.ts";
import { type SessionRef, sessionObject } from "./session-address.ts";

/** What the bridge's calls receive: no project, the bridge acts for the SSH user. */
export interface BridgeContext {
  env: Env;
  /** The call's nonce: the session's Durable Object refuses it a second time. */
  nonce: BridgeNonce;
}

/**
 * The session a bridge's call after the first is about: by its identifier when the bridge sends
 * it (the object then reads a retired session back from its shard), else by its id.
 */
function sessionRef(sessionId: string, identifier: string | undefined): SessionRef {
  const name = identifier?.toLowerCase();
  return name && isConnectionIdentifier(name) ? { identifier: name } : { sessionId };
}

/** A replayed call gets the same 401 as a bad signature. */
function refuseReplay<T>(result: T | "replayed"): T {
  if (result === "replayed") throw bridgeUnauthorized();
  return result;
}

/** The identifier leads to its session's object by name alone: no D1 on the way. */
export async function openConnection(
  ctx: BridgeContext,
  request: OpenConnectionRequest,
): Promise<OpenConnectionResponse> {
  const identifier = request.connection_identifier.toLowerCase();
  if (!isConnectionIdentifier(identifier)) return { accepted: false, reason: "unknown" };
  const ref = { identifier };
  return refuseReplay(
    await sessionObject(ctx.env, ref).openConnection(
      ref,
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
  const ref = sessionRef(request.session_id, request.connection_identifier);
  const result = refuseReplay(
    await sessionObject(ctx.env, ref).finishConnection(
      ref,
      connectionId,
      {
        keys: request.keys,
        keysOffered: request.keys_offered,
        refusals: request.refusals,
        confirmed: request.confirmed,
        interrupted: request.interrupted,
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
  const ref = sessionRef(request.session_id, request.connection_identifier);
  refuseReplay(
    await sessionObject(ctx.env, ref).connectionProgress(
      ref,
      connectionId,
      request.confirming,
      ctx.nonce,
    ),
  );
  return { ok: true as const };
}

export async function connectionStatus(
  ctx: BridgeContext,
  sessionId: string,
  identifier: string | undefined,
) {
  const ref = sessionRef(sessionId, identifier);
  const status = await sessionObject(ctx.env, ref).connectionStatus(ref);
  if (!status) throw notFound("Session", "query.session_id", sessionId);
  return status;
}
