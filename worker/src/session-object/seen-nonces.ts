import { KvMap } from "./kv-map.ts";

/** A signed bridge call: its nonce, and when its timestamp stops being accepted (ms). */
export interface BridgeNonce {
  nonce: string;
  expiresAt: number;
}

/** How often nonces past their window are forgotten. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The replay guard for the bridge's calls about one session, in its Durable Object's own storage:
 * every call that changes the session comes through here anyway, so remembering its nonce costs
 * no round trip. A nonce is kept at least as long as its timestamp could still be accepted.
 */
export class SeenNonces {
  readonly #seen: KvMap<number>;
  #prunedAt = 0;

  constructor(kv: SyncKvStorage) {
    this.#seen = new KvMap(kv, "nonce:");
  }

  /** Records the nonce; false when it was seen before (a replayed call). */
  admit(call: BridgeNonce, now: number): boolean {
    if (this.#seen.get(call.nonce) !== undefined) return false;
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      for (const [nonce, expiresAt] of this.#seen.entries())
        if (expiresAt <= now) this.#seen.delete(nonce);
    }
    this.#seen.set(call.nonce, call.expiresAt);
    return true;
  }
}
