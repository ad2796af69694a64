import { KvMap } from "./kv-map.ts";
import { SESSION_ENTRY, type SessionEntry } from "./session-record.ts";
import { WriteBuffer } from "./write-buffer.ts";

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
 *
 * A call's nonce rides in the session's entry when the call writes it (opening and finishing a
 * connection do), in the same write as the change it allowed: no row of its own. A call that
 * wrote no session entry (or failed) has its nonce written alone once it is answered (`settle`).
 */
export class SeenNonces {
  readonly #buffer: WriteBuffer;
  /** Nonces written alone (and, before 2026-11-26, every nonce). */
  readonly #alone: KvMap<number>;
  /** Admitted, not yet written: they ride in the next write of the session's entry. */
  readonly #unsaved = new Map<string, number>();
  #prunedAt = 0;

  constructor(storage: DurableObjectStorage) {
    this.#buffer = WriteBuffer.of(storage);
    this.#alone = new KvMap(storage.kv, "nonce:");
    this.#buffer.ride((pending) => this.#ride(pending));
  }

  /** Records the nonce; false when it was seen before (a replayed call). */
  admit(call: BridgeNonce, now: number): boolean {
    if (this.#seen(call.nonce)) return false;
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now;
      for (const [nonce, expiresAt] of this.#alone.entries())
        if (expiresAt <= now) this.#alone.delete(nonce);
    }
    this.#unsaved.set(call.nonce, call.expiresAt);
    return true;
  }

  /** After a call is answered: a nonce that rode in no write is written alone. */
  settle() {
    for (const [nonce, expiresAt] of this.#unsaved) this.#alone.set(nonce, expiresAt);
    this.#unsaved.clear();
  }

  #seen(nonce: string): boolean {
    return (
      this.#unsaved.has(nonce) ||
      this.#alone.get(nonce) !== undefined ||
      this.#buffer.get<SessionEntry>(SESSION_ENTRY)?.nonces?.[nonce] !== undefined
    );
  }

  /** A transition about to write: the session's entry takes the unsaved nonces, the stale go. */
  #ride(pending: Map<string, unknown>) {
    const entry = pending.get(SESSION_ENTRY) as SessionEntry | undefined;
    if (!entry || this.#unsaved.size === 0) return;
    const now = Date.now();
    const kept = Object.entries(entry.nonces ?? {}).filter(([, expiresAt]) => expiresAt > now);
    entry.nonces = Object.fromEntries([...kept, ...this.#unsaved]);
    this.#unsaved.clear();
  }
}
