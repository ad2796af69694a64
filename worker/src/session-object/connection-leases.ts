import type { ProvenKeyView } from "../protocol/key-outcomes.ts";
import { KvMap } from "./kv-map.ts";
/**
 * A connection holds its place for the bridge's 30 s auth deadline plus the 120 s confirmation
 * prompt and a margin; a bridge that dies mid-connection frees the session after this.
 */
export const CONNECTION_LEASE_MS = 180_000;

/** The session's rules as they stood when a connection opened; later PATCHes do not reach it. */
export interface ConnectionRules {
  mustConfirm: boolean;
  requireSecurityKey: boolean;
  requireUserVerification: boolean;
}

/** Leases taken before the security-key rules existed hold only must_confirm. */
interface Lease extends Partial<ConnectionRules> {
  mustConfirm: boolean;
  /** When the lease runs out (ms). */
  until: number;
  /** The client's address, which a certificate's source-address must allow (older leases: none). */
  ipAddress?: string;
  /** The keys a user is asked to confirm, once the bridge says so (for the proof page). */
  confirming?: ProvenKeyView[];
}

/** The connections in progress on one session, kept in the Durable Object's own storage. */
export class ConnectionLeases {
  readonly #leases: KvMap<Lease>;

  constructor(kv: SyncKvStorage) {
    this.#leases = new KvMap(kv, "active:");
  }

  take(connectionId: string, now: number, rules: ConnectionRules, ipAddress: string) {
    this.#leases.set(connectionId, { ...rules, ipAddress, until: now + CONNECTION_LEASE_MS });
  }

  /**
   * The rules a connection opened under and its client's address, or null once its lease is gone
   * (then the connection is over, whatever its late report says).
   */
  held(connectionId: string): { rules: ConnectionRules; ipAddress: string | null } | null {
    const lease = this.#leases.get(connectionId);
    if (!lease) return null;
    return {
      rules: {
        mustConfirm: lease.mustConfirm,
        requireSecurityKey: lease.requireSecurityKey ?? false,
        requireUserVerification: lease.requireUserVerification ?? false,
      },
      ipAddress: lease.ipAddress ?? null,
    };
  }

  /** The bridge is asking the user to confirm these keys. */
  markConfirming(connectionId: string, keys: ProvenKeyView[]) {
    const lease = this.#leases.get(connectionId);
    if (lease) this.#leases.set(connectionId, { ...lease, confirming: keys });
  }

  /** The connections still running at `now`, and what each is asking the user to confirm. */
  inProgress(now: number): { confirming: ProvenKeyView[] | null }[] {
    return this.#leases
      .entries()
      .map(([, lease]) => lease)
      .filter((lease) => lease.until > now)
      .map((lease) => ({ confirming: lease.confirming ?? null }));
  }

  release(connectionId: string) {
    this.#leases.delete(connectionId);
  }

  /** Splits the held leases into running and lapsed, forgetting the lapsed ones. */
  sweep(now: number): { active: string[]; lapsed: string[] } {
    const active: string[] = [];
    const lapsed: string[] = [];
    for (const [id, lease] of this.#leases.entries()) {
      if (lease.until > now) active.push(id);
      else {
        lapsed.push(id);
        this.#leases.delete(id);
      }
    }
    return { active, lapsed };
  }

  /** Every connection in progress, forgotten at once (the session closed). */
  releaseAll(): string[] {
    const ids = this.#leases.entries().map(([id]) => id);
    for (const id of ids) this.#leases.delete(id);
    return ids;
  }
}
