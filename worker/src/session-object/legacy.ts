import { asc, eq } from "drizzle-orm";
import { database } from "../db/client.ts";
import {
  type ConnectionRow,
  connectionKeys,
  connections,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import type { SessionRef } from "../domain/session-address.ts";
import type { SessionState } from "../domain/session-commands.ts";
import type { Env } from "../env.ts";
import type { ConnectionRules } from "./tables.ts";

/**
 * Sessions made before a session's object held its state (2026-11) live only in D1, and their
 * object is named by the session id. The first call to reach such a session finds it here, once;
 * from then on its object holds it like any other.
 */

/** The session `ref` names, everything of it, read from the primary: null if D1 has none. */
export async function readFromIndex(env: Env, ref: SessionRef): Promise<SessionState | null> {
  const db = database(env.DB);
  const where =
    "identifier" in ref
      ? eq(sessions.connectionIdentifier, ref.identifier)
      : eq(sessions.id, ref.sessionId);
  const [session] = await db.select().from(sessions).where(where).limit(1);
  if (!session) return null;
  const [keys, authorities, connectionRows, keyRows] = await db.batch([
    db
      .select()
      .from(sessionKeys)
      .where(eq(sessionKeys.sessionId, session.id))
      .orderBy(asc(sessionKeys.position)),
    db
      .select()
      .from(sessionAuthorities)
      .where(eq(sessionAuthorities.sessionId, session.id))
      .orderBy(asc(sessionAuthorities.position)),
    db.select().from(connections).where(eq(connections.sessionId, session.id)),
    db.select().from(connectionKeys).where(eq(connectionKeys.sessionId, session.id)),
  ]);
  // The webhooks are read when first asked for (session-views.ts webhooksOf).
  return {
    session,
    keys,
    authorities,
    connections: connectionRows,
    connectionKeys: keyRows,
    webhooks: null,
  };
}

/** A connection lease as the object kept it in its key-value storage before 2026-11. */
interface LegacyLease {
  mustConfirm: boolean;
  until: number;
  requireSecurityKey?: boolean;
  requireUserVerification?: boolean;
  ipAddress?: string;
}

/** What the object held of a connection still in progress: its place and its rules. */
export function legacyLeaseOf(
  kv: SyncKvStorage,
  connection: ConnectionRow,
): { leaseUntil: number | null; rules: ConnectionRules } {
  const lease =
    connection.outcome === "in_progress"
      ? kv.get<LegacyLease>(`active:${connection.id}`)
      : undefined;
  return {
    // A connection in progress without its lease has lapsed: it is closed as disconnected.
    leaseUntil: connection.outcome === "in_progress" ? (lease?.until ?? 0) : null,
    rules: {
      mustConfirm: lease?.mustConfirm ?? false,
      requireSecurityKey: lease?.requireSecurityKey ?? false,
      requireUserVerification: lease?.requireUserVerification ?? false,
    },
  };
}
