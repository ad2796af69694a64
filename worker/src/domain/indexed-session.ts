import { and, asc, eq, inArray } from "drizzle-orm";
import { shardDb } from "../db/databases.ts";
import { projectSettings } from "../db/project-settings.ts";
import {
  connections,
  keysOfConnections,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import type { Env } from "../env.ts";
import { erasureOf } from "./retention.ts";
import type { SessionRef } from "./session-address.ts";
import type { SessionState } from "./session-commands.ts";

/**
 * A session as its shard's index holds it: how an object reads back a session it retired, and
 * what a webhook attempt signs.
 */

/** A session read back from its shard, and when its project's retention erases it (ms; null: open). */
export interface IndexedSession extends SessionState {
  eraseAt: number | null;
}

/**
 * The session `ref` names, everything of it, read from the shard's primary: null if there is none
 * for the caller (another project's, the other mode's), or none any more — its project deleted,
 * its test data deleted, or past its retention, which the cron is about to erase (what
 * was erased never comes back, not even for the minute before the sweep). An id is one round trip.
 */
export async function readFromIndex(
  env: Env,
  shard: string,
  ref: SessionRef,
  now = Date.now(),
): Promise<IndexedSession | null> {
  const db = shardDb(env, shard);
  const which =
    "identifier" in ref
      ? eq(sessions.connectionIdentifier, ref.identifier)
      : and(
          eq(sessions.id, ref.sessionId),
          ref.projectId === undefined ? undefined : eq(sessions.projectId, ref.projectId),
          ref.livemode === undefined ? undefined : eq(sessions.livemode, ref.livemode),
        );
  const head = db
    .select({ session: sessions, settings: projectSettings })
    .from(sessions)
    .leftJoin(projectSettings, eq(projectSettings.projectId, sessions.projectId))
    .where(which)
    .limit(1);
  let found: Awaited<typeof head>[number] | undefined;
  let state: SessionState | undefined;
  if ("identifier" in ref) {
    [found] = await head;
    if (found)
      state = (await readManyFromIndex(env, shard, [found.session.id])).get(found.session.id);
  } else {
    const [[first], rest] = await Promise.all([
      head,
      readManyFromIndex(env, shard, [ref.sessionId]),
    ]);
    found = first;
    state = rest.get(ref.sessionId);
  }
  if (!found || !state) return null;
  const ending = erasureOf(env, found.session, found.settings);
  if (ending.erased(now)) return null;
  return { ...state, eraseAt: ending.eraseAt };
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
  const sessionRows = db.select().from(sessions).where(inArray(sessions.id, ids));
  const connectionsOf = db.select().from(connections).where(inArray(connections.sessionId, ids));
  // Keys and authorities are given to verification sessions (`vs_`) only: a delivery ending a
  // collection reads neither (two statements fewer on the primary).
  const given = ids.filter((id) => id.startsWith("vs_"));
  const [rows, connectionRows, keys, authorities] =
    given.length === 0
      ? [...(await db.batch([sessionRows, connectionsOf])), [], []]
      : await db.batch([
          sessionRows,
          connectionsOf,
          db
            .select()
            .from(sessionKeys)
            .where(inArray(sessionKeys.sessionId, given))
            .orderBy(asc(sessionKeys.position)),
          db
            .select()
            .from(sessionAuthorities)
            .where(inArray(sessionAuthorities.sessionId, given))
            .orderBy(asc(sessionAuthorities.position)),
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
