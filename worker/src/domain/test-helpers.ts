import { badRequest, notFound } from "../lib/errors.ts";
import { PublicKeyError } from "../protocol/key-material.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { parsePublicKey } from "../protocol/public-keys.ts";
import type { SimulateRequest } from "../schemas/test-helpers.ts";
import type { ProjectContext } from "./context.ts";
import type { SessionState, SimulatedStep, Written } from "./session-commands.ts";
import { runOnSession } from "./sessions.ts";
import { simulatedKeyBlob, simulatedTouch } from "./simulated-keys.ts";

/**
 * Test helpers: a test key drives a test session to each outcome a real user could
 * bring about, through the session object's own transitions — the same events, webhooks,
 * attestation, proof page and return flow as a real `ssh`. Nothing here decides an outcome.
 */

/** The connection's client software, as the session and its events show it. */
export const SIMULATED_CLIENT = "keyproof-test-helper";

/** The step the object takes for an action, with any key it needs made or read. */
async function stepOf(
  kind: SessionKind,
  input: SimulateRequest,
  ipAddress: string,
): Promise<SimulatedStep> {
  if (input.action === "expire") return { kind: "expire" };
  const connect = {
    kind: "connect" as const,
    start: { ipAddress, clientVersion: SIMULATED_CLIENT },
    keysOffered: 0,
    refusals: [],
    confirmed: input.action !== "decline",
  };
  if (input.action === "fail_attempt")
    return kind === "verify"
      ? { ...connect, keys: [], keysOffered: 1, refusals: ["not_expected"] }
      : { ...connect, keys: [] };
  if (input.action === "prove" && input.public_key !== undefined) {
    try {
      const key = parsePublicKey(input.public_key);
      const blob = key.publicKeySsh.split(" ")[1] ?? "";
      return {
        ...connect,
        keys: [{ key: blob, security_key: key.securityKey ? simulatedTouch() : null }],
      };
    } catch (error) {
      if (!(error instanceof PublicKeyError)) throw error;
      throw badRequest("body.public_key", error.message);
    }
  }
  const type = input.action === "prove" ? input.key_type : undefined;
  if (type === undefined && kind === "verify") return { ...connect, keys: "configured" };
  const chosen = type ?? "ssh-ed25519";
  const key = await simulatedKeyBlob(chosen);
  const touch = chosen.startsWith("sk-") ? simulatedTouch() : null;
  return { ...connect, keys: [{ key, security_key: touch }] };
}

/** Drives a test session; a live key never gets here (the route answers it as unknown). */
export async function simulate(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
  input: SimulateRequest,
  ipAddress: string,
): Promise<Written<SessionState>> {
  if (ctx.livemode) throw notFound("Session", "path.session_id", sessionId);
  const step = await stepOf(kind, input, ipAddress);
  return runOnSession(ctx, kind, sessionId, (object, ref, scope) =>
    object.simulate(ref, scope, step),
  );
}
