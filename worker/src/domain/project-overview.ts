import { and, count, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type DayFigures, projectDays } from "../db/project-settings.ts";
import { connections, type IndexedConnectionKey, sessions } from "../db/sessions.ts";
import { encodeTime } from "../lib/ids.ts";
import { SESSION_KINDS } from "../protocol/messages.ts";
import { keyTypeName } from "../protocol/terminal.ts";
import type { ProjectContext } from "./context.ts";

/** How far back a project's home looks. */
export const OVERVIEW_DAYS = 30;
const DAY_MS = 86_400_000;
/**
 * Days this recent are worked out at each view, as their sessions may still change (a
 * connection, a completion); older ones are worked out once and kept (`project_days`).
 */
const LIVE_DAYS = 2;
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

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The sessions made in [from, to), by their ids: an id starts with its creation time, so each
 * kind's is a range of the sessions index with both ends, never the project's history.
 */
function madeBetween(ctx: ProjectContext, from: number, to: number): SQL {
  const [start, end] = [encodeTime(from), encodeTime(to)];
  const ofKinds = SESSION_KINDS.map((kind) => {
    const prefix = kind === "collect" ? "cs" : "vs";
    return sql`SELECT id FROM sessions WHERE project_id = ${ctx.projectId}
      AND livemode = ${ctx.livemode ? 1 : 0} AND kind = ${kind}
      AND id >= ${`${prefix}_${start}`} AND id < ${`${prefix}_${end}`}`;
  });
  return and(
    eq(sessions.livemode, ctx.livemode),
    sql`${sessions.id} IN (${sql.join(ofKinds, sql` UNION ALL `)})`,
  ) as SQL;
}

/** A field of the key json_each gives as `proved` (IndexedConnectionKey). */
const keyField = (field: keyof IndexedConnectionKey) =>
  sql<string>`json_extract(proved.value, ${`$.${field}`})`;

const empty = (): DayFigures => ({
  proofs: {},
  counted: 0,
  finished: 0,
  collect: 0,
  verify: 0,
  keyTypes: {},
});

/** Each day's figures of the sessions made in [from, to), by the day they were made. */
async function figuresOfDays(db: Database, ctx: ProjectContext, from: number, to: number) {
  const made = madeBetween(ctx, from, to);
  const madeOn = sql<string>`substr(${sessions.createdAt}, 1, 10)`;
  const closedOn = sql<string>`substr(${connections.closedAt}, 1, 10)`;
  const [proofs, rates, types, kinds] = await db.batch([
    db
      .select({ madeOn, closedOn, proofs: count() })
      .from(connections)
      .innerJoin(sessions, eq(sessions.id, connections.sessionId))
      .where(and(made, inArray(connections.outcome, [...COUNTED])))
      .groupBy(madeOn, closedOn),
    db
      .select({
        madeOn,
        counted: sql<number>`coalesce(sum(${connections.outcome} in ('collected', 'verified')), 0)`,
        finished: count(),
      })
      .from(connections)
      .innerJoin(sessions, eq(sessions.id, connections.sessionId))
      .where(and(made, sql`${connections.outcome} != 'in_progress'`))
      .groupBy(madeOn),
    // Each connection's row holds its keys (db/sessions.ts): one row of json_each a key.
    db
      .select({ madeOn, algorithm: keyField("publicKeyAlgorithm"), keys: count() })
      .from(connections)
      .innerJoin(sessions, eq(sessions.id, connections.sessionId))
      .innerJoin(sql`json_each(${connections.keys}) AS proved`, sql`true`)
      .where(made)
      .groupBy(madeOn, keyField("publicKeyAlgorithm")),
    db
      .select({ madeOn, kind: sessions.kind, sessions: count() })
      .from(sessions)
      .where(made)
      .groupBy(madeOn, sessions.kind),
  ]);
  const days = new Map<string, DayFigures>();
  const of = (day: string) => {
    const known = days.get(day) ?? empty();
    days.set(day, known);
    return known;
  };
  for (const row of proofs) if (row.closedOn) of(row.madeOn).proofs[row.closedOn] = row.proofs;
  for (const row of rates)
    Object.assign(of(row.madeOn), { counted: row.counted, finished: row.finished });
  for (const row of types)
    of(row.madeOn).keyTypes[row.algorithm] =
      (of(row.madeOn).keyTypes[row.algorithm] ?? 0) + row.keys;
  for (const row of kinds) of(row.madeOn)[row.kind] = row.sessions;
  return days;
}

/**
 * The figures of every day of the window: the days gone by that were worked out before, read;
 * those not yet, worked out from their own range and kept; the last LIVE_DAYS worked out now.
 */
async function windowFigures(ctx: ProjectContext, since: number, today: number) {
  const db = ctx.db;
  const settled = today - (LIVE_DAYS - 1) * DAY_MS;
  const kept = await db
    .select()
    .from(projectDays)
    .where(
      and(
        eq(projectDays.projectId, ctx.projectId),
        eq(projectDays.livemode, ctx.livemode),
        gte(projectDays.day, dayOf(since)),
        lt(projectDays.day, dayOf(settled)),
      ),
    );
  const known = new Map(kept.map((row) => [row.day, row.figures]));
  const missing = [];
  for (let day = since; day < settled; day += DAY_MS) if (!known.has(dayOf(day))) missing.push(day);
  const first = missing[0];
  const last = missing.at(-1);
  if (first !== undefined && last !== undefined) {
    const worked = await figuresOfDays(db, ctx, first, last + DAY_MS);
    const rows = missing.map((day) => ({
      projectId: ctx.projectId,
      livemode: ctx.livemode,
      day: dayOf(day),
      figures: worked.get(dayOf(day)) ?? empty(),
    }));
    for (const row of rows) known.set(row.day, row.figures);
    for (let start = 0; start < rows.length; start += 20)
      await db
        .insert(projectDays)
        .values(rows.slice(start, start + 20))
        .onConflictDoNothing();
  }
  for (const [day, figures] of await figuresOfDays(db, ctx, settled, today + DAY_MS))
    known.set(day, figures);
  return known;
}

export async function projectOverview(ctx: ProjectContext): Promise<ProjectOverview> {
  const today = Date.parse(ctx.now.toISOString().slice(0, 10));
  const since = today - (OVERVIEW_DAYS - 1) * DAY_MS;
  // The mode shown: test data never counts in live figures, nor the reverse.
  const figures = [...(await windowFigures(ctx, since, today)).values()];
  const byDay = new Map<string, number>();
  const byType = new Map<string, number>();
  const total = empty();
  for (const day of figures) {
    for (const [closed, proofs] of Object.entries(day.proofs))
      byDay.set(closed, (byDay.get(closed) ?? 0) + proofs);
    for (const [algorithm, keys] of Object.entries(day.keyTypes)) {
      const type = keyTypeName(algorithm);
      byType.set(type, (byType.get(type) ?? 0) + keys);
    }
    total.counted += day.counted;
    total.finished += day.finished;
    total.collect += day.collect;
    total.verify += day.verify;
  }
  return {
    days: Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
      const date = dayOf(since + i * DAY_MS);
      return { day: date, proofs: byDay.get(date) ?? 0 };
    }),
    connections: { counted: total.counted, finished: total.finished },
    keyTypes: [...byType]
      .map(([type, keys]) => ({ type, keys }))
      .sort((a, b) => b.keys - a.keys || a.type.localeCompare(b.type)),
    sessions: { collect: total.collect, verify: total.verify },
  };
}
