import type { RateLimiter } from "./rate-limiter/rate-limiter-object.ts";
import type { SessionObject } from "./session-object/session-object.ts";

/** The Worker's bindings, as wrangler.toml declares them. */
export interface Env {
  DB: D1Database;
  SESSIONS: DurableObjectNamespace<SessionObject>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  WEBHOOK_QUEUE: Queue;
  SSH_HOST: string;
  SSH_PORT: string;
  RATE_LIMIT_PER_MINUTE: string;
  ENVIRONMENT: string;
  /** How long a webhook receiver has to answer (default 15). */
  WEBHOOK_TIMEOUT_SECONDS?: string;
  /** How long past due an invocation waits before the sweeper sends it again (default 60). */
  WEBHOOK_SWEEP_GRACE_SECONDS?: string;
  /** Shared with the bridge; BRIDGE_SECRET_PREVIOUS is still accepted during a rotation. */
  BRIDGE_SECRET?: string;
  BRIDGE_SECRET_PREVIOUS?: string;
}

type WorkerEnv = Env;

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
  }
}
