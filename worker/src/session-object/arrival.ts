import { shardOfIdentifier } from "../db/databases.ts";
import { readFromIndex } from "../domain/indexed-session.ts";
import type { SessionRef } from "../domain/session-address.ts";
import type { Env } from "../env.ts";
import { log } from "../lib/log.ts";
import { objectStub } from "../lib/meter.ts";
import type { IndexFeed } from "./index-feed.ts";
import { READ_BACK_HELD_MS, type SessionEnding } from "./session-ending.ts";
import type { SessionStore } from "./session-store.ts";

/** How much longer than its hold a read-back is noted: an alarm's delays on a busy machine. */
const READ_BACK_NOTE_SLACK_MS = 120_000;

/** Where a call about a session is answered: here, or nowhere. */
export type Arrival = "here" | "absent";

/** What finding a session needs of its object. */
interface ArrivalDeps {
  env: Env;
  store: SessionStore;
  feed: IndexFeed;
  ending: SessionEnding;
  scheduleAlarm: () => Promise<void>;
}

/**
 * Where a call about a session is answered: here when the object holds it; an empty
 * object reads a session it retired back from its project's shard (the primary: no answer older
 * than one already given) and holds it again a while; absent when the shard has none. The shard
 * comes with the call: the API knows the project's, and an identifier starts with it. Concurrent
 * calls share one lookup.
 */
export class Arrivals {
  readonly #deps: ArrivalDeps;
  #arriving: Promise<Arrival> | null = null;
  /** No call has arrived at this instance yet. */
  #first = true;

  constructor(deps: ArrivalDeps) {
    this.#deps = deps;
  }

  arrive(ref: SessionRef): Promise<Arrival> {
    const { store, feed } = this.#deps;
    const session = store.session();
    // This instance's first call: an open session's object that was reset between answering a
    // write and pushing it (writes are answered at the edge) pushes what D1 lacks now.
    if (this.#first && session?.completedAt === null && feed.behind() && !feed.pushing())
      void feed.pushNow();
    this.#first = false;
    if (session) return Promise.resolve("here");
    if (store.deleted()) return Promise.resolve("absent");
    this.#arriving ??= this.#readBack(ref).finally(() => {
      this.#arriving = null;
    });
    return this.#arriving;
  }

  /** An empty object: a closed session it retired is read from its shard and held here again. */
  async #readBack(ref: SessionRef): Promise<Arrival> {
    const { env, store, feed, ending } = this.#deps;
    const shard = "identifier" in ref ? shardOfIdentifier(env, ref.identifier) : ref.shard;
    // An identifier that names no shard names no session: nothing is read, nothing written.
    if (!shard) return "absent";
    const found = await readFromIndex(env, shard, ref);
    if (!found) return "absent";
    // Noted with its shard's writer, where its project's erasure looks for it.
    const { projectId, livemode, id: sessionId } = found.session;
    await objectStub(env, env.INDEX_WRITER, shard)
      .noteReadBack({
        projectId,
        sessionId,
        livemode,
        until: Date.now() + READ_BACK_HELD_MS + READ_BACK_NOTE_SLACK_MS,
      })
      .catch((error: unknown) =>
        log(env, "warn", "a read-back could not be noted with its shard's writer", {
          session_id: sessionId,
          error: String(error),
        }),
      );
    if (!store.session()) {
      const readBackAt = Date.now();
      store.transition((write) => {
        write.create({ ...found.session }, shard, found.keys, found.authorities);
        for (const connection of found.connections)
          write.addConnection(connection, {
            // A connection D1 has in progress has no place left here: the alarm closes it now.
            leaseUntil: connection.outcome === "in_progress" ? readBackAt : null,
            rules: {
              mustConfirm: false,
              requireSecurityKey: false,
              requireUserVerification: false,
            },
          });
        write.addConnectionKeys(found.connectionKeys);
      });
      // D1's rows each carry the version that last changed them: the object goes on from the newest.
      const versions = [found.session, ...found.keys, ...found.connections].map(
        (row) => row.version,
      );
      store.adoptVersion(Math.max(store.version(), ...versions));
      // The index has all of it already.
      feed.acknowledged(store.version());
      ending.readBack(found.eraseAt);
      await this.#deps.scheduleAlarm();
    }
    return "here";
  }
}
