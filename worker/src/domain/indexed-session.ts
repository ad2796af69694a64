import { asc, eq, inArray } from "drizzle-orm";
import { shardDb } from "../db/databases.ts";
import {
  connections,
  keysOfConnections,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import type { Env } from "../env.ts";
import type { SessionRef } from "./session-address.ts";
import type { SessionState } from "./session-commands.ts";

/**
 * A session as its shard's index holds it: how an object reads back a session it retired, and
 * what a webhook attempt signs.
 */

/** The session `ref` names, everything of it, read from the shard's primary: null if none. */
export async function readFromIndex(
  env: Env,
  shard: string,
  ref: SessionRef,
): Promise<SessionState | null> {
  let sessionId: string;
  if ("identifier" in ref) {
    const [found] = await shardDb(env, shard)
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.connectionIdentifier, ref.identifier))
      .limit(1);
    if (!found) return null;
    sessionId = found.id;
  } else sessionId = ref.sessionId;
  return (await readManyFromIndex(env, shard, [sessionId])).get(sessionId) ?? null;
}

/**
 * Sessions of one shard by id, everything of each, read from its primary in one round trip: a
 * run's sessions.
 */
export async function readManyFromIndex(
  env: Env,
  shard: string,
  sessionIds: string[],
): Promise<Map<string, SessionState>> {
  const found = new Map<string, SessionState>();
  const ids = [...new Set(sessionIds)];
  if (ids.length === 0) return found;
  const db = shardDb(env, shard);
  const [rows, keys, authorities, connectionRows] = await db.batch([
    db.select().from(sessions).where(inArray(sessions.id, ids)),
    db
      .select()
      .from(sessionKeys)
      .where(inArray(sessionKeys.sessionId, ids))
      .orderBy(asc(sessionKeys.position)),
    db
      .select()
      .from(sessionAuthorities)
      .where(inArray(sessionAuthorities.sessionId, ids))
      .orderBy(asc(sessionAuthorities.position)),
    db.select().from(connections).where(inArray(connections.sessionId, ids)),
  ]);
  // The webhooks are read when first asked for (session-views.ts webhooksOf).
  for (const session of rows) {
    const of = <T extends { sessionId: string }>(all: T[]) =>
      all.filter((row) => row.sessionId === session.id);
    const ownConnections = of(connectionRows);
    found.set(session.id, {
      session,
      keys: of(keys),
      authorities: of(authorities),
      connections: ownConnections.map(({ keys: _keys, ...connection }) => connection),
      connectionKeys: keysOfConnections(ownConnections),
      webhooks: null,
    });
  }
  return found;
}
