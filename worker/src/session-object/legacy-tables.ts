import { asc } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import migrations from "../../../migrations/session-object/migrations.js";
import type { WebhookRow } from "../db/webhooks.ts";
import {
  CONNECTION_ENTRY,
  type ConnectionEntry,
  type Outbox,
  type Pushed,
  SESSION_ENTRY,
  type SessionEntry,
} from "./session-record.ts";
import {
  connectionKeys,
  connections,
  type OutboxEvent,
  type OutboxRow,
  outbox,
  session,
  sessionAuthorities,
  sessionKeys,
} from "./tables.ts";

/**
 * Objects made before 2026-11-26 kept their session in tables (tables.ts: from the drizzle
 * migrations in migrations/session-object, or made at once from compact-schema.sql). As such an
 * object wakes, its tables become the entries of session-record.ts, once, in one transaction,
 * and are dropped; so are the key-value entries that kept what the session entry keeps now.
 */

/** The key-value entry naming the newest migration an object's tables have. */
const SCHEMA_KEY = "schema";
/** What SCHEMA_KEY says of tables made at once from compact-schema.sql. */
const COMPACT_SCHEMA = "compact-0004";
/** Compact tables made before a column was added, and the statements that bring them to it. */
const COMPACT_UPGRADES: Record<string, string> = {
  "compact-0002":
    "ALTER TABLE `session` ADD `redacted_at` text; ALTER TABLE `session` ADD `livemode` integer DEFAULT true NOT NULL",
  "compact-0003": "ALTER TABLE `session` ADD `livemode` integer DEFAULT true NOT NULL",
};
const NEWEST_MIGRATION = migrations.journal.entries.at(-1)?.tag ?? "";

/** Entries that kept, beside the tables, what the session entry keeps now. */
const OLD_ENTRIES = {
  pushed: "pushed",
  pushedVersion: "pushed_version",
  lastBookmark: "last_bookmark",
  webhooks: "webhooks",
  newWebhooks: "new_webhooks",
} as const;

/** A change's events from its outbox row (a row written before 2026-11-25 holds one event). */
const eventsOf = (row: OutboxRow): OutboxEvent[] =>
  Array.isArray(row.payload)
    ? row.payload
    : [{ id: row.id, type: row.type, payload: row.payload, createdAt: row.createdAt }];

/** The object's own tables (not the runtime's), if it has any. */
function ownTables(storage: DurableObjectStorage): string[] {
  return storage.sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 4) <> '_cf_' AND name NOT LIKE 'sqlite_%'",
    )
    .toArray()
    .map((row) => row.name);
}

/** Brings an object's tables to the newest columns, whichever way they were made. */
async function upgrade(storage: DurableObjectStorage) {
  const schema = storage.kv.get<string>(SCHEMA_KEY);
  if (schema === COMPACT_SCHEMA || schema === NEWEST_MIGRATION) return;
  const statements = schema === undefined ? undefined : COMPACT_UPGRADES[schema];
  if (statements !== undefined) storage.sql.exec(statements);
  else await migrate(drizzle(storage), migrations);
}

/** Turns an object's tables into entries, if it has tables; nothing otherwise. */
export async function entriesFromTables(storage: DurableObjectStorage): Promise<void> {
  if (!ownTables(storage).includes("session")) return;
  await upgrade(storage);
  const db = drizzle(storage);
  const kv = storage.kv;
  storage.transactionSync(() => {
    const row = db.select().from(session).get();
    if (row) {
      const pushed: Pushed = kv.get<Pushed>(OLD_ENTRIES.pushed) ?? {
        version: kv.get<number>(OLD_ENTRIES.pushedVersion) ?? 0,
        bookmark: kv.get<string>(OLD_ENTRIES.lastBookmark) ?? null,
      };
      const outboxes = new Map<number, Outbox>();
      for (const held of db
        .select()
        .from(outbox)
        .orderBy(asc(outbox.version), asc(outbox.id))
        .all()) {
        const change = outboxes.get(held.version) ?? { version: held.version, events: [] };
        change.events.push(...eventsOf(held));
        outboxes.set(held.version, change);
      }
      kv.put(SESSION_ENTRY, {
        version: row.version,
        session: row,
        keys: db.select().from(sessionKeys).all(),
        authorities: db.select().from(sessionAuthorities).all(),
        outbox: [...outboxes.values()],
        pushed,
        webhooks: kv.get<WebhookRow[]>(OLD_ENTRIES.webhooks) ?? null,
        newWebhooks: kv.get<WebhookRow[]>(OLD_ENTRIES.newWebhooks) ?? [],
      } satisfies SessionEntry);
      const keys = db.select().from(connectionKeys).orderBy(asc(connectionKeys.id)).all();
      for (const connection of db.select().from(connections).all())
        kv.put(CONNECTION_ENTRY + connection.id, {
          version: connection.version,
          outbox: [],
          connection,
          keys: keys.filter((key) => key.connectionId === connection.id),
        } satisfies ConnectionEntry);
    }
    for (const name of ownTables(storage)) storage.sql.exec(`DROP TABLE "${name}"`);
    for (const key of [SCHEMA_KEY, ...Object.values(OLD_ENTRIES)]) kv.delete(key);
  });
}
