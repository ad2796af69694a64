import type { OpenConnectionResponse } from "../../worker/src/protocol/messages.ts";
import { REFUSALS, UNAVAILABLE_MESSAGE } from "../../worker/src/protocol/terminal.ts";
import type { KeyRules } from "./key-decisions.ts";
import { type WorkerApi, WorkerUnavailableError } from "./worker-client.ts";

export type OpenedSession = Extract<OpenConnectionResponse, { accepted: true }>;

/** What the Worker said of a connection's first auth request. */
export type SessionOpening =
  | { accepted: true; identifier: string; session: OpenedSession; rules: KeyRules }
  | {
      accepted: false;
      identifier: string;
      /** The connection's outcome, as its log line names it. */
      outcome: string;
      /** The sentence the user reads. */
      message: string;
      /** What went wrong, when the Worker could not be reached. */
      error: string | null;
    };

const IDENTIFIER_PATTERN = /^[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * The connection's greeting: the username names the session, and the Worker says whether this
 * connection may prove keys for it, and by which rules. A username that cannot be an identifier
 * is refused without asking.
 */
export async function openSession(
  worker: WorkerApi,
  connection: { username: string; remoteAddress: string; clientVersion: string; maxKeys: number },
  requestId: string,
): Promise<SessionOpening> {
  const identifier = connection.username.trim().toLowerCase();
  const refused = (outcome: string, message: string, error: string | null = null) =>
    ({ accepted: false, identifier, outcome, message, error }) as const;
  if (!IDENTIFIER_PATTERN.test(identifier)) return refused("refused_unknown", REFUSALS.unknown);
  let opened: OpenConnectionResponse;
  try {
    opened = await worker.openConnection(
      {
        connection_identifier: identifier,
        ip_address: connection.remoteAddress,
        client_version: connection.clientVersion,
      },
      requestId,
    );
  } catch (error) {
    if (!(error instanceof WorkerUnavailableError)) throw error;
    return refused("unavailable", UNAVAILABLE_MESSAGE, error.message);
  }
  if (!opened.accepted) return refused(`refused_${opened.reason}`, REFUSALS[opened.reason]);
  const rules: KeyRules = {
    kind: opened.kind,
    expected: opened.expected_fingerprints,
    authorities: opened.authority_fingerprints,
    principal: opened.principal,
    requireSecurityKey: opened.require_security_key,
    requireUserVerification: opened.require_user_verification,
    multiKey: opened.multi_key,
    maxKeys: connection.maxKeys,
  };
  return { accepted: true, identifier, session: opened, rules };
}
