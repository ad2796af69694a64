import type { SessionRow } from "../db/sessions.ts";
import type { WebhookRow } from "../db/webhooks.ts";
import { forgetIdempotentAnswers } from "../idempotency/idempotency-object.ts";
import { ApiError, badRequest, notFound } from "../lib/errors.ts";
import { newSignatureChallenge } from "../lib/ids.ts";
import { IndexUnavailableError } from "../lib/unavailable.ts";
import { allowsPrivateNetworks } from "../lib/url-safety.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { LIMITS } from "../schemas/limits.ts";
import type { CertificateAuthorityInput, ConfiguredKeyInput } from "../schemas/public-keys.ts";
import { returnUrlProblem } from "../schemas/return-url.ts";
import type { SessionOptionsInput } from "../schemas/sessions.ts";
import type { WebhookCreateInput } from "../schemas/webhooks.ts";
import { forgetSessionInSenders } from "../webhooks/forget-session.ts";
import type { ProjectContext } from "./context.ts";
import { keysGivenInAdvance } from "./given-keys.ts";
import {
  type IdempotentRequest,
  idempotentSessionIds,
  newSessionIds,
  sessionObject,
} from "./session-address.ts";
import type { SessionPatch, SessionState, Written } from "./session-commands.ts";
import type { Outcome, SessionScope } from "./session-rules.ts";

export interface CreateSessionInput extends SessionOptionsInput {
  keys?: ConfiguredKeyInput[];
  keys_from?: string[] | undefined;
  certificate_authorities?: CertificateAuthorityInput[];
  principal?: string | undefined;
  webhooks?: WebhookCreateInput[] | undefined;
}

function unwrap<T>(outcome: Outcome<T>, sessionId: string): T {
  if (outcome.ok) return outcome.value;
  const value = outcome.location === "path.session_id" ? sessionId : undefined;
  const errors = outcome.location
    ? [{ location: outcome.location, message: outcome.detail, value }]
    : undefined;
  throw new ApiError(outcome.status, outcome.detail, errors);
}

/** `timeout` or `expired_at` (never both; the schema refuses that) as an absolute time. */
export function resolveExpiry(input: SessionOptionsInput, now: Date): string | undefined {
  if (input.timeout !== undefined)
    return new Date(now.getTime() + input.timeout * 1000).toISOString();
  if (input.expired_at === undefined) return undefined;
  const at = Date.parse(input.expired_at);
  if (at <= now.getTime())
    throw badRequest("body.expired_at", "expired_at must be in the future", input.expired_at);
  if (at > now.getTime() + LIMITS.maxTimeoutSeconds * 1000) {
    throw badRequest(
      "body.expired_at",
      "expired_at must be at most 30 days ahead",
      input.expired_at,
    );
  }
  return new Date(at).toISOString();
}

/**
 * A session's name is another's once in 2^80: such a new session simply takes another
 * identifier, and a few tries make a collision that never happens no failure either.
 */
const MAX_NAME_ATTEMPTS = 3;

/** A new session with its configured keys and its own webhooks, held by its new object. */
export async function createSession(
  ctx: ProjectContext,
  kind: SessionKind,
  input: CreateSessionInput,
  webhooks: WebhookRow[] = [],
  idempotency?: IdempotentRequest,
) {
  const now = ctx.now.toISOString();
  const expiredAt =
    resolveExpiry(input, ctx.now) ??
    new Date(ctx.now.getTime() + LIMITS.defaultTimeoutSeconds * 1000).toISOString();
  const {
    rows: givenTo,
    skipped,
    skippedCount,
  } = kind === "verify"
    ? await keysGivenInAdvance(ctx, input, now)
    : { rows: () => ({ keys: [], authorities: [] }), skipped: [], skippedCount: 0 };
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
    // With an Idempotency-Key, the first try's name is the key's: a run again finds its session.
    const { id, identifier } =
      idempotency && attempt === 0
        ? idempotentSessionIds(
            kind,
            ctx.env.BRIDGE_SECRET ?? "",
            ctx.projectId,
            ctx.shard,
            idempotency,
          )
        : newSessionIds(kind, ctx.shard, ctx.now.getTime());
    const session: SessionRow = {
      id,
      projectId: ctx.projectId,
      kind,
      connectionIdentifier: identifier,
      status: "pending",
      externalId: input.external_id ?? null,
      multiKey: input.multi_key ?? false,
      multiConnection: input.multi_connection ?? false,
      mustConfirm: input.must_confirm ?? false,
      sshBanner: input.ssh_banner ?? null,
      sshMessage: input.ssh_message ?? null,
      matchAllKeys: input.match_all_keys ?? false,
      maxAttempts: input.max_attempts ?? 1,
      failedAttempts: 0,
      requireSecurityKey: input.require_security_key ?? false,
      requireUserVerification: input.require_user_verification ?? false,
      principal: input.principal ?? null,
      certificateVerifiedAt: null,
      signatureChallenge: newSignatureChallenge(),
      returnUrl: checkedReturnUrl(ctx, input.return_url) ?? null,
      expiredAt,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      verifiedAt: null,
      redactedAt: null,
      livemode: ctx.livemode,
      eventIds: [],
      version: 0,
    };
    const { keys, authorities } = givenTo(id);
    const hooks = webhooks.map((hook) => ({ ...hook, sessionId: id }));
    const created = await sessionObject(ctx.env, { sessionId: id }).create({
      session,
      shard: ctx.shard,
      keys,
      authorities,
      webhooks: hooks,
    });
    if (created === "taken") continue;
    // The same request ran before and died after its object held the session: that session.
    const held = created.value;
    if (held)
      return {
        session: held.session,
        keys: held.keys,
        authorities: held.authorities,
        webhooks: held.webhooks ?? [],
        skipped,
        skippedCount,
        bookmark: created.bookmark,
      };
    return {
      session,
      keys,
      authorities,
      webhooks: hooks,
      skipped,
      skippedCount,
      bookmark: created.bookmark,
    };
  }
  throw new ApiError(503, "No new session could be made just now; try again.");
}

/** `return_url` as given, once it is one this Worker may send browsers to; a 400 otherwise. */
function checkedReturnUrl(ctx: ProjectContext, url: string | null | undefined) {
  if (url === undefined || url === null) return url;
  const problem = returnUrlProblem(url, allowsPrivateNetworks(ctx.env.ENVIRONMENT));
  if (problem) throw badRequest("body.return_url", problem, url);
  return url;
}

function toPatch(
  ctx: ProjectContext,
  input: SessionOptionsInput,
  expiredAt: string | undefined,
): SessionPatch {
  const patch: SessionPatch = {};
  if (input.return_url !== undefined) patch.returnUrl = checkedReturnUrl(ctx, input.return_url);
  if (input.external_id !== undefined) patch.externalId = input.external_id;
  if (input.multi_key !== undefined) patch.multiKey = input.multi_key;
  if (input.multi_connection !== undefined) patch.multiConnection = input.multi_connection;
  if (input.must_confirm !== undefined) patch.mustConfirm = input.must_confirm;
  if (input.ssh_banner !== undefined) patch.sshBanner = input.ssh_banner;
  if (input.ssh_message !== undefined) patch.sshMessage = input.ssh_message;
  if (input.match_all_keys !== undefined) patch.matchAllKeys = input.match_all_keys;
  if (input.max_attempts !== undefined) patch.maxAttempts = input.max_attempts;
  if (input.require_security_key !== undefined)
    patch.requireSecurityKey = input.require_security_key;
  if (input.require_user_verification !== undefined)
    patch.requireUserVerification = input.require_user_verification;
  if (expiredAt !== undefined) patch.expiredAt = expiredAt;
  return patch;
}

const SESSION_ID_PATTERN = {
  collect: /^cs_[0-9a-hjkmnp-tv-z]{26}$/,
  verify: /^vs_[0-9a-hjkmnp-tv-z]{26}$/,
};

/** Ids that cannot exist are 404 here, before they reach (and create) a Durable Object. */
function scopeOf(ctx: ProjectContext, kind: SessionKind, sessionId: string): SessionScope {
  if (!SESSION_ID_PATTERN[kind].test(sessionId))
    throw notFound("Session", "path.session_id", sessionId);
  return { sessionId, projectId: ctx.projectId, kind, livemode: ctx.livemode };
}

/** The session's object, for a caller allowed to name it. */
/** The kind a session id names (its prefix), or null for an id of no session. */
export function kindOfSession(sessionId: string): SessionKind | null {
  if (sessionId.startsWith("cs_")) return "collect";
  if (sessionId.startsWith("vs_")) return "verify";
  return null;
}

function objectFor(ctx: ProjectContext, kind: SessionKind, sessionId: string) {
  const scope = scopeOf(ctx, kind, sessionId);
  // An object that retired reads its session back for the caller's project and mode only.
  const ref = { sessionId, shard: ctx.shard, projectId: ctx.projectId, livemode: ctx.livemode };
  return { scope, ref, object: sessionObject(ctx.env, ref) };
}

/** The session as it is now, answered by its object (always current), or a 404. */
export async function sessionState(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
): Promise<SessionState> {
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  const state = await object.detail(ref, scope);
  if (!state) throw notFound("Session", "path.session_id", sessionId);
  return state;
}

/** The caller's session as its object has it now, and D1's bookmark once D1 has all of it. */
export async function sessionReadView(ctx: ProjectContext, sessionId: string) {
  const kind = kindOfSession(sessionId);
  if (!kind) return { state: null, inD1: null };
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  return object.readView(ref, scope);
}

/** The caller's session and its events D1 has not acknowledged, from its object; null if none. */
export async function unacknowledgedEventsOf(ctx: ProjectContext, sessionId: string) {
  const kind = kindOfSession(sessionId);
  if (!kind) return null;
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  return object.unacknowledgedEvents(ref, scope);
}

/** Waits until D1 has every change of the caller's session so far; a 503 while it cannot. */
export async function sessionIndexed(ctx: ProjectContext, kind: SessionKind, sessionId: string) {
  const { object } = objectFor(ctx, kind, sessionId);
  if ((await object.indexed()) === null)
    throw new IndexUnavailableError("the session's changes could not reach D1 yet");
}

export async function updateSession(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
  input: SessionOptionsInput,
): Promise<Written<SessionState>> {
  const patch = toPatch(ctx, input, resolveExpiry(input, ctx.now));
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  return unwrap(await object.update(ref, scope, patch, ctx.now.toISOString()), sessionId);
}

export async function completeSession(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
): Promise<Written<SessionState>> {
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  return unwrap(await object.complete(ref, scope, ctx.now.toISOString()), sessionId);
}

export async function deleteSession(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
): Promise<Written<null>> {
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  const written = unwrap(await object.remove(ref, scope), sessionId);
  await forgetIdempotentAnswers(ctx.env, ctx.projectId, sessionId, "deleted");
  // After the answer nothing more about the session is sent: its webhooks' senders drop it.
  await forgetSessionInSenders(ctx, sessionId);
  return written;
}

/** `POST .../redact/`: a closed session's personal data erased, its outline kept. */
export async function redactSession(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
): Promise<Written<SessionState>> {
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  const written = unwrap(await object.redact(ref, scope, ctx.now.toISOString()), sessionId);
  await forgetIdempotentAnswers(ctx.env, ctx.projectId, sessionId, "redacted");
  return written;
}

/** Runs `call` on the caller's session's object: 404 for a session not the caller's. */
export async function runOnSession<T>(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
  call: (
    object: ReturnType<typeof sessionObject>,
    ref: { sessionId: string; shard: string; projectId: string; livemode: boolean },
    scope: SessionScope,
  ) => Promise<Outcome<Written<T>>>,
): Promise<Written<T>> {
  const { scope, ref, object } = objectFor(ctx, kind, sessionId);
  return unwrap(await call(object, ref, scope), sessionId);
}
