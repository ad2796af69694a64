import { listEnvelope, type Page } from "../db/paginate.ts";
import type { SessionRow } from "../db/sessions.ts";
import type { SessionKind } from "../protocol/messages.ts";
import type { ProjectContext } from "./context.ts";
import type { SessionState } from "./session-commands.ts";
import { type GivenKeys, listSessionRows, type SessionListFilter } from "./session-views.ts";
import { sessionReadView } from "./sessions.ts";

/**
 * Read-your-writes without waiting for D1: a list asked for by a caller whose writes D1 may not
 * have yet (the sessions its bookmark names) reads D1 as it is, without them, and puts each of
 * them where it belongs as its object has it now — the objects answer at the edge, so the list
 * waits for no push. What is pending is left out of D1's part (its row there may be older, or
 * deleted since), and the page is worked out exactly (`placeOwn`). An object that cannot answer
 * leaves the list to wait for the pushes as before (`readsD1Apart` is then not called).
 */
export interface OwnWrites {
  pending: string[];
  /**
   * The read shows the pending sessions itself: D1 is read without waiting for them. `inD1`
   * names those D1 already has all of, with its bookmark after them: the answer's bookmark then
   * carries that, and names them no more.
   */
  readsD1Apart: (inD1: { sessionId: string; bookmark: string }[]) => void;
}

/**
 * The pending sessions D1 has all of, with its bookmark after each (one that is not D1's, as for
 * an object that holds nothing, adds nothing to the answer's).
 */
export const settledIn = (pending: string[], inD1: (string | null)[]) =>
  pending.flatMap((sessionId, index) => {
    const bookmark = inD1[index];
    return bookmark ? [{ sessionId, bookmark }] : [];
  });

/**
 * Where D1's part of a page is read, with `mine` of the caller's own rows matching the list: from
 * that many rows before the page (each may push one of D1's rows onto it) to the page's end.
 */
export function ownWindow(page: Page, mine: number): Page {
  const offset = Math.max(0, page.offset - mine);
  return { offset, limit: page.offset + page.limit - offset };
}

/**
 * The page: D1's part read at `ownWindow` (newest first) and the caller's own rows, each at its
 * place. A row of D1's part is at its place in D1's part plus the own rows newer than it; an own
 * row at the D1 rows and own rows newer than it — exact for every own row not newer than D1's
 * first row read, and one that is newer is before the page whenever D1's part was read from past
 * its start (it then has at most offset − P rows before it, and P own rows at most).
 */
export function placeOwn<T extends { id: string }>(
  window: T[],
  mine: T[],
  page: Page,
  newer: (a: T, b: T) => boolean,
): T[] {
  const { offset: start } = ownWindow(page, mine.length);
  const placed: [number, T][] = window.map((row, index) => [
    start + index + mine.filter((own) => newer(own, row)).length,
    row,
  ]);
  const [first] = window;
  for (const own of mine) {
    if (start > 0 && (first === undefined || newer(own, first))) continue;
    const before =
      window.filter((row) => newer(row, own)).length +
      mine.filter((other) => newer(other, own)).length;
    placed.push([start + before, own]);
  }
  return placed
    .filter(([position]) => position >= page.offset && position < page.offset + page.limit)
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row);
}

/** Newer first, by the creation time the id carries after its kind's prefix (as D1 orders them). */
const newerSession = (a: SessionRow, b: SessionRow) => a.id.slice(3) > b.id.slice(3);

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
 * A page of the session list with the caller's pending sessions in it as they are now; their
 * given keys (a verification's) come with them, from their objects (`shownApart` names them).
 */
export async function listWithOwnWrites(
  ctx: ProjectContext,
  kind: SessionKind | undefined,
  filter: SessionListFilter,
  own: OwnWrites,
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
  const found = await Promise.all(pending.map((id) => sessionReadView(ctx, id))).catch(() => null);
  if (found === null) return fromD1();
  own.readsD1Apart(
    settledIn(
      pending,
      found.map((view) => view.inD1),
    ),
  );
  const states = found
    .map((view) => view.state)
    .filter((state): state is SessionState => state !== null);
  const mine = states
    .filter((state) => matches(state.session, kind, filter))
    .map((state) => state.session);
  const d1 = await listSessionRows(ctx, kind, filter, {
    exclude: pending,
    window: ownWindow(filter, mine.length),
  });
  const rows = placeOwn(d1.rows, mine, filter, newerSession);
  const total = d1.page.total + mine.length;
  const { items: _rows, ...page } = listEnvelope(rows, { total }, filter);
  return {
    rows,
    page,
    shownApart: new Set(pending),
    apartGiven: {
      keys: states.flatMap((state) => state.keys),
      authorities: states.flatMap((state) => state.authorities),
    },
  };
}
