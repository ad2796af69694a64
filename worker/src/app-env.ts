import type { AccountRow } from "./db/directory.ts";
import type { AuthenticatedKey } from "./domain/api-keys.ts";
import type { ProjectContext } from "./domain/context.ts";
import type { OwnWrites } from "./domain/own-writes.ts";
import type { MemberRole } from "./domain/projects.ts";
import type { IdempotentRequest } from "./domain/session-address.ts";
import type { Env } from "./env.ts";
import type { BridgeNonce } from "./session-object/seen-nonces.ts";

/** Hono's view of the Worker: its bindings and what middleware leaves for handlers. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** The API key that authenticated the request (API only). */
    apiKey: AuthenticatedKey;
    /** The project the request acts for: the API key's, or the web page's guarded project. */
    project: ProjectContext;
    /** The signed-in web account (web app only). */
    account: AccountRow;
    /** The project of a web page under `/projects/:project_id`, and the account's role in it. */
    member: {
      project: { id: string; name: string; retentionDays: number; requireSecondFactor: boolean };
      role: MemberRole;
    };
    /** This browser's CSRF token, echoed in every form. */
    csrf: string;
    /** The nonce of a signed bridge call (internal only), for its session's replay guard. */
    bridgeNonce: BridgeNonce;
    /** The request's D1 session (API only): reads near the caller, at least as fresh as asked. */
    d1: D1DatabaseSession;
    /** The newest D1 bookmark this request saw or caused (API only), for `keyproof-bookmark`. */
    bookmark: string | null;
    /** The request's Idempotency-Key as admitted: a create's session id is derived from it. */
    idempotency?: IdempotentRequest;
    /** Sessions this request (or the bookmark it sent) changed whose push D1 has not taken. */
    pendingSessions: string[];
    /**
     * The sessions the caller's bookmark names as not yet in D1 (API only), and how a read that
     * shows them from their objects says so: D1 is then read without waiting for their pushes.
     */
    ownWrites: OwnWrites;
  };
}
