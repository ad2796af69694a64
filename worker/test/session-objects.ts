import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { shardBinding, shardNames } from "../src/db/databases.ts";
import type { connections, SessionRow } from "../src/db/sessions.ts";
import { objectNameOfSessionId } from "../src/domain/session-address.ts";
import {
  CONNECTION_ENTRY,
  type ConnectionEntry,
  SESSION_ENTRY,
  type SessionEntry,
} from "../src/session-object/session-record.ts";
import { WriteBuffer } from "../src/session-object/write-buffer.ts";

/**
 * A session's Durable Object, where its state lives: the namespace's own stub, not the
 * metered one the Worker uses, because `runInDurableObject` accepts only a real stub.
 */
export const objectOf = (sessionId: string) =>
  env.SESSIONS.get(env.SESSIONS.idFromName(objectNameOfSessionId(sessionId)));

/** Waits until D1's index has everything the session's object holds so far. */
export const indexed = (sessionId: string) => objectOf(sessionId).indexed();

/**
 * Changes what the object holds, as time or a crash would (a past expiry, a challenge the
 * fixtures signed): the object's own entries, not D1's, are the truth.
 */
export async function changeHeldSession(sessionId: string, changes: Partial<SessionRow>) {
  await runInDurableObject(objectOf(sessionId), (_instance, state) => {
    const changed = WriteBuffer.of(state.storage).update<SessionEntry>(SESSION_ENTRY, (entry) => {
      entry.session = { ...entry.session, ...changes };
    });
    if (!changed) throw new Error(`the object holds no session ${sessionId}`);
  });
}

/** Every connection in progress on the session lapses, as if its bridge had died 180 s ago. */
export async function lapseConnections(sessionId: string) {
  await runInDurableObject(objectOf(sessionId), (_instance, state) => {
    const entries = WriteBuffer.of(state.storage);
    for (const [key] of entries.list<ConnectionEntry>(CONNECTION_ENTRY))
      entries.update<ConnectionEntry>(key, (entry) => {
        entry.connection.leaseUntil = Date.now() - 1;
      });
  });
}

/** A connection as the session's object holds it (its lease, its rules). */
export const heldConnection = (sessionId: string, connectionId: string) =>
  runInDurableObject(objectOf(sessionId), (_instance, state) => {
    const entry = WriteBuffer.of(state.storage).get<ConnectionEntry>(
      CONNECTION_ENTRY + connectionId,
    );
    if (!entry) throw new Error(`the object holds no connection ${connectionId}`);
    return entry.connection;
  });

/** The version of the session its object holds: the newest its entries were written with. */
export const heldVersion = (sessionId: string) =>
  runInDurableObject(objectOf(sessionId), (_instance, state) => {
    const entries = WriteBuffer.of(state.storage);
    const versions = [
      entries.get<{ version: number }>(SESSION_ENTRY)?.version ?? 0,
      ...entries.list<{ version: number }>(CONNECTION_ENTRY).map(([, entry]) => entry.version),
    ];
    return Math.max(0, ...versions);
  });

/** What an object's storage holds: its tables (not the runtime's own), key-value entries, alarm. */
export const storageOf = (stub: DurableObjectStub) =>
  runInDurableObject(stub, async (_instance, state) => ({
    tables: state.storage.sql
      .exec("SELECT name FROM sqlite_master WHERE substr(name, 1, 4) <> '_cf_'")
      .toArray().length,
    entries: [...state.storage.kv.list()].length,
    alarm: await state.storage.getAlarm(),
  }));

/** An object that keeps nothing: no table, no entry, no alarm. */
export const NOTHING_STORED = { tables: 0, entries: 0, alarm: null };

/** Every D1 database the Worker binds: the directory and each shard, by binding name. */
export const everyDatabase = (): [string, D1Database][] => [
  ["DIRECTORY", env.DIRECTORY],
  ...shardNames(env).map((shard): [string, D1Database] => [shard, shardBinding(env, shard)]),
];

/**
 * Every row of every table of every D1 database, as text: where erased data must not be found.
 * Left out: the projects' audit log, which names a redacted or deleted session by its id (and
 * nothing else of it) for as long as it keeps the change (docs/security.md).
 */
export async function everythingInD1(): Promise<string> {
  const dumps = [];
  for (const [, d1] of everyDatabase()) {
    const tables = await d1
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'audit_log')",
      )
      .all<{ name: string }>();
    for (const { name } of tables.results)
      dumps.push(JSON.stringify((await d1.prepare(`SELECT * FROM "${name}"`).all()).results));
  }
  return dumps.join("\n");
}

/** Every row of every table an object holds, and its key-value entries, as text. */
export const everythingInObject = (stub: DurableObjectStub) =>
  runInDurableObject(stub, (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 4) <> '_cf_' AND name NOT LIKE 'sqlite_%'",
      )
      .toArray();
    const rows = tables.map(({ name }) => sql.exec(`SELECT * FROM "${name}"`).toArray());
    return JSON.stringify([rows, [...state.storage.kv.list()]]);
  });

/**
 * A connection's row in the index as redaction leaves it: no address or software, and its one
 * key (inside the row) without anything that identifies it.
 */
export function expectRedactedConnectionRow(row: typeof connections.$inferSelect | undefined) {
  expect(row).toMatchObject({ ipAddress: "[redacted]", clientVersion: "[redacted]" });
  expect(row?.keys).toHaveLength(1);
  expect(row?.keys[0]).toMatchObject({
    publicKeySsh: "[redacted]",
    publicKeySha256: "[redacted]",
    publicKeyPem: null,
    comment: null,
  });
}

/** Every row of one database that names `needle`, as text, table by table. */
export async function rowsNaming(d1: D1Database, needle: string) {
  const tables = await d1
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    )
    .all<{ name: string }>();
  const found: string[] = [];
  for (const { name } of tables.results) {
    const { results } = await d1.prepare(`SELECT * FROM "${name}"`).all();
    for (const row of results) if (JSON.stringify(row).includes(needle)) found.push(name);
  }
  return found;
}
