import { DurableObject } from "cloudflare:workers";
import { getTableColumns } from "drizzle-orm";
import { D1_MAX_BOUND_PARAMETERS } from "../db/client.ts";
import { withD1 } from "../db/d1-calls.ts";
import { sessions } from "../db/sessions.ts";
import type { Env } from "../env.ts";
import { meterWriterRequest } from "../lib/meter.ts";
import { isD1KnownAway, isRefusedOnItsMerits } from "../lib/unavailable.ts";
import {
  type ProjectsKnown,
  type PushRequest,
  type PushResult,
  pushToIndex,
  writePushes,
} from "./index-push.ts";

/**
 * The writer of one index shard: every push of the shard's sessions comes here, one
 * object per shard (named after it), and pushes that arrive while a transaction is under way are
 * written together in the next one — a group commit. D1 runs one query at a time per database, so its ceiling is transactions, not
 * rows: alone, a push is one transaction as before (no added wait); in a burst, up to
 * MAX_GROUP sessions share one. Each push stays idempotent (a row only replaces an older
 * version), so a group that fails because D1 is away is simply failed for all its pushes, which
 * their objects' alarms make again. Any other failure — one push D1 refuses on its merits, or an
 * error D1 does not explain — is found by writing the group's pushes one by one, so one push
 * cannot hold the others back (lib/unavailable.ts tells the two apart).
 */

/** Sessions in one transaction at most. */
export const MAX_GROUP = 100;
/**
 * Transactions under way at once. A write that arrives while one is in flight starts at once,
 * beside it, rather than waiting a whole round trip to the primary behind it (back-to-back API
 * writes each wait one round trip, not two); while both are in flight, arrivals group. Each push
 * is a superset of any earlier one of its session still unacknowledged, and rows only replace
 * older versions, so two transactions may land in either order.
 */
const MAX_IN_FLIGHT = 2;
/** Statements in one transaction at most (D1 allows 1,000 queries per invocation). */
const MAX_STATEMENTS = 500;

/**
 * A push's answer. A failure is an answer, not a thrown error: it crosses the RPC boundary as
 * its message (an unavailable index's starts with lib/unavailable.ts's mark), and the caller
 * throws it again (index-feed.ts).
 */
export type PushOutcome =
  | { ok: true; result: PushResult }
  /** `refused`: D1 refused it on its merits (index-feed.ts stops retrying it). */
  | { ok: false; message: string; refused: boolean };

interface Waiting {
  request: PushRequest;
  resolve: (outcome: PushOutcome) => void;
}

const failure = (error: unknown): PushOutcome => ({
  ok: false,
  message: error instanceof Error ? error.message : String(error),
  refused: isRefusedOnItsMerits(error),
});

/** A session read back into its object from D1 (noteReadBack). */
export interface ReadBack {
  sessionId: string;
  livemode: boolean;
}

const READ_BACK = "read-back:";
/** How often the shard's pushes sweep the read-back notes past their time, at most. */
const READ_BACK_SWEEP_MS = 60_000;

export class IndexWriter extends DurableObject<Env> {
  #waiting: Waiting[] = [];
  /** Transactions under way. */
  readonly #writing = new Set<Promise<void>>();
  /** The shard's projects' rows, as read (index-push.ts `ProjectsKnown`). */
  readonly #projects: ProjectsKnown = new Map();
  /** When the read-back notes were last swept (ms). */
  #sweptAt = 0;
  /** Transactions written and pushes they carried, since this instance started (bench/tests). */
  #stats = { transactions: 0, pushes: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1(env));
  }

  /** Writes the push, with whatever others arrive meanwhile; D1's bookmark after it. */
  push(request: PushRequest): Promise<PushOutcome> {
    meterWriterRequest(request.shard);
    this.#forgetPastReadBacks();
    const written = new Promise<PushOutcome>((resolve) => this.#waiting.push({ request, resolve }));
    this.#pump();
    return written;
  }

  /**
   * The project's row here changed (its retention): read it again before its next push.
   */
  projectChanged(projectId: string) {
    this.#projects.delete(projectId);
  }

  /**
   * A closed session of the project was read back from D1 into its object, which holds it until
   * `until` (ms): noted here, in storage, so that the project's erasure finds it however long
   * ago it closed (`fence`). Notes past their time are forgotten as the next ones come (and with
   * the shard's pushes, a sweep a minute at most): no alarm of its own.
   */
  async noteReadBack(note: ReadBack & { projectId: string; until: number }): Promise<void> {
    const { projectId, sessionId, livemode, until } = note;
    this.#forgetPastReadBacks(true);
    this.ctx.storage.kv.put(`${READ_BACK}${projectId}:${sessionId}`, {
      sessionId,
      livemode,
      until,
    });
  }

  /** Forgets the read-backs whose hold has passed: now, or when a minute has gone since the last. */
  #forgetPastReadBacks(now = false) {
    const at = Date.now();
    if (!now && at - this.#sweptAt < READ_BACK_SWEEP_MS) return;
    this.#sweptAt = at;
    for (const [key, note] of this.ctx.storage.kv.list<{ until: number }>({ prefix: READ_BACK }))
      if (note.until <= at) this.ctx.storage.kv.delete(key);
  }

  /**
   * Resolves once every transaction under way when it was called has ended. A project's erasure
   * marks it erased first (its tombstone here), then calls this: a group that read the project
   * before the mark has landed when it resolves, and every later one reads the mark and refuses
   * its pushes (domain/project-erasure.ts). Every push of the shard comes through this writer.
   * Answers the project's sessions read back into their objects and held there still, for the
   * erasure to erase through them.
   */
  async fence(projectId: string): Promise<ReadBack[]> {
    this.#projects.delete(projectId);
    await Promise.allSettled([...this.#writing]);
    const now = Date.now();
    return [
      ...this.ctx.storage.kv.list<ReadBack & { until: number }>({
        prefix: `${READ_BACK}${projectId}:`,
      }),
    ]
      .filter(([, note]) => note.until > now)
      .map(([, { sessionId, livemode }]) => ({ sessionId, livemode }));
  }

  stats() {
    return { ...this.#stats };
  }

  /** Starts a transaction for what waits, while fewer than MAX_IN_FLIGHT are under way. */
  #pump() {
    while (this.#writing.size < MAX_IN_FLIGHT && this.#waiting.length > 0) {
      const writing = this.#write(this.#takeGroup()).finally(() => {
        this.#writing.delete(writing);
        this.#pump();
      });
      this.#writing.add(writing);
    }
  }

  #takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    let statements = 0;
    while (group.length < MAX_GROUP && this.#waiting.length > 0) {
      const next = this.#waiting[0] as Waiting;
      const size = sizeOf(next.request);
      if (group.length > 0 && statements + size > MAX_STATEMENTS) break;
      group.push(next);
      this.#waiting.shift();
      statements += size;
    }
    return group;
  }

  async #write(group: Waiting[]) {
    try {
      const { bookmark, gone, eraseAt } = await this.#writeTogether(group);
      for (const { request, resolve } of group) {
        const { sessionId } = request.target;
        resolve({
          ok: true,
          result: gone.has(sessionId)
            ? { gone: true }
            : {
                version: request.changes.version,
                bookmark,
                eraseAt: eraseAt.get(sessionId) ?? null,
              },
        });
      }
    } catch (error) {
      if (group.length === 1 || isD1KnownAway(error)) {
        for (const waiting of group) waiting.resolve(failure(error));
        return;
      }
      // Not D1 away: each goes alone, so one push's fault does not fail the rest.
      for (const waiting of group)
        await pushToIndex(this.env, waiting.request, this.#projects).then(
          (result) => waiting.resolve({ ok: true, result }),
          (alone) => waiting.resolve(failure(alone)),
        );
    }
  }

  /** The group's pushes in one transaction, their deliveries queued; D1's bookmark after it. */
  async #writeTogether(group: Waiting[]) {
    const requests = group.map((waiting) => waiting.request);
    const written = await writePushes(this.env, requests[0]?.shard ?? "", requests, this.#projects);
    this.#stats.transactions += 1;
    this.#stats.pushes += group.length;
    return written;
  }
}

/** Rows of one table a statement holds at least: the sessions table's, the widest pushed. */
const FEWEST_ROWS_A_STATEMENT = Math.floor(
  D1_MAX_BOUND_PARAMETERS / Object.keys(getTableColumns(sessions)).length,
);
/**
 * Statements a session's erasure or redaction takes, at most: redaction's six (one a table it
 * rewrites, domain/redaction.ts), erasure's three (domain/retention.ts). Their own, one session each.
 */
const ENDING_STATEMENTS = 6;

/**
 * Statements a push adds to its group's batch, at most: a group's rows share each table's
 * statements (index-push.ts), so a push adds its rows' worth of them, and its erasure or
 * redaction. Each table's last, partly filled statement is the slack MAX_STATEMENTS leaves.
 */
function sizeOf(request: PushRequest): number {
  const { changes } = request;
  const rows =
    1 +
    request.newWebhooks.length +
    changes.keys.length +
    changes.authorities.length +
    changes.connections.length +
    changes.connectionKeys.length +
    // Its events' row, and an invocation each for a webhook: two rows an event, at most one row
    // of events and several of invocations (a table's rows share their statements).
    2 * changes.events.length;
  const ending = changes.session?.deleted || changes.session?.redactedAt ? ENDING_STATEMENTS : 0;
  return Math.ceil(rows / FEWEST_ROWS_A_STATEMENT) + ending;
}
