import { and, count, eq, gte, isNotNull, type SQL, sql } from "drizzle-orm";
import { connections, type IndexedConnectionKey, sessions } from "../db/sessions.ts";
import { encodeTime } from "../lib/ids.ts";
import { SESSION_KINDS, SESSION_STATUSES } from "../protocol/messages.ts";
import { keyTypeName } from "../protocol/terminal.ts";
import type { ProjectContext } from "./context.ts";

/** How far back a project's home looks. */
export const OVERVIEW_DAYS = 30;
const DAY_MS = 86_400_000;
/** The outcomes of a connection that proved a key that counted, as an SQL list. */
const COUNTED = sql.raw(
  `(${["collected", "verified"].map((outcome) => `'${outcome}'`).join(", ")})`,
);

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

/** Where the index holds a connection's fields: its own row, or its session's (the first). */
interface ConnectionFields {
  closedAt: SQL;
  createdAt: SQL;
  outcome: SQL;
  /** json_each's arguments for its keys. */
  keys: SQL;
}

const APART: ConnectionFields = {
  closedAt: sql`${connections.closedAt}`,
  createdAt: sql`${connections.createdAt}`,
  outcome: sql`${connections.outcome}`,
  keys: sql`${connections.keys}`,
};

const firstField = (field: string) =>
  sql`json_extract(${sessions.firstConnection}, ${`$.${field}`})`;
const FIRST: ConnectionFields = {
  closedAt: firstField("closedAt"),
  createdAt: firstField("createdAt"),
  outcome: firstField("outcome"),
  keys: sql`${sessions.firstConnection}, '$.keys'`,
};

/** The overview's figures of connections, as selections and conditions on `fields`. */
function connectionFigures(fields: ConnectionFields, sinceText: string) {
  const day = sql<string>`substr(${fields.closedAt}, 1, 10)`;
  return {
    perDay: {
      select: { day, proofs: count() },
      where: and(sql`${fields.outcome} IN ${COUNTED}`, sql`${fields.closedAt} >= ${sinceText}`),
      groupBy: day,
    },
    rate: {
      select: {
        counted: sql<number>`coalesce(sum(${fields.outcome} IN ${COUNTED}), 0)`,
        finished: count(),
      },
      where: and(sql`${fields.outcome} != 'in_progress'`, sql`${fields.createdAt} >= ${sinceText}`),
    },
    // One row of json_each a key the connection proved.
    types: {
      select: { algorithm: keyField("publicKeyAlgorithm"), keys: count() },
      keys: sql`json_each(${fields.keys}) AS proved`,
      where: gte(keyField("createdAt"), sinceText),
      groupBy: keyField("publicKeyAlgorithm"),
    },
  };
}

export async function projectOverview(ctx: ProjectContext): Promise<ProjectOverview> {
  const today = Date.parse(ctx.now.toISOString().slice(0, 10));
  const since = today - (OVERVIEW_DAYS - 1) * DAY_MS;
  const sinceText = new Date(since).toISOString();
  // The mode shown: test data never counts in live figures, nor the reverse (SPEC §20).
  const recent = recentSessions(ctx.projectId, ctx.livemode, since);
  // A session's first connection is in its row; later ones have rows of their own.
  const apart = connectionFigures(APART, sinceText);
  const first = connectionFigures(FIRST, sinceText);
  const ofApart = eq(sessions.id, connections.sessionId);
  const withFirst = and(recent, isNotNull(sessions.firstConnection));
  const [perDayApart, perDayFirst, rateApart, rateFirst, typesApart, typesFirst, kinds] =
    await ctx.db.batch([
      ctx.db
        .select(apart.perDay.select)
        .from(connections)
        .innerJoin(sessions, ofApart)
        .where(and(recent, apart.perDay.where))
        .groupBy(apart.perDay.groupBy),
      ctx.db
        .select(first.perDay.select)
        .from(sessions)
        .where(and(withFirst, first.perDay.where))
        .groupBy(first.perDay.groupBy),
      ctx.db
        .select(apart.rate.select)
        .from(connections)
        .innerJoin(sessions, ofApart)
        .where(and(recent, apart.rate.where)),
      ctx.db.select(first.rate.select).from(sessions).where(and(withFirst, first.rate.where)),
      ctx.db
        .select(apart.types.select)
        .from(connections)
        .innerJoin(sessions, ofApart)
        .innerJoin(apart.types.keys, sql`true`)
        .where(and(recent, apart.types.where))
        .groupBy(apart.types.groupBy),
      ctx.db
        .select(first.types.select)
        .from(sessions)
        .innerJoin(first.types.keys, sql`true`)
        .where(and(withFirst, first.types.where))
        .groupBy(first.types.groupBy),
      ctx.db
        .select({ kind: sessions.kind, sessions: count() })
        .from(sessions)
        .where(recent)
        .groupBy(sessions.kind),
    ]);
  const perDay = [...perDayApart, ...perDayFirst];
  const types = [...typesApart, ...typesFirst];
  const rate = {
    counted: (rateApart[0]?.counted ?? 0) + (rateFirst[0]?.counted ?? 0),
    finished: (rateApart[0]?.finished ?? 0) + (rateFirst[0]?.finished ?? 0),
  };
  const byDay = new Map<string, number>();
  for (const row of perDay) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.proofs);
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
    connections: rate,
    keyTypes: [...byType]
      .map(([type, keys]) => ({ type, keys }))
      .sort((a, b) => b.keys - a.keys || a.type.localeCompare(b.type)),
    sessions: {
      collect: kinds.find((row) => row.kind === "collect")?.sessions ?? 0,
      verify: kinds.find((row) => row.kind === "verify")?.sessions ?? 0,
    },
  };
}
