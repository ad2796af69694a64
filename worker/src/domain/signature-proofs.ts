import { Buffer } from "node:buffer";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../lib/errors.ts";
import { isConnectionIdentifier } from "../lib/ids.ts";
import type { FinishConnectionResponse } from "../protocol/messages.ts";
import {
  DetachedSignatureError,
  detachedSignatureVerifies,
  parseDetachedSignature,
  SIGNATURE_NAMESPACE,
} from "../protocol/sshsig.ts";
import { REFUSALS, refusedKeyLines, resultLines } from "../protocol/terminal.ts";
import { printableClientVersion } from "../protocol/terminal-text.ts";
import { connectionRefusal } from "./connection-rules.ts";

/** Requests to one session's signature URL, and from one address, per minute (SPEC §13). */
export const SIGNATURE_LIMITS = { perSession: 10, perAddress: 60 } as const;
/** The largest signature body: an RSA 16384-bit signature with its key stays well below. */
export const MAX_SIGNATURE_BYTES = 16 * 1024;

export interface SignatureClient {
  ipAddress: string;
  userAgent: string | undefined;
}

/** A recorded proof: what the user reads, and the same as data. */
export interface SignatureAnswer {
  lines: string[];
  result: FinishConnectionResponse;
}

const limiter = (env: Env, name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));

async function withinLimit(env: Env, name: string, limit: number) {
  const decision = await limiter(env, name).consume(limit);
  if (decision.allowed) return;
  throw new ApiError(
    429,
    `Too many signatures sent; try again in ${decision.retryAfter} seconds.`,
    undefined,
    { "Retry-After": String(decision.retryAfter) },
  );
}

/**
 * What `sign_command` sends: a detached signature over the session's challenge. It is verified
 * here, then recorded by the session's Durable Object like an SSH connection that proved the one
 * signing key. Anything that cannot count (malformed, other data or namespace, a closed session)
 * is an ApiError with the sentence to show, and is no attempt.
 */
export async function proveBySignature(
  ctx: { db: Database; env: Env },
  identifier: string,
  body: string,
  client: SignatureClient,
): Promise<SignatureAnswer> {
  const unknown = new ApiError(404, REFUSALS.unknown);
  if (!isConnectionIdentifier(identifier)) throw unknown;
  await withinLimit(ctx.env, `signatures:address:${client.ipAddress}`, SIGNATURE_LIMITS.perAddress);
  const [session] = await ctx.db
    .select()
    .from(sessions)
    .where(eq(sessions.connectionIdentifier, identifier))
    .limit(1);
  if (!session) throw unknown;
  await withinLimit(ctx.env, `signatures:session:${session.id}`, SIGNATURE_LIMITS.perSession);
  // A closed session is the news, whatever was sent (the Durable Object checks again).
  const closed = connectionRefusal(session, 0);
  if (closed) throw new ApiError(409, REFUSALS[closed]);
  const challenge = session.signatureChallenge;

  let signature: ReturnType<typeof parseDetachedSignature>;
  try {
    signature = parseDetachedSignature(body);
  } catch (error) {
    if (error instanceof DetachedSignatureError) throw new ApiError(400, error.message);
    throw error;
  }
  if (signature.namespace !== SIGNATURE_NAMESPACE) {
    throw new ApiError(
      400,
      `This signature is for the namespace "${signature.namespace.slice(0, 64)}"; keyproof's is made with -n ${SIGNATURE_NAMESPACE}.`,
    );
  }
  // Exactly the challenge, as `printf '%s'` gives it; `echo` adds a newline, which is forgiven.
  const signedChallenge = [challenge, `${challenge}\n`].some((message) =>
    detachedSignatureVerifies(signature, Buffer.from(message)),
  );
  if (!signedChallenge) {
    throw new ApiError(
      400,
      `The signature is not over this session's challenge, or not by the key it names. Sign exactly: printf '%s' '${challenge}' (a challenge is used up once a proof counts: take the command again).`,
    );
  }

  const outcome = await ctx.env.SESSIONS.get(
    ctx.env.SESSIONS.idFromName(session.id),
  ).proveBySignature(session.id, {
    key: signature.publicKey,
    authenticator: signature.signature.authenticator,
    challenge,
    ipAddress: client.ipAddress,
    clientVersion: printableClientVersion(client.userAgent ?? "unknown"),
  });
  if (!outcome.recorded) {
    if (outcome.reason === "challenge_used") {
      throw new ApiError(
        409,
        "Another proof used this challenge a moment ago; take the command again for a new one.",
      );
    }
    throw new ApiError(outcome.reason === "unknown" ? 404 : 409, REFUSALS[outcome.reason]);
  }
  const lines = [
    ...refusedKeyLines([outcome.offered]),
    ...resultLines(session.kind, outcome.response, [outcome.offered], "signature"),
    ...(session.sshMessage ? [session.sshMessage] : []),
  ];
  return { lines, result: outcome.response };
}
