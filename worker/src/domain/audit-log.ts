import { desc, eq, lt } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { Database } from "../db/client.ts";
import { type AuditAction, auditLog } from "../db/directory.ts";
import { type Page, paginate } from "../db/paginate.ts";
import { encodeTime, newId } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { originOf } from "./security-log.ts";

/**
 * A project's audit log: every change to the project by a member in the web app or by an API
 * key — keys, webhooks, members, its name and retention, its test data, sessions redacted or
 * deleted — with who made it, when and from where (the client's address and user agent). It
 * names what changed by id and a few settings, never a session's data: an erased session's id
 * may stay in it, nothing else of it. Kept AUDIT_KEPT_DAYS, and deleted with the project.
 */
export const AUDIT_KEPT_DAYS = 400;

/** Who made a change: a signed-in account, or an API key. */
export interface Actor {
  type: "account" | "api_key";
  id: string;
  /** The account's email, or the key's prefix. */
  label: string;
  ipAddress: string;
  userAgent: string;
}

/** The caller of a request: its API key (the API) or its signed-in account (the web app). */
export function actorOf(c: Context<AppEnv>): Actor {
  const from = originOf(c);
  const account = c.get("account") as AppEnv["Variables"]["account"] | undefined;
  if (account) return { type: "account", id: account.id, label: account.email, ...from };
  const { key } = c.var.apiKey;
  return { type: "api_key", id: key.id, label: key.prefix, ...from };
}

export interface AuditEntry {
  action: AuditAction;
  targetId?: string | null;
  details?: Record<string, string | number | boolean>;
}

/** A session redacted or deleted, as the log names it: its id and mode, nothing of its data. */
export const sessionChange = (
  action: "session.redacted" | "session.deleted",
  ctx: { livemode: boolean },
  sessionId: string,
): AuditEntry => ({ action, targetId: sessionId, details: { livemode: ctx.livemode } });

/** Writes the change to the project's audit log. */
export async function recordAudit(
  directory: Database,
  projectId: string,
  actor: Actor,
  entry: AuditEntry,
  now = new Date(),
) {
  await directory.insert(auditLog).values({
    id: newId("aud", now.getTime()),
    projectId,
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label,
    action: entry.action,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
    ipAddress: actor.ipAddress,
    userAgent: actor.userAgent,
    createdAt: now.toISOString(),
  });
}

/** The request's change to its project, recorded as its caller made it. */
export const audit = (c: Context<AppEnv>, entry: AuditEntry) =>
  recordAudit(c.var.project.directory, c.var.project.projectId, actorOf(c), entry);

/**
 * The same for a change answered at the edge (a session's redaction or deletion), whose answer
 * does not wait for the directory's primary: written after it, and a failure logged.
 */
export function auditAfterAnswer(c: Context<AppEnv>, entry: AuditEntry) {
  c.executionCtx.waitUntil(
    audit(c, entry).catch((error: unknown) =>
      log(c.env, "error", "an audit log entry could not be written", {
        project_id: c.var.project.projectId,
        action: entry.action,
        target_id: entry.targetId ?? null,
        error: String(error),
      }),
    ),
  );
}

/** One page of the project's audit log, newest first. */
export function listAuditLog(directory: Database, projectId: string, page: Page) {
  const where = eq(auditLog.projectId, projectId);
  return paginate(
    directory,
    directory.select().from(auditLog).where(where).$dynamic(),
    { table: auditLog, where, id: auditLog.id, order: [desc(auditLog.id)] },
    page,
  );
}

/** The cron's share: entries older than AUDIT_KEPT_DAYS, every project's (ids sort by time). */
export function auditEntriesPastTheirTime(directory: Database, now = new Date()) {
  const before = `aud_${encodeTime(now.getTime() - AUDIT_KEPT_DAYS * 86_400_000)}`;
  return directory.delete(auditLog).where(lt(auditLog.id, before)).returning({ id: auditLog.id });
}
