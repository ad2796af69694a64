import { budgetOf } from "../../worker/src/protocol/ip-addresses.ts";
import { CONNECTION_LIFETIME_MS } from "../../worker/src/protocol/messages.ts";

/** Every operational limit of the bridge, with its default; main.ts lets the environment override some. */
export const BRIDGE_DEFAULTS = {
  /** Time from TCP accept to a finished handshake and authentication. */
  authDeadlineMs: 30_000,
  /** Time the user has to answer the must_confirm prompt. */
  confirmDeadlineMs: 120_000,
  /** After authentication, the time a client has to open its session channel (`ssh -N` never does). */
  sessionChannelDeadlineMs: 10_000,
  /**
   * From TCP accept, the longest any connection lasts: authentication, the confirmation prompt
   * and a margin. The Worker holds a connection's place in its session as long (180 s).
   */
  connectionLifetimeMs: CONNECTION_LIFETIME_MS,
  /** Public key offers per connection; later offers are refused. */
  maxKeyOffers: 32,
  /** Signatures verified per connection (an honest client signs once per key); then it is cut off. */
  maxSignatureChecks: 32,
  /** Authentication requests per connection (32 keys take about 66); then it is cut off. */
  maxAuthRequests: 100,
  maxConnections: 2000,
  connectionsPerAddressPerMinute: 120,
  /** How long a PROXY protocol header may take to arrive. */
  proxyHeaderDeadlineMs: 5_000,
  /**
   * After SIGTERM, how long connections in progress may finish: a connection lives at most
   * `connectionLifetimeMs` (the 120 s confirmation prompt included), so by then every one has.
   */
  drainMs: 180_000,
  /** Health, readiness and metrics (HTTP_ADDRESS). */
  httpAddress: "127.0.0.1:9464",
  /** How often the bridge asks the Worker whether it answers, when /readyz has nothing newer. */
  workerProbeIntervalMs: 5_000,
  /** How long one call to the Worker may take before the service counts as unavailable. */
  workerTimeoutMs: 10_000,
} as const;

/** What one connection may do and how long it may take (BRIDGE_DEFAULTS has their values). */
export interface ConnectionLimits {
  authDeadlineMs: number;
  /** After authentication, the time a client has to open its session channel. */
  sessionChannelDeadlineMs: number;
  /** From TCP accept: the longest a connection may last, whatever it is doing. */
  connectionLifetimeMs: number;
  confirmDeadlineMs: number;
  maxKeyOffers: number;
  /** Signatures verified per connection: each costs CPU, so a client cannot ask without end. */
  maxSignatureChecks: number;
  /** Authentication requests per connection, of any method. */
  maxAuthRequests: number;
}

/** Sliding one-minute count of new connections per client (budgetOf: an IPv6 client is its /64). */
export class AddressRateLimiter {
  readonly #limit: number;
  readonly #hits = new Map<string, number[]>();

  constructor(limitPerMinute: number) {
    this.#limit = limitPerMinute;
  }

  allow(address: string, now = Date.now()): boolean {
    const budget = budgetOf(address);
    const recent = (this.#hits.get(budget) ?? []).filter((at) => at > now - 60_000);
    if (recent.length >= this.#limit) {
      this.#hits.set(budget, recent);
      return false;
    }
    recent.push(now);
    this.#hits.set(budget, recent);
    return true;
  }

  /** Drops addresses with no recent connections, so the map stays small. */
  sweep(now = Date.now()) {
    for (const [address, hits] of this.#hits) {
      if (!hits.some((at) => at > now - 60_000)) this.#hits.delete(address);
    }
  }
}
