import type { SessionAuthorityRow, SessionKeyRow } from "../db/sessions.ts";

const GIVEN_KEY = "given";

/** A verification session's configured keys and trusted CAs. */
export interface GivenKeys {
  configured: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
}

/**
 * The keys a session was given, kept in its Durable Object's storage so a connection need not
 * read them from D1: they are written at creation and only this object marks them verified, so
 * the copy never goes stale. (Sessions made before it existed fill it on their first read.)
 */
export class GivenKeysStore {
  readonly #kv: SyncKvStorage;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  get(): GivenKeys | undefined {
    return this.#kv.get<GivenKeys>(GIVEN_KEY);
  }

  put(given: GivenKeys) {
    this.#kv.put(GIVEN_KEY, given);
  }

  /** The configured keys `ids` were proven for the first time at `at`. */
  markVerified(ids: string[], at: string) {
    const given = this.get();
    if (!given || ids.length === 0) return;
    const verified = new Set(ids);
    this.put({
      ...given,
      configured: given.configured.map((key) =>
        verified.has(key.id) ? { ...key, verifiedAt: at } : key,
      ),
    });
  }
}
