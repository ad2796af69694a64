import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { CONNECTION_RESULTS, REFUSAL_REASONS } from "../../worker/src/protocol/messages.ts";

/**
 * The bridge's Prometheus metrics (docs/operations.md says what each is for and what alert it
 * deserves). Every label value comes from a fixed set below: never an identifier, address or key,
 * so the series stay few whatever clients send.
 */

/** How a connection ended, as its log line's `outcome` says; anything else counts as `other`. */
export const CONNECTION_OUTCOMES = [
  ...CONNECTION_RESULTS,
  // The Worker refused the connection: its session is unknown, busy, or over.
  ...REFUSAL_REASONS.map((reason) => `refused_${reason}` as const),
  "disconnected",
  "unavailable",
  "error",
  "auth_timeout",
  "no_session_channel",
  "lifetime_exceeded",
  "too_many_auth_requests",
  "too_many_signatures",
  "over_capacity",
  "rate_limited",
  "invalid_proxy_header",
  "untrusted_proxy_header",
  "no_data",
  "no_handshake",
  "other",
] as const;

/**
 * What became of a key a client offered: proven (a valid signature, and it counts), unexpected
 * (not one the session expects), refused (unusable, or signed without the presence asked for),
 * or a signature that did not verify.
 */
export const KEY_PROOF_RESULTS = ["proven", "unexpected", "refused", "bad_signature"] as const;
export type KeyProofResult = (typeof KEY_PROOF_RESULTS)[number];

/** The Worker endpoints the bridge calls. */
export const WORKER_ENDPOINTS = ["open", "finish", "progress", "status", "health"] as const;
export type WorkerEndpoint = (typeof WORKER_ENDPOINTS)[number];

export class BridgeMetrics {
  readonly registry = new Registry();
  readonly #connections = new Counter({
    name: "keyproof_bridge_connections_total",
    help: "Connections closed, by how they ended",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly #active = new Gauge({
    name: "keyproof_bridge_connections_active",
    help: "TCP connections open now",
    registers: [this.registry],
  });
  readonly #keyProofs = new Counter({
    name: "keyproof_bridge_key_proofs_total",
    help: "Keys offered, by what became of them: proven, unexpected, refused, bad_signature",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });
  readonly #loginDuration = new Histogram({
    name: "keyproof_bridge_login_duration_seconds",
    help: "From TCP accept to the result shown to the user (a confirmation prompt included)",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 180],
    registers: [this.registry],
  });
  readonly #workerDuration = new Histogram({
    name: "keyproof_bridge_worker_request_duration_seconds",
    help: "Calls to the Worker's internal API, by endpoint, failed ones included",
    labelNames: ["endpoint"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly #workerErrors = new Counter({
    name: "keyproof_bridge_worker_errors_total",
    help: "Calls to the Worker that failed: unreachable, timed out, 5xx or 4xx, or outside the contract",
    labelNames: ["endpoint"] as const,
    registers: [this.registry],
  });

  /**
   * `withProcessMetrics`: Node's default metrics too (memory, CPU, event loop lag, handles);
   * `bridgeId`: a `bridge` label on every series, so a fleet's metrics say which bridge.
   */
  constructor(options: { withProcessMetrics?: boolean; bridgeId?: string } = {}) {
    if (options.bridgeId) this.registry.setDefaultLabels({ bridge: options.bridgeId });
    if (options.withProcessMetrics) collectDefaultMetrics({ register: this.registry });
    // Every labelled series exists from the start at 0, so rates and alerts see it at once.
    for (const outcome of CONNECTION_OUTCOMES) this.#connections.inc({ outcome }, 0);
    for (const result of KEY_PROOF_RESULTS) this.#keyProofs.inc({ result }, 0);
    for (const endpoint of WORKER_ENDPOINTS) this.#workerErrors.inc({ endpoint }, 0);
  }

  socketOpened() {
    this.#active.inc();
  }

  socketClosed() {
    this.#active.dec();
  }

  /** A connection ended; `outcome` is its log line's. */
  connectionEnded(outcome: string) {
    const known = (CONNECTION_OUTCOMES as readonly string[]).includes(outcome);
    this.#connections.inc({ outcome: known ? outcome : "other" });
  }

  keyProof(result: KeyProofResult) {
    this.#keyProofs.inc({ result });
  }

  loginShown(acceptedAt: number) {
    this.#loginDuration.observe((Date.now() - acceptedAt) / 1000);
  }

  workerCall(endpoint: WorkerEndpoint, seconds: number, failed: boolean) {
    this.#workerDuration.observe({ endpoint }, seconds);
    if (failed) this.#workerErrors.inc({ endpoint });
  }

  /** The Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
