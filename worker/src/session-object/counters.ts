import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { database } from "../db/client.ts";
import { shardBinding } from "../db/databases.ts";
import { connectionKeys, sessions } from "../db/sessions.ts";
import type { Env } from "../env.ts";

/**
 * The highest counter recorded for each of these security keys across a project: what a new
 * proof's counter must exceed. Read from D1 through a read replica near the object, so
 * a proof with a security key waits on no primary; a proof made elsewhere in the project within
 * the replica's lag may go unseen, which the object's own counters cover for its session.
 */
export async function projectCounters(
  env: Env,
  shard: string,
  projectId: string,
  fingerprints: string[],
): Promise<Map<string, number>> {
  const db = database(shardBinding(env, shard).withSession("first-unconstrained"));
  const rows = await db
    .select({
      sha256: connectionKeys.publicKeySha256,
      counter: sql<number | null>`max(json_extract(${connectionKeys.securityKey}, '$.counter'))`,
    })
    .from(connectionKeys)
    .innerJoin(sessions, eq(sessions.id, connectionKeys.sessionId))
    .where(
      and(
        inArray(connectionKeys.publicKeySha256, fingerprints),
        // As the index has it: only security keys have counters.
        isNotNull(connectionKeys.securityKey),
        eq(sessions.projectId, projectId),
      ),
    )
    .groupBy(connectionKeys.publicKeySha256);
  return new Map(
    rows.flatMap(({ sha256, counter }) => (counter === null ? [] : [[sha256, counter]])),
  );
}
