import { createRoute } from "@hono/zod-openapi";
import type { z } from "zod";
import { signAttestation } from "../domain/attestations.ts";
import { auditAfterAnswer, sessionChange } from "../domain/audit-log.ts";
import { listWithOwnWrites } from "../domain/own-writes.ts";
import {
  collectSessionDetailView,
  collectSessionView,
  detailOf,
  type GivenKeys,
  givenKeysOf,
  loadSessionDetail,
  type SessionDetail,
  verifySessionDetailView,
  verifySessionView,
} from "../domain/session-views.ts";
import {
  type CreateSessionInput,
  completeSession,
  createSession,
  deleteSession,
  redactSession,
  sessionState,
  updateSession,
} from "../domain/sessions.ts";
import { webhookView } from "../domain/webhook-view.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../lib/errors.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { attestation } from "../schemas/attestations.ts";
import { listEnvelope } from "../schemas/common.ts";
import {
  collectSession,
  collectSessionCreate,
  collectSessionDetail,
  collectSessionListQuery,
  collectSessionPatch,
  type SessionOptionsInput,
  sessionIdParam,
  verifySession,
  verifySessionCreate,
  verifySessionDetail,
  verifySessionListQuery,
  verifySessionPatch,
} from "../schemas/sessions.ts";
import { newWebhookRow } from "../webhooks/definitions.ts";
import { noteBookmark } from "./bookmarks.ts";
import { jsonBody, jsonResponse, problems } from "./responses.ts";
import { apiRouter } from "./router.ts";

type SessionRow = SessionDetail["session"];

/** What differs between collection and verification sessions; the operations are the same. */
interface SessionApi<Summary extends z.ZodType, Detail extends z.ZodType> {
  kind: SessionKind;
  noun: string;
  tag: string;
  create: z.ZodType<CreateSessionInput>;
  patch: z.ZodType<SessionOptionsInput>;
  listQuery: typeof collectSessionListQuery | typeof verifySessionListQuery;
  summary: Summary;
  detail: Detail;
  summaryView: (env: Env, session: SessionRow, given: GivenKeys) => z.infer<Summary>;
  detailView: (env: Env, detail: SessionDetail) => z.infer<Detail>;
}

function sessionRoutes<Summary extends z.ZodType, Detail extends z.ZodType>(
  spec: SessionApi<Summary, Detail>,
) {
  const { kind, noun, tag } = spec;
  const K = kind === "collect" ? "Collect" : "Verify";
  const one = jsonResponse(spec.detail, `The ${noun}, with its connections`);
  return apiRouter()
    .openapi(
      createRoute({
        method: "post",
        path: "/",
        operationId: `create${K}Session`,
        tags: [tag],
        summary: `Create a ${noun}`,
        description: `Answers with the \`ssh_command\` to give the user. ${
          kind === "verify"
            ? "`keys` are the public keys the user must prove they hold."
            : "Every option may be left out; an empty body makes a single-key, single-connection session that lives an hour."
        }`,
        request: jsonBody(spec.create, kind === "verify"),
        responses: {
          201: jsonResponse(spec.detail, `The new ${noun}`),
          ...(kind === "verify"
            ? problems({
                503: "A forge named in `keys_from` could not be reached or failed; nothing was created. Retry after `Retry-After` seconds",
              })
            : {}),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const input = c.req.valid("json");
        const hooks = (input.webhooks ?? []).map((hook, i) =>
          newWebhookRow(ctx, null, hook, `body.webhooks[${i}]`),
        );
        const { session, keys, authorities, webhooks, skipped, skippedCount, bookmark } =
          await createSession(ctx, kind, input, hooks, c.var.idempotency);
        noteBookmark(c, bookmark, session.id);
        const withSecrets = webhooks.map((row) => ({ ...webhookView(row), secret: row.secret }));
        const detail = {
          session,
          given: { keys, authorities },
          connections: [],
          webhooks: withSecrets,
        };
        const view = spec.detailView(c.env, detail) as Record<string, unknown>;
        // Only an answer to keys_from says what it skipped.
        const fromForges = kind === "verify" && (input as { keys_from?: unknown[] }).keys_from;
        return c.json(
          fromForges ? { ...view, skipped_keys: skipped, skipped_count: skippedCount } : view,
          201,
        );
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/",
        operationId: `list${K}Sessions`,
        tags: [tag],
        summary: `List ${noun}s, newest first`,
        request: { query: spec.listQuery },
        responses: {
          200: jsonResponse(listEnvelope(spec.summary), `A page of ${noun}s`),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const { rows, page, shownApart, apartGiven } = await listWithOwnWrites(
          ctx,
          kind,
          c.req.valid("query"),
          c.var.ownWrites,
        );
        const fromD1 = await givenKeysOf(
          ctx.db,
          kind === "verify"
            ? rows.filter((row) => !shownApart.has(row.id)).map((row) => row.id)
            : [],
        );
        const given = {
          keys: [...fromD1.keys, ...apartGiven.keys],
          authorities: [...fromD1.authorities, ...apartGiven.authorities],
        };
        const items = rows.map((session) => spec.summaryView(c.env, session, given));
        return c.json({ items, ...page }, 200);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/{session_id}",
        operationId: `get${K}Session`,
        tags: [tag],
        summary: `Get a ${noun} with its connections and keys`,
        request: { params: sessionIdParam },
        responses: { 200: one },
      }),
      async (c) => {
        const detail = await loadSessionDetail(
          c.var.project,
          kind,
          c.req.valid("param").session_id,
        );
        return c.json(spec.detailView(c.env, detail), 200);
      },
    )
    .openapi(
      createRoute({
        method: "patch",
        path: "/{session_id}",
        operationId: `update${K}Session`,
        tags: [tag],
        summary: `Change the options of an open ${noun}`,
        description:
          "Only the fields given change; `null` clears a text field. A connection already in progress keeps the rules it opened with.",
        request: { params: sessionIdParam, ...jsonBody(spec.patch) },
        responses: {
          200: one,
          ...problems({ 409: "The session accepts no more connections, so its options are final" }),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const sessionId = c.req.valid("param").session_id;
        const written = await updateSession(ctx, kind, sessionId, c.req.valid("json"));
        noteBookmark(c, written.bookmark, sessionId);
        const detail = await detailOf(ctx, written.value);
        return c.json(spec.detailView(c.env, detail), 200);
      },
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/{session_id}/complete",
        operationId: `complete${K}Session`,
        tags: [tag],
        summary: `Close a multi-connection ${noun}`,
        description:
          kind === "collect"
            ? "The session becomes `completed` and accepts no more connections. 409 for a single-connection session (it completes by itself) or one already closed."
            : "The session stops accepting connections: `verified` if it was, otherwise `failed`. 409 for a single-connection session or one already closed.",
        request: { params: sessionIdParam },
        responses: {
          200: one,
          ...problems({
            409: "A single-connection session (it completes by itself) or one already closed",
          }),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const sessionId = c.req.valid("param").session_id;
        const written = await completeSession(ctx, kind, sessionId);
        noteBookmark(c, written.bookmark, sessionId);
        const detail = await detailOf(ctx, written.value);
        return c.json(spec.detailView(c.env, detail), 200);
      },
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/{session_id}/redact",
        operationId: `redact${K}Session`,
        tags: [tag],
        summary: `Erase a closed ${noun}'s personal data`,
        description:
          "Its public keys, fingerprints, key comments and names, certificates, client addresses and software, `external_id`, `return_url`, `principal`, forge accounts, `ssh_banner` and `ssh_message` are erased from the session, its event log and its webhook delivery records, here and in storage; what is left is its outline: id, kind, status, its keys, connections and attempts counted, timestamps and `redacted_at`. A `redacted` event follows; its attestation answers 410 from then on. A second call answers the same. 409 while the session accepts connections.",
        request: { params: sessionIdParam },
        responses: {
          200: jsonResponse(spec.detail, `The redacted ${noun}`),
          ...problems({
            409: "The session still accepts connections: complete it or let it expire first",
          }),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const sessionId = c.req.valid("param").session_id;
        const written = await redactSession(ctx, kind, sessionId);
        noteBookmark(c, written.bookmark, sessionId);
        auditAfterAnswer(c, sessionChange("session.redacted", ctx, sessionId));
        const detail = await detailOf(ctx, written.value);
        return c.json(spec.detailView(c.env, detail), 200);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/{session_id}/attestation",
        operationId: `get${K}SessionAttestation`,
        tags: [tag],
        summary: `Get the ${noun}'s result, signed`,
        description:
          "A JWT (`EdDSA`, `typ` `keyproof-attestation+jwt`) of the session as it is now: `iss` (this service), `aud` (your project id), `sub` (the session id), `kind`, `status`, `external_id` and every proven key, valid for 10 minutes. Verify it offline with the keys at `/.well-known/jwks.json`; the same claims come back in a `return_url` redirect and in each attempt of the `status_changed` webhook that ends the session. 410 once the session is redacted.",
        request: { params: sessionIdParam },
        responses: {
          200: jsonResponse(attestation, "The signed result"),
          ...problems({
            410: "The session was redacted: there is no result left to sign",
            503: "Attestations are not set up on this service (its operator sets ATTESTATION_KEYS)",
          }),
        },
      }),
      async (c) => {
        const state = await sessionState(c.var.project, kind, c.req.valid("param").session_id);
        if (state.session.redactedAt !== null) {
          throw new ApiError(
            410,
            `The session was redacted at ${state.session.redactedAt}: its keys are erased, so there is no result left to sign`,
          );
        }
        const signed = await signAttestation(c.env, state);
        if (!signed) {
          throw new ApiError(
            503,
            "Attestations are not set up on this service: its operator must set the secret ATTESTATION_KEYS",
          );
        }
        return c.json(signed, 200);
      },
    )
    .openapi(
      createRoute({
        method: "delete",
        path: "/{session_id}",
        operationId: `delete${K}Session`,
        tags: [tag],
        summary: `Delete a ${noun} with its connections and keys`,
        description:
          "Its events and their webhook delivery records are erased with it, and no webhook delivery about it is sent after this answer; a list or event log sent the answer's `keyproof-bookmark` leaves it out at once.",
        request: { params: sessionIdParam },
        responses: { 204: { description: "Deleted" } },
      }),
      async (c) => {
        const sessionId = c.req.valid("param").session_id;
        const written = await deleteSession(c.var.project, kind, sessionId);
        noteBookmark(c, written.bookmark, sessionId);
        auditAfterAnswer(c, sessionChange("session.deleted", c.var.project, sessionId));
        return c.body(null, 204);
      },
    );
}

export const collectSessionRoutes = sessionRoutes({
  kind: "collect",
  noun: "collection session",
  tag: "Collection sessions",
  create: collectSessionCreate,
  patch: collectSessionPatch,
  listQuery: collectSessionListQuery,
  summary: collectSession,
  detail: collectSessionDetail,
  summaryView: (env, session) => collectSessionView(env, session),
  detailView: collectSessionDetailView,
});

export const verifySessionRoutes = sessionRoutes({
  kind: "verify",
  noun: "verification session",
  tag: "Verification sessions",
  create: verifySessionCreate,
  patch: verifySessionPatch,
  listQuery: verifySessionListQuery,
  summary: verifySession,
  detail: verifySessionDetail,
  summaryView: verifySessionView,
  detailView: verifySessionDetailView,
});
