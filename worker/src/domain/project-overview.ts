import { and, count, eq, gte, inArray, type SQL, sql } from "drizzle-orm";
import { connections, type IndexedConnectionKey, sessions } from "../db/sessions.ts";
import { encodeTime } from "../lib/ids.ts";
import { SESSION_KINDS, SESSION_STATUSES } from "../protocol/messages.ts";
import { keyTypeName } from "../protocol/terminal.ts";
import type { ProjectContext } from "./context.ts";

/** How far back a project's home looks. */
export const OVERVIEW_DAYS = 30;
const DAY_MS = 86_400_000;
const COUNTED = ["collected", "verified"] as const;

/** A project at a glance (its home page): the last 30 days, read from D1's index. */
export interface ProjectOverview {
  /** Every day of the window, oldest first, with the connections that proved a key. */
  days: { day: string; proofs: number }[];
  /** Finished connections, and those that proved a key that counted. */
  connections: { counted: number; finished: number };
  /** Proven keys by type (`ED25519`, `RSA`, `ECDSA-SK`, ...), most first. */
  keyTypes: { type: string; keys: number }[];
  sessions: { collect: number; verify: number };
}

/**
 * Sessions created in the window, found by their ids: an id starts with its creation time, so
 * `(project, mode, kind, status, id ≥ cs_<time>)` is a range of the sessions index, one for each
 * kind and status, not a scan.
 */
function recentSessions(projectId: string, livemode: boolean, since: number): SQL {
  const time = encodeTime(since);
  // Each kind's ranges, then the kinds: D1 takes no more than a few terms in one compound SELECT.
  const ofKinds = SESSION_KINDS.map((kind) => {
    const ranges = SESSION_STATUSES.map(
      (status) =>
        sql`SELECT id FROM sessions WHERE project_id = ${projectId} AND livemode = ${livemode ? 1 : 0}
          AND kind = ${kind} AND status = ${status}
          AND id >= ${`${kind === "collect" ? "cs" : "vs"}_${time}`}`,
    );
    return sql`SELECT id FROM (${sql.join(ranges, sql` UNION ALL `)})`;
  });
  return and(
    eq(sessions.livemode, livemode),
    sql`${sessions.id} IN (${sql.join(ofKinds, sql` UNION ALL `)})`,
  ) as SQL;
}

/** A field of the key json_each gives as `proved` (IndexedConnectionKey). */
const keyField = (field: keyof IndexedConnectionKey) =>
  sql<string>`json_extract(proved.value, ${`$.${field}`})`;

export async function projectOverview(ctx: ProjectContext): Promise<ProjectOverview> {
  const today = Date.parse(ctx.now.toISOString().slice(0, 10));
  const since = today - (OVERVIEW_DAYS - 1) * DAY_MS;
  const sinceText = new Date(since).toISOString();
  // The mode shown: test data never counts in live figures, nor the reverse (SPEC §20).
  const recent = recentSessions(ctx.projectId, ctx.livemode, since);
  const day = sql<string>`substr(${connections.closedAt}, 1, 10)`;
  const counted = inArray(connections.outcome, [...COUNTED]);
  const [perDay, rate, types, kinds] = await ctx.db.batch([
    ctx.db
      .select({ day, proofs: count() })
      .from(connections)
      .innerJoin(sessions, eq(sessions.id, connections.sessionId))
      .where(and(recent, counted, gte(connections.closedAt, sinceText)))
      .groupBy(day),
    ctx.db
      .select({
        counted: sql<number>`coalesce(sum(${connections.outcome} in ('collected', 'verified')), 0)`,
        finished: count(),
      })
      .from(connections)
      .innerJoin(sessions, eq(sessions.id, connections.sessionId))
      .where(
        and(
          recent,
          sql`${connections.outcome} != 'in_progress'`,
          gte(connections.createdAt, sinceText),
        ),
      ),
    // Each connection's row holds its keys (db/sessions.ts): one row of json_each a key.
    ctx.db
      .select({ algorithm: keyField("publicKeyAlgorithm"), keys: count() })
      .from(connections)
      .innerJoin(sessions, eq(sessions.id, connections.sessionId))
      .innerJoin(sql`json_each(${connections.keys}) AS proved`, sql`true`)
      .where(and(recent, gte(keyField("createdAt"), sinceText)))
      .groupBy(keyField("publicKeyAlgorithm")),
    ctx.db
      .select({ kind: sessions.kind, sessions: count() })
      .from(sessions)
      .where(recent)
      .groupBy(sessions.kind),
  ]);
  const byDay = new Map(perDay.map((row) => [row.day, row.proofs]));
  const byType = new Map<string, number>();
  for (const row of types) {
    const type = keyTypeName(row.algorithm);
    byType.set(type, (byType.get(type) ?? 0) + row.keys);
  }
  return {
    days: Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
      const date = new Date(since + i * DAY_MS).toISOString().slice(0, 10);
      return { day: date, proofs: byDay.get(date) ?? 0 };
    }),
    connections: { counted: rate[0]?.counted ?? 0, finished: rate[0]?.finished ?? 0 },
    keyTypes: [...byType]
      .map(([type, keys]) => ({ type, keys }))
      .sort((a, b) => b.keys - a.keys || a.type.localeCompare(b.type)),
    sessions: {
      collect: kinds.find((row) => row.kind === "collect")?.sessions ?? 0,
      verify: kinds.find((row) => row.kind === "verify")?.sessions ?? 0,
    },
  };
}
