import type { ConnectionRow } from "../db/sessions.ts";
import type { ConnectionRules } from "./tables.ts";

/**
 * Sessions made before a session's object held its state (2026-11) live only in D1, and their
 * object is named by the session id. The first call to reach such a session finds it here, once;
 * from then on its object holds it like any other.
 */

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
