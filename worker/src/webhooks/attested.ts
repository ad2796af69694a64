import { decodeJwt } from "jose";
import { shardDb } from "../db/databases.ts";
import type { EventRow } from "../db/webhooks.ts";
import { signAttestation, signEnding } from "../domain/attestations.ts";
import { readManyFromIndex } from "../domain/indexed-session.ts";
import type { SessionState } from "../domain/session-commands.ts";
import { isOpen } from "../domain/session-rules.ts";
import { withKeys } from "../domain/stored-events.ts";
import type { Env } from "../env.ts";

/**
 * Events as deliveries send them: their keys expanded (stored-events.ts), each ending signed; a
 * run's events at once, in two reads (their keys, the sessions that ended) whatever their number.
 */
export async function deliveredEvents(env: Env, shard: string, events: EventRow[]) {
  const ending = events.filter((event) => event.type === "status_changed" && event.sessionId);
  const [expanded, states] = await Promise.all([
    withKeys(shardDb(env, shard), events),
    readManyFromIndex(
      env,
      shard,
      ending.map((event) => event.sessionId ?? ""),
    ),
  ]);
  return Promise.all(expanded.map((event) => withAttestation(env, event, states)));
}

/** The ending token is sent while it has this long left; after that, a fresh one is signed. */
const KEPT_TOKEN_MARGIN_SECONDS = 60;

/**
 * The `status_changed` event that ends a session carries its result, signed, from the
 * session as D1 has it: the attestation of its end, the token the return redirect carries too
 * (signEnding: the same token whoever signs it); once that has expired, one signed as the attempt
 * is sent — so a retry an hour later still carries a valid token. A redacted session carries
 * none. The stored event keeps no copy: it was the largest part of a session's footprint in D1
 * (docs/benchmarks.md §9).
 */
async function withAttestation(
  env: Env,
  event: EventRow,
  states: Map<string, SessionState>,
): Promise<EventRow> {
  if (event.type !== "status_changed" || event.sessionId === null) return event;
  const state = states.get(event.sessionId);
  const session = state?.session;
  if (!state || !session || isOpen(session) || event.payload.status !== session.status)
    return event;
  if (session.redactedAt !== null)
    return { ...event, payload: { ...event.payload, attestation: null } };
  const ending = (await signEnding(env, state))?.token ?? null;
  const fresh = ending !== null && validFor(ending) > KEPT_TOKEN_MARGIN_SECONDS;
  const token = fresh ? ending : ((await signAttestation(env, state))?.token ?? null);
  return { ...event, payload: { ...event.payload, attestation: token } };
}

/** Seconds until a token expires (negative once it has). */
function validFor(token: string): number {
  try {
    return (decodeJwt(token).exp ?? 0) - Date.now() / 1000;
  } catch {
    return -1;
  }
}
