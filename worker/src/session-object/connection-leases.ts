/** Storage key prefix of connections in progress; the value is when their lease runs out (ms). */
const LEASE_PREFIX = "active:";
/**
 * A connection holds its place for the bridge's 30 s auth deadline plus the 120 s confirmation
 * prompt and a margin; a bridge that dies mid-connection frees the session after this.
 */
export const CONNECTION_LEASE_MS = 180_000;

/** The connections in progress on one session, kept in the Durable Object's own storage. */
export class ConnectionLeases {
  readonly #kv: SyncKvStorage;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  take(connectionId: string, now: number) {
    this.#kv.put(LEASE_PREFIX + connectionId, now + CONNECTION_LEASE_MS);
  }

  release(connectionId: string) {
    this.#kv.delete(LEASE_PREFIX + connectionId);
  }

  /** Splits the held leases into running and lapsed, forgetting the lapsed ones. */
  sweep(now: number): { active: string[]; lapsed: string[] } {
    const active: string[] = [];
    const lapsed: string[] = [];
    for (const [key, leaseEnd] of this.#kv.list<number>({ prefix: LEASE_PREFIX })) {
      const id = key.slice(LEASE_PREFIX.length);
      if (leaseEnd > now) active.push(id);
      else {
        lapsed.push(id);
        this.#kv.delete(key);
      }
    }
    return { active, lapsed };
  }

  /** Every connection in progress, forgotten at once (the session closed). */
  releaseAll(): string[] {
    const ids: string[] = [];
    for (const [key] of this.#kv.list({ prefix: LEASE_PREFIX })) {
      ids.push(key.slice(LEASE_PREFIX.length));
      this.#kv.delete(key);
    }
    return ids;
  }
}
