import type { SessionRow } from "../db/sessions.ts";
import type { SessionKind } from "../protocol/messages.ts";
import type { ProjectContext } from "./context.ts";
import type { SessionState } from "./session-commands.ts";
import { type GivenKeys, listSessionRows, type SessionListFilter } from "./session-views.ts";
import { kindOfSession, sessionState } from "./sessions.ts";

/**
 * Read-your-writes without waiting for D1: a list asked for by a caller whose writes D1 may not
 * have yet (the sessions its bookmark names) reads D1 as it is, without them, and puts each of
 * them where it belongs as its object has it now — the objects answer at the edge, so the list
 * waits for no push. Each pending session is left out of D1's part (its row there may be older,
 * or deleted since), and the page is worked out exactly: with P of them matching the list,
 * D1's part is read from P rows before the page (each may push one of D1's rows onto the page)
 * to its end, and `total` counts D1's part and P. An object that cannot answer leaves the list to
 * wait for the pushes as before (`readsD1Apart` is then not called).
 */

/** A pending session as its object has it now; null when it was deleted (or is not the caller's). */
async function currentState(ctx: ProjectContext, sessionId: string) {
  const kind = kindOfSession(sessionId);
  if (!kind) return null;
  return sessionState(ctx, kind, sessionId).catch((error: unknown) => {
    if (error instanceof Error && "status" in error && error.status === 404) return null;
    throw error;
  });
}

/** Newer first, by the creation time the id carries after its kind's prefix (as D1 orders them). */
const newer = (a: string, b: string) => a.slice(3) > b.slice(3);

function matches(
  session: SessionRow,
  kind: SessionKind | undefined,
  filter: SessionListFilter,
): boolean {
  return (
    (kind === undefined || session.kind === kind) &&
    (filter.status === undefined || session.status === filter.status) &&
    (filter.external_id === undefined || session.externalId === filter.external_id)
  );
}

/**
 * A page of the list with the caller's pending sessions in it as they are now (see above); their
 * given keys (a verification's) come with them, from their objects (`shownApart` names them).
 */
export async function listWithOwnWrites(
  ctx: ProjectContext,
  kind: SessionKind | undefined,
  filter: SessionListFilter,
  own: { pending: string[]; readsD1Apart: () => void },
): Promise<
  Awaited<ReturnType<typeof listSessionRows>> & { shownApart: Set<string>; apartGiven: GivenKeys }
> {
  const { pending } = own;
  const fromD1 = async () => ({
    ...(await listSessionRows(ctx, kind, filter)),
    shownApart: new Set<string>(),
    apartGiven: { keys: [], authorities: [] },
  });
  if (pending.length === 0) return fromD1();
  const found = await Promise.all(pending.map((id) => currentState(ctx, id))).catch(() => null);
  if (found === null) return fromD1();
  own.readsD1Apart();
  const states = found.filter((state): state is SessionState => state !== null);
  const mine = states
    .filter((state) => matches(state.session, kind, filter))
    .map((state) => state.session);
  const start = Math.max(0, filter.offset - mine.length);
  const end = filter.offset + filter.limit;
  const d1 = await listSessionRows(ctx, kind, filter, {
    exclude: pending,
    window: { offset: start, limit: end - start },
  });
  const window = d1.rows;
  const placed: [number, SessionRow][] = window.map((row, index) => [
    start + index + mine.filter((session) => newer(session.id, row.id)).length,
    row,
  ]);
  const [first] = window;
  for (const session of mine) {
    // Newer than D1's first row read: before the page (start ≤ offset - P; see above).
    if (start > 0 && (first === undefined || newer(session.id, first.id))) continue;
    const position =
      start +
      window.filter((row) => newer(row.id, session.id)).length +
      mine.filter((other) => newer(other.id, session.id)).length;
    placed.push([position, session]);
  }
  const rows = placed
    .filter(([position]) => position >= filter.offset && position < end)
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row);
  const total = d1.page.total + mine.length;
  const given: GivenKeys = {
    keys: states.flatMap((state) => state.keys),
    authorities: states.flatMap((state) => state.authorities),
  };
  return {
    rows,
    page: {
      total,
      offset: filter.offset,
      limit: filter.limit,
      has_more: filter.offset + rows.length < total,
    },
    shownApart: new Set(pending),
    apartGiven: given,
  };
}
