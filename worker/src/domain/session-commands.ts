import type {
  ConnectionKeyRow,
  ConnectionRow,
  SessionAuthorityRow,
  SessionKeyRow,
  SessionRow,
} from "../db/sessions.ts";
import type { WebhookRow } from "../db/webhooks.ts";
import type { OfferedKey, UncountedReason } from "../protocol/key-outcomes.ts";
import type {
  FinishConnectionRequest,
  FinishConnectionResponse,
  SessionKind,
} from "../protocol/messages.ts";
import type { Outcome, SessionScope } from "./session-rules.ts";

/**
 * What the Worker asks of a session's Durable Object and what it answers (its RPC surface): the
 * object imports the rules from domain/, and domain/ these types, so the arrows point one way.
 */

/** The options PATCH may change. */
export type SessionPatch = Partial<
  Pick<
    SessionRow,
    | "externalId"
    | "multiKey"
    | "multiConnection"
    | "mustConfirm"
    | "sshBanner"
    | "sshMessage"
    | "matchAllKeys"
    | "maxAttempts"
    | "requireSecurityKey"
    | "requireUserVerification"
    | "expiredAt"
    | "returnUrl"
  >
>;

/** A new session, built and checked by domain/sessions.ts, for its object to hold. */
export interface NewSession {
  session: SessionRow;
  /** Its project's index shard (db/databases.ts): where the object pushes it. */
  shard: string;
  keys: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
  /** Its own webhooks: D1's rows, written with the session's first push. */
  webhooks: WebhookRow[];
}

/** Everything the single-session GET shows, but webhooks (D1's). */
export interface SessionState {
  session: SessionRow;
  keys: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
  connections: ConnectionRow[];
  connectionKeys: ConnectionKeyRow[];
  /**
   * The session's own webhooks as its object keeps them (a copy of D1's, renewed on every
   * change), so a single-session answer needs no D1; null when it has no copy yet.
   */
  webhooks: WebhookRow[] | null;
}

/**
 * A change the caller may want to read back from D1: the index has it, at least as of `bookmark`
 * (null when the index could not be reached; the object pushes again until it can).
 */
export interface Written<T> {
  value: T;
  bookmark: string | null;
}

export type ScopedOutcome<T> = Outcome<Written<T>>;

export interface ConnectionStart {
  ipAddress: string;
  clientVersion: string;
}

export interface ConnectionReport {
  keys: FinishConnectionRequest["keys"];
  keysOffered: number;
  refusals: UncountedReason[];
  confirmed: boolean | null;
  interrupted?: boolean;
}

/**
 * What a test helper does to a test session (domain/test-helpers.ts): a connection as
 * the bridge would report it — `keys` proven (or the session's `configured` keys), and the
 * user's answer, `false` declining — or its expiry, now.
 */
export type SimulatedStep =
  | { kind: "expire" }
  | {
      kind: "connect";
      start: ConnectionStart;
      keys: ConnectionReport["keys"] | "configured";
      keysOffered: number;
      refusals: UncountedReason[];
      confirmed: boolean;
    };

/** A detached signature sent to the signature URL, as the route received it. */
export interface SignatureSubmission {
  armored: string;
  ipAddress: string;
  /** The HTTP client, as the connection's `client_version`. */
  clientVersion: string;
}

/** How a signature submission ended: recorded, or refused with the sentence to answer. */
export type SignatureOutcome =
  | {
      recorded: true;
      kind: SessionKind;
      response: FinishConnectionResponse;
      offered: OfferedKey;
      sshMessage: string | null;
      /** Where the user continues (the session's `return_url`, with the result), once done. */
      continueUrl: string | null;
    }
  | { recorded: false; status: 400 | 404 | 409 | 429; detail: string; retryAfter?: number };

export type { SessionScope };
