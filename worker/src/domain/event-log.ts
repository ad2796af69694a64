import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { type EventType, events } from "../db/webhooks.ts";
import type { EventView } from "../schemas/webhooks.ts";
import type { ProjectContext } from "./context.ts";
import { listEnvelope } from "./paging.ts";

/** `GET /events/`: the project's events, newest first, for reconciliation. */
export async function listEvents(
  ctx: ProjectContext,
  query: {
    offset: number;
    limit: number;
    session_id?: string | undefined;
    type?: EventType | undefined;
  },
) {
  const conditions: SQL[] = [eq(events.projectId, ctx.projectId)];
  if (query.session_id) conditions.push(eq(events.sessionId, query.session_id));
  if (query.type) conditions.push(eq(events.type, query.type));
  const where = and(...conditions);
  const [rows, [totals]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(events)
      .where(where)
      .orderBy(desc(events.id))
      .limit(query.limit)
      .offset(query.offset),
    ctx.db.select({ total: count() }).from(events).where(where),
  ]);
  const items: EventView[] = rows.map((row) => ({
    id: row.id,
    type: row.type,
    entity: row.entity,
    session_id: row.sessionId,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    created_at: row.createdAt,
  }));
  return listEnvelope(items, totals, query);
}
