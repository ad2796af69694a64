import { uncountedReasons } from "../../worker/src/protocol/key-outcomes.ts";
import type {
  FinishConnectionRequest,
  FinishConnectionResponse,
} from "../../worker/src/protocol/messages.ts";
import type { KeyWalk } from "./key-walk.ts";
import type { OpenedSession } from "./session-opening.ts";
import { type WorkerApi, WorkerUnavailableError } from "./worker-client.ts";

/**
 * A connection's report is sent up to this many times while the Worker does not answer, waiting
 * FINISH_RETRY_MS longer before each (1 + 2 + 3 + 4 s: a Worker restarting is back within that).
 */
const FINISH_REPORT_ATTEMPTS = 5;
const FINISH_RETRY_MS = 1_000;

/**
 * What the Worker hears when a connection ends: the keys proven, how many were offered and why
 * the others did not count, the user's answer (when the session asked for one), and whether the
 * bridge cut it short.
 */
export function finishRequest(
  session: OpenedSession,
  identifier: string | null,
  keys: KeyWalk,
  ending: { confirmed: boolean | null; interrupted: boolean },
): FinishConnectionRequest {
  return {
    session_id: session.session_id,
    connection_identifier: identifier ?? undefined,
    keys: keys.proven.map(({ blob, authenticator }) => ({
      key: blob.toString("base64"),
      security_key: authenticator,
    })),
    keys_offered: keys.offered.length,
    refusals: uncountedReasons(keys.offered),
    confirmed: session.must_confirm ? ending.confirmed === true : null,
    interrupted: ending.interrupted,
  };
}

/**
 * The connection's report, sent again while the Worker cannot be heard (it restarts under a
 * deploy or a crash): the Worker answers a report it already recorded with what it recorded then,
 * so a second sending records nothing twice and the user learns what really happened. Each
 * sending gets its own request id; `onRetry` hears why one is sent again.
 */
export async function reportFinish(
  worker: WorkerApi,
  connectionId: string,
  report: FinishConnectionRequest,
  nextRequestId: () => string,
  onRetry: (error: Error) => void,
): Promise<FinishConnectionResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await worker.finishConnection(connectionId, report, nextRequestId());
    } catch (error) {
      const again =
        error instanceof WorkerUnavailableError &&
        error.serviceDown &&
        error.status !== 401 &&
        attempt < FINISH_REPORT_ATTEMPTS;
      if (!again) throw error;
      onRetry(error);
      await new Promise((resolve) => setTimeout(resolve, FINISH_RETRY_MS * attempt));
    }
  }
}
