import { readFromIndex } from "../domain/indexed-session.ts";
import { objectNameOf, type SessionRef, sessionObject } from "../domain/session-address.ts";
import { isOpen } from "../domain/session-rules.ts";
import type { Env } from "../env.ts";
import type { IndexFeed } from "./index-feed.ts";
import { legacyLeaseOf } from "./legacy.ts";
import type { SessionEnding } from "./session-ending.ts";
import type { SessionStore } from "./session-store.ts";

/** Key-value entry: where a legacy session lives. */
const FORWARD_TO = "forward_to";

/** Where a call about a session is answered: here, nowhere, or by a legacy session's object. */
export type Arrival =
  | "here"
  | "absent"
  | { forward: ReturnType<typeof sessionObject>; ref: SessionRef };

/** What finding a session needs of its object. */
interface ArrivalDeps {
  env: Env;
  storage: DurableObjectStorage;
  store: SessionStore;
  feed: IndexFeed;
  ending: SessionEnding;
  scheduleAlarm: () => Promise<void>;
}

/**
 * Where a call about a session is answered (SPEC §15): here when the object holds it; for an empty
 * object, D1's primary says whether it is a session from before objects held sessions (its own
 * object, named by its id: the call goes there, and the object remembers it) or one this object
 * retired (read back and held again a while); absent when D1 has none. Concurrent calls share one
 * lookup.
 */
export class Arrivals {
  readonly #deps: ArrivalDeps;
  #arriving: Promise<Arrival> | null = null;

  constructor(deps: ArrivalDeps) {
    this.#deps = deps;
  }

  arrive(ref: SessionRef): Promise<Arrival> {
    const { store, storage, env } = this.#deps;
    if (store.session()) return Promise.resolve("here");
    if (store.deleted()) return Promise.resolve("absent");
    const forward = storage.kv.get<string>(FORWARD_TO);
    if (forward) return Promise.resolve(legacyObject(env, forward));
    this.#arriving ??= this.#findInIndex(ref).finally(() => {
      this.#arriving = null;
    });
    return this.#arriving;
  }

  /**
   * An empty object: the session may be one D1 holds from before (legacy.ts), or a closed one
   * whose object retired; either is read from the primary and held here again.
   */
  async #findInIndex(ref: SessionRef): Promise<Arrival> {
    const { env, storage, store, feed, ending } = this.#deps;
    const found = await readFromIndex(env, ref);
    if (!found) return "absent";
    const { session } = found;
    const mine =
      ref.legacy === true ||
      objectNameOf({ sessionId: session.id }) ===
        objectNameOf({ identifier: session.connectionIdentifier });
    if (!mine) {
      storage.kv.put(FORWARD_TO, session.id);
      return legacyObject(env, session.id);
    }
    if (!store.session()) {
      const kv = storage.kv;
      const readBackAt = Date.now();
      store.transition((write) => {
        write.create({ ...session }, found.keys, found.authorities);
        for (const connection of found.connections) {
          const held = legacyLeaseOf(kv, connection);
          // A connection D1 has in progress has no place left here: the alarm closes it now.
          if (held.leaseUntil !== null) held.leaseUntil = Math.max(held.leaseUntil, readBackAt);
          write.addConnection(connection, held);
        }
        write.addConnectionKeys(found.connectionKeys);
      });
      // D1's rows each carry the version that last changed them: the object goes on from the newest.
      const versions = [session, ...found.keys, ...found.connections].map((row) => row.version);
      store.adoptVersion(Math.max(store.version(), ...versions));
      if (isOpen(session)) {
        // A session from before objects held sessions: pushed again whole, as the object has it.
        feed.acknowledged(0);
      } else {
        // A retired session read back from the primary: the index has all of it already.
        feed.acknowledged(store.version());
        ending.readBack();
      }
      await this.#deps.scheduleAlarm();
    }
    return "here";
  }
}

/** A session from before objects held sessions: its own object, named by its id. */
function legacyObject(env: Env, sessionId: string): Arrival {
  const ref = { sessionId, legacy: true };
  return { forward: sessionObject(env, ref), ref };
}
