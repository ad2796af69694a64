/**
 * The history bench's shards and its loader: a shard's 30 days of a busy project written
 * straight into its SQLite file, each session a copy of one real proof's rows under new ids and
 * times.
 */
import { randomBytes } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { invocationIdOf } from "../worker/src/db/webhooks.ts";
import { BASE32, encodeTime } from "../worker/src/lib/ids.ts";

const DAY_MS = 86_400_000;
/** The days of history loaded: a project's default retention. */
export const HISTORY_DAYS = 30;

/** The loaded shard and the empty one (wrangler.toml binds INDEX_0 … INDEX_3). */
export const LOADED = "INDEX_0";
export const EMPTY = "INDEX_1";
/**
 * A query's time on a shard's primary: D1's limits page takes an average query of 1 ms (about
 * 1,000 queries a second, one at a time).
 */
export const QUERY_MS = 1;
/**
 * A query's time on the primary during the burst: this machine makes some 15 proofs a second, so
 * a primary 20 times slower than D1's average is loaded by them as D1's would be by 300 a second.
 * The burst then counts the queries a proof costs where the primary binds, its writer grouping.
 */
export const BURST_QUERY_MS = 20;

const random = (length: number) =>
  [...randomBytes(length)].map((byte) => BASE32[byte & 31]).join("");

type Row = Record<string, unknown>;

/** One real proof's rows in the shard: what every loaded session is a copy of. */
export function templateOf(file: string, sessionId: string) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const one = (sql: string) => db.prepare(sql).get(sessionId) as Row | undefined;
    const all = (sql: string) => db.prepare(sql).all(sessionId) as Row[];
    const session = one("SELECT * FROM sessions WHERE id = ?");
    const connection = one("SELECT * FROM connections WHERE session_id = ?");
    const rows = all("SELECT * FROM event_rows WHERE session_id = ? ORDER BY id");
    if (!session || !connection || rows.length === 0)
      throw new Error(`the template session ${sessionId} is not in its shard`);
    return { session, connection, rows };
  } finally {
    db.close();
  }
}

/**
 * `count` closed sessions of `projectId` spread over the last 30 days, each a copy of the
 * template's rows under new ids and times, and a delivery of each of its events to each webhook
 * in `webhookIds`: written straight into the shard's file, in one transaction.
 */
export function loadHistory(
  file: string,
  template: ReturnType<typeof templateOf>,
  projectId: string,
  webhookIds: string[],
  count: number,
) {
  const db = new DatabaseSync(file);
  const insert = (table: string, row: Row) => {
    const columns = Object.keys(row);
    const key = `${table}:${columns.join(",")}`;
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(",")}) VALUES (${columns.map(() => "?").join(",")})`,
      );
      statements.set(key, statement);
    }
    statement.run(...(Object.values(row) as (string | number | null)[]));
  };
  const statements = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  const { session, connection, rows } = template;
  const oldSession = String(session.id);
  const oldIdentifier = String(session.connection_identifier);
  const oldConnection = String(connection.id);
  const oldRows = rows.map((row) => String(row.id));
  const start = Date.now() - HISTORY_DAYS * DAY_MS;
  db.exec("BEGIN");
  for (let i = 0; i < count; i++) {
    const at = start + Math.floor((i * HISTORY_DAYS * DAY_MS) / count);
    const time = encodeTime(at);
    const iso = new Date(at).toISOString();
    const id = `cs_${time}${random(16)}`;
    const identifier = `${oldIdentifier[0]}${random(25)}`;
    const connectionId = `con_${time}${random(16)}`;
    const series = rows.map(() => `evt_${time}${random(15)}`);
    const swap = (text: string) => {
      let out = text
        .replaceAll(oldSession, id)
        .replaceAll(oldIdentifier, identifier)
        .replaceAll(oldConnection, connectionId);
      oldRows.forEach((old, n) => {
        out = out.replaceAll(old.slice(0, 29), series[n] ?? "");
      });
      return out;
    };
    insert("sessions", {
      ...session,
      id,
      connection_identifier: identifier,
      project_id: projectId,
      created_at: iso,
      updated_at: iso,
      completed_at: iso,
      expired_at: new Date(at + 3_600_000).toISOString(),
      event_ids: swap(String(session.event_ids)),
    });
    insert("connections", {
      ...connection,
      id: connectionId,
      session_id: id,
      created_at: iso,
      closed_at: iso,
      keys: swap(String(connection.keys)),
    });
    rows.forEach((row, n) => {
      const events = JSON.parse(swap(String(row.events))) as { s: string }[];
      insert("event_rows", {
        ...row,
        id: `${series[n]}${events[0]?.s ?? "0"}`,
        project_id: projectId,
        session_id: id,
        events: JSON.stringify(events),
        common: row.common === null ? null : swap(String(row.common)),
      });
      for (const event of events)
        for (const webhookId of webhookIds) {
          const eventId = `${series[n]}${event.s}`;
          insert("webhook_invocations", {
            id: invocationIdOf(eventId, webhookId),
            webhook_id: webhookId,
            project_id: projectId,
            event_id: eventId,
            status: "succeeded",
            attempts: 1,
            next_attempt_at: null,
            lease_until: null,
            failure_reason: null,
            attempt_log: JSON.stringify([
              {
                attempt: 1,
                request_time: iso,
                duration_ms: 12,
                status_code: 200,
                response_body: "ok",
                error: null,
              },
            ]),
            created_at: iso,
            updated_at: iso,
          });
        }
    });
  }
  db.exec("COMMIT");
  db.close();
}
