import { createHash, createHmac } from "node:crypto";
import { identifierPrefix } from "../db/databases.ts";
import type { Env } from "../env.ts";
import {
  BASE32,
  CONNECTION_IDENTIFIER_LENGTH,
  encodeTime,
  newConnectionIdentifier,
} from "../lib/ids.ts";
import { objectStub } from "../lib/meter.ts";
import type { SessionKind } from "../protocol/messages.ts";

/**
 * Where a session's Durable Object is, from what each caller knows: the API and the web app know
 * the session id, the bridge and the public pages only the connection identifier. Both lead to
 * the object without asking D1: its name is derived from the identifier, and the session id
 * carries that name (80 bits of SHA-256 of the identifier; the identifier's random bits are not
 * in it). An object that retired reads its session back from its project's shard: the API names
 * the shard (it knows the project), and an identifier starts with it (db/databases.ts).
 */

/** Characters of an id after its time: the object's name. */
const OBJECT_NAME_LENGTH = 16;
const OBJECT_NAME_CONTEXT = "keyproof session object\0";

/** The object's name for a connection identifier. */
export function objectNameOfIdentifier(identifier: string): string {
  const digest = createHash("sha256")
    .update(OBJECT_NAME_CONTEXT + identifier)
    .digest();
  let name = "";
  for (let i = 0; i < OBJECT_NAME_LENGTH; i++) name += BASE32[(digest[i] ?? 0) & 31];
  return name;
}

/** The object's name for a session id: its last 16 characters. */
export const objectNameOfSessionId = (sessionId: string) => sessionId.slice(-OBJECT_NAME_LENGTH);

/**
 * What a call about a session names it by: its id with its project's shard (the API), or its
 * identifier (the bridge, the public pages), which names its shard. An id without a shard finds
 * the session only while its object holds it (a bridge from before identifiers rode its calls).
 * The API also names the caller's project and mode: an object that retired reads its session
 * back only for them (another project's key leaves it as it is).
 */
export type SessionRef =
  | { sessionId: string; shard?: string; projectId?: string; livemode?: boolean }
  | { identifier: string };

export const objectNameOf = (ref: { sessionId: string } | { identifier: string }) =>
  "identifier" in ref
    ? objectNameOfIdentifier(ref.identifier)
    : objectNameOfSessionId(ref.sessionId);

/** The session's object, by the name its id or identifier gives. */
export function sessionObject(
  env: Pick<Env, "SESSIONS" | "ENVIRONMENT">,
  ref: { sessionId: string } | { identifier: string },
) {
  return objectStub(env, env.SESSIONS, objectNameOf(ref));
}

/** A POST with an Idempotency-Key, as admitted: the key, its request's fingerprint, its first time. */
export interface IdempotentRequest {
  key: string;
  fingerprint: string;
  firstAt: number;
}

/**
 * The session a create with an Idempotency-Key makes: the same for every run of the same key and
 * body in the project while its record lasts, so a run again after a crash finds the first run's
 * session instead of making a second. The record's first time is in it: once the
 * record has expired, the same key and body make another session, never the first one's again
 * (whose identifier D1 may still hold). The identifier is 130 bits of an HMAC under
 * BRIDGE_SECRET: as hard to guess as a random one for anyone without the secret.
 */
export function idempotentSessionIds(
  kind: SessionKind,
  secret: string,
  projectId: string,
  shard: string,
  request: IdempotentRequest,
) {
  const digest = createHmac("sha256", secret)
    .update(
      `keyproof idempotent session\0${projectId}\0${request.key}\0${request.fingerprint}\0${request.firstAt}`,
    )
    .digest();
  let identifier = identifierPrefix(shard);
  for (let i = 1; i < CONNECTION_IDENTIFIER_LENGTH; i++)
    identifier += BASE32[(digest[i] ?? 0) & 31];
  const id = `${kind === "collect" ? "cs" : "vs"}_${encodeTime(request.firstAt)}${objectNameOfIdentifier(identifier)}`;
  return { id, identifier };
}

/**
 * A new session's id and identifier: the id's time, then the name its identifier gives; the
 * identifier names its shard in its first character, then 125 random bits.
 */
export function newSessionIds(kind: SessionKind, shard: string, now: number) {
  const identifier = identifierPrefix(shard) + newConnectionIdentifier().slice(1);
  const id = `${kind === "collect" ? "cs" : "vs"}_${encodeTime(now)}${objectNameOfIdentifier(identifier)}`;
  return { id, identifier };
}
