/** Storage key prefix of the bridge nonces a session has seen. */
const NONCE_PREFIX = "nonce:";

/** A signed bridge call: its nonce, and when its timestamp stops being accepted (ms). */
export interface BridgeNonce {
  nonce: string;
  expiresAt: number;
}

/**
 * The replay guard for the bridge's calls about one session, in its Durable Object's own storage:
 * every call that changes the session comes through here anyway, so remembering its nonce costs
 * no round trip. A nonce is kept as long as its timestamp could still be accepted.
 */
export class SeenNonces {
  readonly #kv: SyncKvStorage;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  /** Records the nonce; false when it was seen before (a replayed call). */
  admit(call: BridgeNonce, now: number): boolean {
    const key = NONCE_PREFIX + call.nonce;
    if (this.#kv.get<number>(key) !== undefined) return false;
    for (const [seen, expiresAt] of this.#kv.list<number>({ prefix: NONCE_PREFIX })) {
      if (expiresAt <= now) this.#kv.delete(seen);
    }
    this.#kv.put(key, call.expiresAt);
    return true;
  }
}
