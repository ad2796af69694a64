import { and, eq, notInArray, type SQL } from "drizzle-orm";
import { listEnvelope, paginate } from "../db/paginate.ts";
import { sessions } from "../db/sessions.ts";
import { EVENT_ORDER, type EventType, events, eventsOfSessions } from "../db/webhooks.ts";
import type { EventView } from "../schemas/webhooks.ts";
import type { AnsweredEvent } from "../session-object/api-changes.ts";
import type { ProjectContext } from "./context.ts";
import { type OwnWrites, ownWindow, placeOwn, settledIn } from "./own-writes.ts";
import { unacknowledgedEventsOf } from "./sessions.ts";
import { withKeys } from "./stored-events.ts";

interface EventQuery {
  offset: number;
  limit: number;
  session_id?: string | undefined;
  type?: EventType | undefined;
}

type EventLogRow = typeof events.$inferSelect;

const NO_OWN_WRITES: OwnWrites = { pending: [], readsD1Apart: () => undefined };

/**
 * `GET /events/`: the project's events, newest first, for reconciliation. The caller's own writes
 * D1 has not taken (its bookmark's pending sessions) are shown from their objects: their events
 * D1 has not acknowledged at their place, a deleted session's none (domain/own-writes.ts).
 */
export async function listEvents(ctx: ProjectContext, query: EventQuery, own = NO_OWN_WRITES) {
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
  const found =
    own.pending.length === 0
      ? null
      : await Promise.all(own.pending.map((id) => unacknowledgedEventsOf(ctx, id))).catch(
          () => null,
        );
  let mine: EventLogRow[] = [];
  if (found !== null) {
    own.readsD1Apart(
      settledIn(
        own.pending,
        found.map((state) => state?.inD1 ?? null),
      ),
    );
    const held = found.flatMap((state) =>
      state ? state.events.map((event) => rowOf(state.session, event)) : [],
    );
    const deleted = own.pending.filter((_, index) => found[index] === null);
    if (held.length > 0)
      conditions.push(
        notInArray(
          events.id,
          held.map((row) => row.id),
        ),
      );
    if (deleted.length > 0) conditions.push(notInArray(events.sessionId, deleted));
    mine = held.filter(
      (row) =>
        (!query.session_id || row.sessionId === query.session_id) &&
        (!query.type || row.type === query.type),
    );
  }
  const where = and(...conditions);
  const d1 = await paginate(
    ctx.db,
    ctx.db.select().from(events).where(where).$dynamic(),
    { table: events, where, id: events.id, order: EVENT_ORDER },
    ownWindow(query, mine.length),
  );
  const page = placeOwn(d1.items, mine, query, (a, b) => a.id > b.id);
  const total = d1.total + mine.length;
  const rows = await withKeys(ctx.db, page);
  const items: EventView[] = rows.map((row) => ({
    id: row.id,
    type: row.type,
    entity: row.entity,
    session_id: row.sessionId,
    payload: row.payload,
    livemode: row.livemode,
    created_at: row.createdAt,
  }));
  return listEnvelope(items, { total }, query);
}

/** An event its session's object holds, as the log's rows have it (its keys whole). */
function rowOf(
  session: { id: string; projectId: string; kind: "collect" | "verify"; livemode: boolean },
  event: AnsweredEvent,
): EventLogRow {
  const rowId = event.row ?? event.id;
  return {
    id: event.id,
    rowId,
    // Not shown: the log orders by id, which is the order of rows and positions.
    position: event.id === rowId ? 0 : 1,
    projectId: session.projectId,
    sessionId: session.id,
    entity: `${session.kind}_session`,
    livemode: session.livemode,
    type: event.type,
    payload: JSON.parse(event.payload) as Record<string, unknown>,
    createdAt: event.createdAt,
  };
}
