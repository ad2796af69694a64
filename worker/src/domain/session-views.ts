import { and, desc, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client.ts";
import { countForPage, listEnvelope } from "../db/paginate.ts";
import {
  type ConnectionKeyRow,
  type ConnectionRow,
  type SessionAuthorityRow,
  type SessionKeyRow,
  type SessionRow,
  sessionAuthorities,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import { type WebhookRow, webhooks } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { SESSION_KINDS, type SessionKind, type SessionStatus } from "../protocol/messages.ts";
import { SIGNATURE_NAMESPACE } from "../protocol/sshsig.ts";
import type { CertificateAuthority, CollectedKey, ConfiguredKey } from "../schemas/public-keys.ts";
import type {
  CollectSession,
  CollectSessionDetail,
  Connection,
  VerifySession,
  VerifySessionDetail,
} from "../schemas/sessions.ts";
import type { ProjectContext } from "./context.ts";
import { publicKeyView } from "./key-view.ts";
import { sessionObject } from "./session-address.ts";
import type { SessionState } from "./session-commands.ts";
import { sessionState } from "./sessions.ts";
import { webhookView } from "./webhook-view.ts";

export function configuredKeyView(key: SessionKeyRow): ConfiguredKey {
  return {
    ...publicKeyView(key),
    name: key.name,
    external_id: key.externalId,
    source: key.source,
    verified_at: key.verifiedAt,
  };
}

export function certificateAuthorityView(authority: SessionAuthorityRow): CertificateAuthority {
  return {
    id: authority.id,
    name: authority.name,
    public_key_ssh: authority.publicKeySsh,
    public_key_sha256: authority.publicKeySha256,
    public_key_algorithm: authority.publicKeyAlgorithm,
  };
}

export function collectedKeyView(key: ConnectionKeyRow): CollectedKey {
  return { ...publicKeyView(key), created_at: key.createdAt };
}

export function connectionView(connection: ConnectionRow, keys: ConnectionKeyRow[]): Connection {
  return {
    id: connection.id,
    method: connection.method,
    ip_address: connection.ipAddress,
    client_version: connection.clientVersion,
    created_at: connection.createdAt,
    closed_at: connection.closedAt,
    confirmed: connection.confirmed,
    outcome: connection.outcome,
    keys: keys.filter((key) => key.connectionId === connection.id).map(collectedKeyView),
    refusals: connection.refusals,
  };
}

/** The command to hand the user; `-p` only when the port is not SSH's default. */
export function sshCommand(env: Pick<Env, "SSH_HOST" | "SSH_PORT">, identifier: string): string {
  const port = env.SSH_PORT && env.SSH_PORT !== "22" ? `-p ${env.SSH_PORT} ` : "";
  return `ssh ${port}${identifier}@${env.SSH_HOST}`;
}

/** The public links of a session: its hosted page and where a detached signature goes. */
export function proofLinks(env: Pick<Env, "PUBLIC_URL">, session: SessionRow) {
  const base = env.PUBLIC_URL.replace(/\/+$/, "");
  const signatureUrl = `${base}/api/v1/signatures/${session.connectionIdentifier}/`;
  return {
    proof_url: `${base}/p/${session.connectionIdentifier}`,
    signature_challenge: session.signatureChallenge,
    signature_url: signatureUrl,
    // The challenge is `keyproof:` and base32, so single quotes hold it in any shell.
    sign_command: `printf '%s' '${session.signatureChallenge}' | ssh-keygen -Y sign -n ${SIGNATURE_NAMESPACE} -f ~/.ssh/id_ed25519 | curl -sS --data-binary @- ${signatureUrl}`,
  };
}

function sessionFields(env: Env, session: SessionRow) {
  return {
    id: session.id,
    connection_identifier: session.connectionIdentifier,
    ssh_command: sshCommand(env, session.connectionIdentifier),
    ...proofLinks(env, session),
    external_id: session.externalId,
    multi_key: session.multiKey,
    multi_connection: session.multiConnection,
    must_confirm: session.mustConfirm,
    require_security_key: session.requireSecurityKey,
    require_user_verification: session.requireUserVerification,
    ssh_banner: session.sshBanner,
    ssh_message: session.sshMessage,
    return_url: session.returnUrl,
    expired_at: session.expiredAt,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    completed_at: session.completedAt,
    redacted_at: session.redactedAt,
    livemode: session.livemode,
  };
}

export function collectSessionView(env: Env, session: SessionRow): CollectSession {
  return { ...sessionFields(env, session), status: session.status as CollectSession["status"] };
}

/** What a verification session was given in advance: the keys to prove and the CAs to trust. */
export interface GivenKeys {
  keys: SessionKeyRow[];
  authorities: SessionAuthorityRow[];
}

export function verifySessionView(env: Env, session: SessionRow, given: GivenKeys): VerifySession {
  const ofSession = <T extends { sessionId: string }>(rows: T[]) =>
    rows.filter((row) => row.sessionId === session.id);
  return {
    ...sessionFields(env, session),
    status: session.status as VerifySession["status"],
    match_all_keys: session.matchAllKeys,
    max_attempts: session.maxAttempts,
    failed_attempts: session.failedAttempts,
    verified_at: session.verifiedAt,
    keys: ofSession(given.keys).map(configuredKeyView),
    certificate_authorities: ofSession(given.authorities).map(certificateAuthorityView),
    principal: session.principal,
    certificate_verified_at: session.certificateVerifiedAt,
  };
}

export interface SessionListFilter {
  offset: number;
  limit: number;
  status?: SessionStatus | undefined;
  external_id?: string | undefined;
}

/**
 * One page, newest first: ids start with their creation time after a prefix of their kind
 * (`cs_`, `vs_`), so within a kind `id DESC` is creation order and across both the time after
 * the prefix is. The one index of a project's sessions is by mode and kind (an index entry is a
 * row written: one for every order a list is read in cost a row per session each), so the page
 * is the newest of each kind merged: each a range of the index, read newest first until the page
 * is full (a status filter reads past the sessions of other statuses), or, filtered by
 * `external_id`, a range of its own partial index.
 */
export async function listSessionRows(
  ctx: ProjectContext,
  kind: SessionKind | undefined,
  filter: SessionListFilter,
  /** Sessions left out, and the rows read instead of the page's (own-writes.ts). */
  apart: { exclude: string[]; window: { offset: number; limit: number } } | null = null,
) {
  const conditions: SQL[] = [
    eq(sessions.projectId, ctx.projectId),
    eq(sessions.livemode, ctx.livemode),
  ];
  // Both kinds named, not left out: the count then seeks each kind's part of the index too.
  conditions.push(kind ? eq(sessions.kind, kind) : inArray(sessions.kind, [...SESSION_KINDS]));
  if (filter.status) conditions.push(eq(sessions.status, filter.status));
  if (filter.external_id !== undefined)
    conditions.push(eq(sessions.externalId, filter.external_id));
  if (apart && apart.exclude.length > 0) conditions.push(notInArray(sessions.id, apart.exclude));
  const where = and(...conditions);
  const read = apart ? { ...filter, ...apart.window } : filter;
  const kinds = kind ? [kind] : SESSION_KINDS;
  const newestFirst = sql`substr("id", 4) desc`;
  const [items, [totals]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(sessions)
      .where(inArray(sessions.id, pageIds(ctx, where, kinds, read)))
      .orderBy(newestFirst),
    countForPage(ctx.db, sessions, where, filter),
  ]);
  const { items: rows, ...page } = listEnvelope(items, totals, filter);
  return { rows, page };
}

/**
 * The ids of a list's page, from the part of the sessions index (project, mode, kind, id) each
 * kind the list reads has, in creation order: one kind's is a range read as it is; both kinds'
 * are each cut to the page's end and merged.
 */
function pageIds(
  ctx: ProjectContext,
  where: SQL | undefined,
  kinds: readonly SessionKind[],
  page: SessionListFilter,
) {
  const idsOf = (kind: SessionKind) =>
    ctx.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(where, eq(sessions.kind, kind)));
  const [onlyKind] = kinds;
  if (kinds.length === 1 && onlyKind)
    return idsOf(onlyKind).orderBy(sql`"id" desc`).limit(page.limit).offset(page.offset);
  const newest = page.offset + page.limit;
  const [first, second] = kinds.map((kind) =>
    ctx.db.select().from(idsOf(kind).orderBy(desc(sessions.id)).limit(newest).as(`${kind}_newest`)),
  );
  if (!first) throw new Error("a list has a part for each kind");
  return (second ? ctx.db.select().from(unionAll(first, second).as("newest")) : first)
    .orderBy(sql`substr("id", 4) desc`)
    .limit(page.limit)
    .offset(page.offset);
}

export async function givenKeysOf(db: Database, sessionIds: string[]): Promise<GivenKeys> {
  if (sessionIds.length === 0) return { keys: [], authorities: [] };
  const [keys, authorities] = await db.batch([
    db
      .select()
      .from(sessionKeys)
      .where(inArray(sessionKeys.sessionId, sessionIds))
      .orderBy(sessionKeys.sessionId, sessionKeys.position),
    db
      .select()
      .from(sessionAuthorities)
      .where(inArray(sessionAuthorities.sessionId, sessionIds))
      .orderBy(sessionAuthorities.sessionId, sessionAuthorities.position),
  ]);
  return { keys, authorities };
}

/** Everything the single-session GET shows, as the session's object holds it now. */
export async function loadSessionDetail(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
): Promise<SessionDetail> {
  return detailOf(ctx, await sessionState(ctx, kind, sessionId));
}

/** The session's own webhooks, newest first, as D1 has them. */
export function sessionWebhookRows(ctx: ProjectContext, sessionId: string) {
  return ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.sessionId, sessionId), eq(webhooks.projectId, ctx.projectId)))
    .orderBy(desc(webhooks.id));
}

/** After a change to a session's webhooks in D1: its object's copy is D1's again. */
export async function renewWebhookCopy(ctx: ProjectContext, sessionId: string) {
  const rows = await sessionWebhookRows(ctx, sessionId);
  const ref = { sessionId, shard: ctx.shard, projectId: ctx.projectId, livemode: ctx.livemode };
  await sessionObject(ctx.env, ref).rememberWebhooks(ref, rows, true);
}

/**
 * The session's own webhooks: its object's copy, so no D1 call (and none while D1 is away);
 * read from D1 once, and kept by the object, for a session whose object has none yet.
 */
async function webhooksOf(ctx: ProjectContext, state: SessionState): Promise<WebhookRow[]> {
  if (state.webhooks) return [...state.webhooks].sort((a, b) => (a.id < b.id ? 1 : -1));
  const rows = await sessionWebhookRows(ctx, state.session.id);
  const ref = {
    sessionId: state.session.id,
    shard: ctx.shard,
    projectId: ctx.projectId,
    livemode: ctx.livemode,
  };
  await sessionObject(ctx.env, ref).rememberWebhooks(ref, rows, false);
  return rows;
}

/** A session's state as the single-session responses show it. */
export async function detailOf(ctx: ProjectContext, state: SessionState): Promise<SessionDetail> {
  const hooks = await webhooksOf(ctx, state);
  return {
    session: state.session,
    given: { keys: state.keys, authorities: state.authorities },
    connections: state.connections.map((connection) =>
      connectionView(connection, state.connectionKeys),
    ),
    webhooks: hooks.map((hook): SessionWebhookView => webhookView(hook)),
  };
}

/** Everything a single-session response shows; right after creation, webhooks carry secrets. */
export interface SessionDetail {
  session: SessionRow;
  given: GivenKeys;
  connections: Connection[];
  webhooks: SessionWebhookView[];
}

type SessionWebhookView = CollectSessionDetail["webhooks"][number];

export function collectSessionDetailView(env: Env, detail: SessionDetail): CollectSessionDetail {
  return {
    ...collectSessionView(env, detail.session),
    connections: detail.connections,
    webhooks: detail.webhooks,
  };
}

export function verifySessionDetailView(env: Env, detail: SessionDetail): VerifySessionDetail {
  return {
    ...verifySessionView(env, detail.session, detail.given),
    connections: detail.connections,
    webhooks: detail.webhooks,
  };
}
