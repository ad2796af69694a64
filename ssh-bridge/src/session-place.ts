import type { ProvenKeyView } from "../../worker/src/protocol/key-outcomes.ts";
import { LEASE_RENEWAL_MS } from "../../worker/src/protocol/messages.ts";
import type { OpenedSession } from "./session-opening.ts";
import type { WorkerApi } from "./worker-client.ts";

/** Checked a little after the session's expiry, so the Worker's alarm has run. */
const EXPIRY_CHECK_MARGIN_MS = 500;
/** Node timers cap at ~24.8 days; a later expiry is simply checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a connection lends its session's place: its timers, its request ids, its ears. */
export interface PlaceHolder {
  worker: WorkerApi;
  session: OpenedSession;
  identifier: string;
  /** Runs `run` after `ms` on the connection's own timers (cleared when it closes). */
  timer: (ms: number, run: () => void) => void;
  nextRequestId: () => string;
  /** Whether the connection has reported its end: then the place is no longer kept. */
  finished: () => boolean;
  /** A call that failed, for the connection's log line. */
  failed: (error: Error) => void;
  /** The session's expiry has passed while the connection lasts. */
  expired: () => void;
}

/**
 * A connection's place in its session while it lasts. The Worker holds it by a short lease,
 * renewed every LEASE_RENEWAL_MS, so a bridge that dies frees it within a minute; and once the
 * session's expiry has passed, the Worker is asked whether it has really ended.
 */
export class SessionPlace {
  readonly #holder: PlaceHolder;

  constructor(holder: PlaceHolder) {
    this.#holder = holder;
    this.#renewLease();
    this.#checkExpiryAt(holder.session.expired_at);
  }

  /** Tells the Worker the connection lives (and which keys await the user's answer), unwaited. */
  tellProgress(confirming?: ProvenKeyView[]) {
    const { worker, session, identifier } = this.#holder;
    const progress = {
      session_id: session.session_id,
      connection_identifier: identifier,
      ...(confirming ? { confirming } : {}),
    };
    worker
      .connectionProgress(session.connection_id, progress, this.#holder.nextRequestId())
      .catch(this.#holder.failed);
  }

  #renewLease() {
    this.#holder.timer(LEASE_RENEWAL_MS, () => {
      if (this.#holder.finished()) return;
      this.tellProgress();
      this.#renewLease();
    });
  }

  #checkExpiryAt(expiredAt: string) {
    const delay = Math.max(0, Date.parse(expiredAt) - Date.now()) + EXPIRY_CHECK_MARGIN_MS;
    this.#holder.timer(Math.min(delay, MAX_TIMER_MS), () => this.#checkExpiry());
  }

  async #checkExpiry() {
    const { worker, session, identifier } = this.#holder;
    if (this.#holder.finished()) return;
    try {
      const status = await worker.sessionStatus(
        session.session_id,
        identifier,
        this.#holder.nextRequestId(),
      );
      if (status.open) return this.#checkExpiryAt(status.expired_at);
    } catch (error) {
      // If the Worker cannot say, the session's own expiry stands.
      this.#holder.failed(error as Error);
    }
    this.#holder.expired();
  }
}
