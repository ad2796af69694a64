import type { Database } from "../db/client.ts";
import type { EventRow } from "../db/webhooks.ts";
import { signAttestation } from "../domain/attestations.ts";
import { readFromIndex } from "../domain/indexed-session.ts";
import { isOpen } from "../domain/session-rules.ts";
import { withKeys } from "../domain/stored-events.ts";
import type { Env } from "../env.ts";

/** The event as a delivery sends it: its keys expanded (stored-events.ts), its ending signed. */
export async function deliveredEvent(env: Env, db: Database, event: EventRow): Promise<EventRow> {
  const [expanded = event] = await withKeys(db, [event]);
  return withAttestation(env, expanded);
}

/**
 * The `status_changed` event that ends a session carries its result, signed (SPEC §16) — signed
 * as each attempt is sent, from the session as D1 has it: a retry an hour later still carries a
 * token valid for 10 minutes, a redacted session carries none, and the stored event keeps no
 * copy (it is the largest part of a session's footprint in D1, docs/benchmarks.md §9).
 */
async function withAttestation(env: Env, event: EventRow): Promise<EventRow> {
  if (event.type !== "status_changed" || event.sessionId === null) return event;
  const state = await readFromIndex(env, { sessionId: event.sessionId });
  const session = state?.session;
  if (!state || !session || isOpen(session) || event.payload.status !== session.status)
    return event;
  const signed = session.redactedAt === null ? await signAttestation(env, state) : null;
  return { ...event, payload: { ...event.payload, attestation: signed?.token ?? null } };
}
