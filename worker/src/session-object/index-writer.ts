import { DurableObject } from "cloudflare:workers";
import type { BatchItem } from "drizzle-orm/batch";
import { database } from "../db/client.ts";
import { withD1 } from "../db/simulated-primary.ts";
import type { Env } from "../env.ts";
import { isIndexUnavailable } from "../lib/unavailable.ts";
import { enqueueQuietly } from "../webhooks/queue.ts";
import {
  madeInvocations,
  type PushRequest,
  type PushResult,
  pushStatements,
  pushToIndex,
} from "./index-push.ts";

/**
 * The one writer of D1's index (SPEC §15, issue #33): every session object's push comes here, and
 * pushes that arrive while a transaction is under way are written together in the next one — a
 * group commit. D1 runs one query at a time per database, so its ceiling is transactions, not
 * rows: alone, a push is one transaction as before (no added wait); in a burst, up to
 * MAX_GROUP sessions share one. Each push stays idempotent (a row only replaces an older
 * version), so a group that fails is simply failed for all its pushes, which their objects'
 * alarms make again; one push D1 refuses on its merits is found by writing the group's pushes
 * one by one, so it cannot hold the others back.
 */

/** Sessions in one transaction at most. */
export const MAX_GROUP = 50;
/** Statements in one transaction at most (D1 allows 1,000 queries per invocation). */
const MAX_STATEMENTS = 500;

/**
 * A push's answer. A failure is an answer, not a thrown error: it crosses the RPC boundary as
 * its message (an unavailable index's starts with lib/unavailable.ts's mark), and the caller
 * throws it again (index-feed.ts).
 */
export type PushOutcome = { ok: true; result: PushResult } | { ok: false; message: string };

interface Waiting {
  request: PushRequest;
  resolve: (outcome: PushOutcome) => void;
}

const failure = (error: unknown): PushOutcome => ({
  ok: false,
  message: error instanceof Error ? error.message : String(error),
});

export class IndexWriter extends DurableObject<Env> {
  #waiting: Waiting[] = [];
  #writing = false;
  /** Transactions written and pushes they carried, since this instance started (bench/tests). */
  #stats = { transactions: 0, pushes: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1(env));
  }

  /** Writes the push, with whatever others arrive meanwhile; D1's bookmark after it. */
  push(request: PushRequest): Promise<PushOutcome> {
    const written = new Promise<PushOutcome>((resolve) => this.#waiting.push({ request, resolve }));
    if (!this.#writing) void this.#drain();
    return written;
  }

  stats() {
    return { ...this.#stats };
  }

  /** Writes groups until nobody waits: each group is what arrived while the last one was written. */
  async #drain() {
    this.#writing = true;
    try {
      while (this.#waiting.length > 0) await this.#write(this.#takeGroup());
    } finally {
      this.#writing = false;
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
      const bookmark = await this.#writeTogether(group);
      for (const waiting of group)
        waiting.resolve({
          ok: true,
          result: { version: waiting.request.changes.version, bookmark },
        });
    } catch (error) {
      if (group.length === 1 || isIndexUnavailable(error)) {
        for (const waiting of group) waiting.resolve(failure(error));
        return;
      }
      // One push refused on its merits: each goes alone, so the rest are written.
      for (const waiting of group)
        await pushToIndex(this.env, waiting.request).then(
          (result) => waiting.resolve({ ok: true, result }),
          (alone) => waiting.resolve(failure(alone)),
        );
    }
  }

  /** The group's pushes in one transaction, their deliveries queued; D1's bookmark after it. */
  async #writeTogether(group: Waiting[]): Promise<string | null> {
    const d1 = this.env.DB.withSession("first-primary");
    const db = database(d1);
    const at = new Date().toISOString();
    const parts = group.map(({ request }) => pushStatements(db, request, at));
    const all: BatchItem<"sqlite">[] = [];
    const offsets = parts.map((part) => {
      const offset = all.length;
      all.push(...part.all);
      return offset;
    });
    if (all.length === 0) return d1.getBookmark();
    const results = await db.batch(all as [BatchItem<"sqlite">]);
    this.#stats.transactions += 1;
    this.#stats.pushes += group.length;
    await enqueueQuietly(
      this.env,
      parts.flatMap((part, i) => madeInvocations(results.slice(offsets[i]), part.fanOuts)),
    );
    return d1.getBookmark();
  }
}

/** Statements a push takes, roughly: its rows' tables and its events' fan-outs. */
function sizeOf(request: PushRequest): number {
  const { changes } = request;
  return 8 + Math.ceil(changes.events.length / 40) + changes.keys.length / 50;
}
