import { inArray } from "drizzle-orm";
import { D1_MAX_BOUND_PARAMETERS, type Database } from "../db/client.ts";
import { connections, keysOfConnections } from "../db/sessions.ts";
import type { EventType } from "../db/webhooks.ts";
import { keyPayload } from "./events.ts";

/**
 * How a session's events are kept in D1 (docs/benchmarks.md §9). A key an event names — the
 * `key` of `key_collected`, each of the `keys` of `verified` — is stored as its id (and the forge
 * `source` it matched), because its connection's row (`connections.keys`) holds the rest; the
 * event log and each delivery expand it back to what the event said. Stored whole, the keys were
 * half of what a session keeps in the index. A redacted key expands redacted, as its row is.
 */

type Payload = Record<string, unknown>;
interface KeyReference {
  id: string;
  source?: string | null;
}

const isWholeKey = (value: unknown): value is KeyReference & { public_key_ssh: string } =>
  typeof value === "object" && value !== null && "public_key_ssh" in value && "id" in value;

const isReference = (value: unknown): value is KeyReference =>
  typeof value === "object" && value !== null && !("public_key_ssh" in value) && "id" in value;

/** The payload as D1 keeps it: keys by reference. */
export function storedPayload(type: EventType, payload: Payload): Payload {
  if (type === "key_collected" && isWholeKey(payload.key))
    return { ...payload, key: { id: payload.key.id } };
  if (type === "verified" && Array.isArray(payload.keys) && payload.keys.every(isWholeKey))
    return {
      ...payload,
      keys: payload.keys.map((key) => ({ id: key.id, source: key.source ?? null })),
    };
  return payload;
}

/** The references a payload holds (none for one stored whole, before 2026-11-25). */
function referencesOf(payload: Payload): KeyReference[] {
  const keys = Array.isArray(payload.keys) ? payload.keys : [payload.key];
  return keys.filter(isReference);
}

/**
 * Events as they were sent: each key reference expanded from its connection's row, in one read
 * of their sessions' connections per 100 sessions.
 */
export async function withKeys<T extends { sessionId: string | null; payload: Payload }>(
  db: Database,
  rows: T[],
): Promise<T[]> {
  const named = new Set<string>();
  const sessionIds = new Set<string>();
  for (const row of rows)
    for (const key of referencesOf(row.payload))
      if (row.sessionId !== null) {
        named.add(key.id);
        sessionIds.add(row.sessionId);
      }
  if (named.size === 0) return rows;
  const ids = [...sessionIds];
  const found = new Map<string, Payload>();
  for (let start = 0; start < ids.length; start += D1_MAX_BOUND_PARAMETERS) {
    const rowsOfSessions = await db
      .select()
      .from(connections)
      .where(inArray(connections.sessionId, ids.slice(start, start + D1_MAX_BOUND_PARAMETERS)));
    for (const key of keysOfConnections(rowsOfSessions))
      if (named.has(key.id)) found.set(key.id, keyPayload(key));
  }
  const expand = (reference: unknown) => {
    if (!isReference(reference)) return reference;
    const key = found.get(reference.id);
    if (!key) return reference;
    return "source" in reference ? { ...key, source: reference.source } : key;
  };
  return rows.map((row) => {
    const payload = row.payload;
    if (referencesOf(payload).length === 0) return row;
    const expanded = Array.isArray(payload.keys)
      ? { ...payload, keys: payload.keys.map(expand) }
      : { ...payload, key: expand(payload.key) };
    return { ...row, payload: expanded };
  });
}
