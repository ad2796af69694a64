import { Hono } from "hono";
import { problemErrors } from "../../api/validate.ts";
import type { AppEnv } from "../../app-env.ts";
import { audit, sessionChange } from "../../domain/audit-log.ts";
import type { ProjectContext } from "../../domain/context.ts";
import { listEvents } from "../../domain/event-log.ts";
import { listSessionRows, loadSessionDetail } from "../../domain/session-views.ts";
import {
  completeSession,
  createSession,
  deleteSession,
  kindOfSession as kindOfSessionId,
  redactSession,
  sessionIndexed,
} from "../../domain/sessions.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import type { SessionKind, SessionStatus } from "../../protocol/messages.ts";
import { collectSessionCreate, verifySessionCreate } from "../../schemas/sessions.ts";
import { newWebhookRow } from "../../webhooks/definitions.ts";
import { deliveriesForSession } from "../../webhooks/deliveries.ts";
import {
  checked,
  errorMessage,
  formState,
  optionalNumber,
  optionalText,
  pageContext,
  redirectWith,
  takeShownOnce,
  text,
} from "../forms.ts";
import { NewSessionPage } from "../pages/new-session-page.tsx";
import { SessionListPage } from "../pages/session-list-page.tsx";
import { SessionPage } from "../pages/session-page.tsx";

/** Skipped forge keys the notice after creation names; it counts the rest. */
const NOTICE_SKIPPED_SHOWN = 3;

const PAGE_SIZE = 25;
type Form = Record<string, string | File | (string | File)[]>;

const kindOf = (value: string | undefined): SessionKind =>
  value === "verify" ? "verify" : "collect";

/**
 * A write is answered once the session's object has it; the list the next page shows reads D1.
 * So a page's write has the object push it first: the user sees what they did. (While D1 is away
 * the list cannot be read either, and says so.)
 */
function pushedForNextPage(ctx: ProjectContext, kind: SessionKind, sessionId: string) {
  return sessionIndexed(ctx, kind, sessionId).catch(() => undefined);
}

function kindOfSession(sessionId: string): SessionKind {
  const kind = kindOfSessionId(sessionId);
  if (!kind) throw notFound("Session");
  return kind;
}

/** Public keys pasted into a textarea: PEM and RFC 4716 blocks whole, other lines one key each. */
export function splitKeys(input: string): string[] {
  const keys: string[] = [];
  let block: string[] | null = null;
  for (const line of input.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (block) {
      block.push(trimmed);
      if (/^-{4,5} ?END /.test(trimmed)) {
        keys.push(block.join("\n"));
        block = null;
      }
    } else if (/^-{4,5} ?BEGIN /.test(trimmed)) {
      block = [trimmed];
    } else if (trimmed) {
      keys.push(trimmed);
    }
  }
  if (block) keys.push(block.join("\n"));
  return keys;
}

/** The form as the API's create body, validated by the same schema as the API. */
function sessionInput(kind: SessionKind, form: Form) {
  const body: Record<string, unknown> = {
    external_id: optionalText(form, "external_id"),
    multi_key: checked(form, "multi_key"),
    multi_connection: checked(form, "multi_connection"),
    must_confirm: checked(form, "must_confirm"),
    require_security_key: checked(form, "require_security_key"),
    require_user_verification: checked(form, "require_user_verification"),
    ssh_banner: optionalText(form, "ssh_banner"),
    ssh_message: optionalText(form, "ssh_message"),
    timeout: optionalNumber(form, "timeout"),
    return_url: optionalText(form, "return_url"),
    webhooks: optionalText(form, "webhook_url")
      ? [{ url: optionalText(form, "webhook_url") }]
      : undefined,
  };
  if (kind === "verify") {
    Object.assign(body, {
      match_all_keys: checked(form, "match_all_keys"),
      max_attempts: optionalNumber(form, "max_attempts"),
      keys: splitKeys(text(form, "keys")).map((publicKey) => ({ public_key: publicKey })),
      keys_from: optionalText(form, "keys_from")
        ?.split(/[\s,]+/)
        .filter(Boolean),
      certificate_authorities: splitKeys(text(form, "certificate_authorities")).map(
        (publicKey) => ({ public_key: publicKey }),
      ),
      principal: optionalText(form, "principal"),
    });
  }
  const parsed = (kind === "verify" ? verifySessionCreate : collectSessionCreate).safeParse(body);
  if (!parsed.success) {
    const errors = problemErrors("body", parsed.error, body);
    throw new ApiError(400, errors[0]?.message ?? "Invalid session", errors);
  }
  return parsed.data;
}

export const sessionRoutes = new Hono<AppEnv>()
  .get("/sessions", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const page = pageContext(c);
    const kindParam = c.req.query("kind");
    const kind = kindParam ? kindOf(kindParam) : undefined;
    const status = c.req.query("status") || undefined;
    const offset = Math.max(0, Number.parseInt(c.req.query("offset") ?? "0", 10) || 0);
    const { rows, page: list } = await listSessionRows(ctx, kind, {
      offset,
      limit: PAGE_SIZE,
      status: status as SessionStatus | undefined,
    });
    return c.html(
      <SessionListPage
        page={page}
        project={project}
        kind={kind}
        status={status}
        sessions={rows}
        offset={offset}
        limit={PAGE_SIZE}
        total={list.total}
      />,
    );
  })
  .get("/sessions/new", async (c) => {
    const { project } = c.var.member;
    const page = pageContext(c);
    return c.html(
      <NewSessionPage page={page} project={project} kind={kindOf(c.req.query("kind"))} />,
    );
  })
  .post("/sessions", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const form = await c.req.parseBody();
    const kind = kindOf(text(form, "kind"));
    try {
      const input = sessionInput(kind, form);
      const hooks = (input.webhooks ?? []).map((hook, i) =>
        newWebhookRow(ctx, null, hook, `body.webhooks[${i}]`),
      );
      const { session, skipped, skippedCount } = await createSession(ctx, kind, input, hooks);
      await pushedForNextPage(ctx, kind, session.id);
      const shown = skipped.slice(0, NOTICE_SKIPPED_SHOWN);
      const more = skippedCount > shown.length ? `; and ${skippedCount - shown.length} more` : "";
      const notice =
        skippedCount === 0
          ? "Session created."
          : `Session created. ${skippedCount} listed key${skippedCount === 1 ? " was" : "s were"} skipped: ${shown.map((key) => `${key.source} (${key.reason})`).join("; ")}${more}.`;
      const path = `/projects/${project.id}/sessions/${session.id}`;
      const [hook] = hooks;
      const secret = hook && { url: hook.url, secret: hook.secret };
      return redirectWith(
        c,
        path,
        { notice },
        secret && { projectId: project.id, webhookSecret: secret },
      );
    } catch (error) {
      // The form again, as the user left it, with each problem beside its field.
      return c.html(
        <NewSessionPage
          page={pageContext(c)}
          project={project}
          kind={kind}
          form={formState(form, error)}
        />,
        400,
      );
    }
  })
  .get("/sessions/:session_id", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const page = pageContext(c);
    const sessionId = c.req.param("session_id");
    const detail = await loadSessionDetail(ctx, kindOfSession(sessionId), sessionId);
    const [events, deliveries] = await Promise.all([
      listEvents(ctx, { offset: 0, limit: 100, session_id: sessionId }),
      deliveriesForSession(ctx, sessionId),
    ]);
    return c.html(
      <SessionPage
        page={page}
        env={c.env}
        project={project}
        detail={detail}
        events={events.items}
        deliveries={deliveries}
        webhookSecret={takeShownOnce(c, project.id).webhookSecret}
      />,
    );
  })
  .post("/sessions/:session_id/complete", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const sessionId = c.req.param("session_id");
    const back = `/projects/${project.id}/sessions/${sessionId}`;
    try {
      await completeSession(ctx, kindOfSession(sessionId), sessionId);
      await pushedForNextPage(ctx, kindOfSession(sessionId), sessionId);
      return redirectWith(c, back, { notice: "Session completed." });
    } catch (error) {
      return redirectWith(c, back, { error: errorMessage(error) });
    }
  })
  .post("/sessions/:session_id/redact", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const sessionId = c.req.param("session_id");
    const back = `/projects/${project.id}/sessions/${sessionId}`;
    const form = await c.req.parseBody();
    if (form.confirm !== "redact")
      return redirectWith(c, back, { error: "Tick the box to confirm the redaction." });
    try {
      await redactSession(ctx, kindOfSession(sessionId), sessionId);
      await audit(c, sessionChange("session.redacted", ctx, sessionId));
      await pushedForNextPage(ctx, kindOfSession(sessionId), sessionId);
      return redirectWith(c, back, { notice: "Session redacted: its personal data is erased." });
    } catch (error) {
      return redirectWith(c, back, { error: errorMessage(error) });
    }
  })
  .post("/sessions/:session_id/delete", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const sessionId = c.req.param("session_id");
    const form = await c.req.parseBody();
    if (form.confirm !== "delete")
      return redirectWith(c, `/projects/${project.id}/sessions/${sessionId}`, {
        error: "Tick the box to confirm deleting the session.",
      });
    await deleteSession(ctx, kindOfSession(sessionId), sessionId);
    await audit(c, sessionChange("session.deleted", ctx, sessionId));
    await pushedForNextPage(ctx, kindOfSession(sessionId), sessionId);
    return redirectWith(c, `/projects/${project.id}/sessions`, { notice: "Session deleted." });
  });
