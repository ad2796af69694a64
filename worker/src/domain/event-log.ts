import { and, eq, type SQL } from "drizzle-orm";
import { paginate } from "../db/paginate.ts";
import { sessions } from "../db/sessions.ts";
import { EVENT_ORDER, type EventType, events, eventsOfSessions } from "../db/webhooks.ts";
import type { EventView } from "../schemas/webhooks.ts";
import type { ProjectContext } from "./context.ts";
import { withKeys } from "./stored-events.ts";

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
  const conditions: SQL[] = [
    eq(events.projectId, ctx.projectId),
    eq(events.livemode, ctx.livemode),
  ];
  if (query.session_id)
    conditions.push(
      eventsOfSessions(
        and(eq(sessions.id, query.session_id), eq(sessions.projectId, ctx.projectId)),
      ) as SQL,
    );
  if (query.type) conditions.push(eq(events.type, query.type));
  const where = and(...conditions);
  const page = await paginate(
    ctx.db,
    ctx.db.select().from(events).where(where).$dynamic(),
    { table: events, where, id: events.id, order: EVENT_ORDER },
    query,
  );
  const rows = await withKeys(ctx.db, page.items);
  const items: EventView[] = rows.map((row) => ({
    id: row.id,
    type: row.type,
    entity: row.entity,
    session_id: row.sessionId,
    payload: row.payload,
    livemode: row.livemode,
    created_at: row.createdAt,
  }));
  return { ...page, items };
}
